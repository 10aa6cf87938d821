/**
 * libpq's multi-host DATABASE_URL on a real primary and its synchronous standby: each connection goes to the first
 * host that gives the session `target_session_attrs` asks for, and after the primary is killed -9 and the standby
 * promoted, the same pool's next connections reach the promoted server, with every acknowledged commit there.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { connectClient, createDatabase, createPool, ensureDatabase, migrate, NoFittingHostError } from '@kasa/db';
import { killPostgres, startPrivatePostgres, startSynchronousStandby, type PrivatePostgres, type SynchronousStandby } from '@kasa/testkit';

let primary: PrivatePostgres;
let standby: SynchronousStandby;
const pools: pg.Pool[] = [];

const SERVER = 'SELECT inet_server_port() AS port, pg_is_in_recovery() AS standby';

/** A pool over the pair with the hosts in the given order; closed in afterAll. */
function pairPool(order: 'primary-first' | 'standby-first', attrs: string, connectionTimeoutMs = 2_000): pg.Pool {
  const hosts = order === 'primary-first' ? [primary.port, standby.port] : [standby.port, primary.port];
  const pool = createPool({
    connectionString: `postgresql://postgres@${hosts.map((port) => `127.0.0.1:${port}`).join(',')}/postgres?target_session_attrs=${attrs}`,
    max: 2,
    connectionTimeoutMs,
  });
  pools.push(pool);
  return pool;
}

async function answeringPort(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ port: number }>(SERVER);
  return rows[0]?.port ?? 0;
}

beforeAll(async () => {
  primary = await startPrivatePostgres();
  standby = await startSynchronousStandby(primary);
}, 120_000);

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
  await standby?.destroy();
  await primary?.destroy();
}, 60_000);

describe('choosing a host', () => {
  it('reads the primary for read-write and primary, whichever host is listed first', async () => {
    expect(await answeringPort(pairPool('standby-first', 'read-write'))).toBe(primary.port);
    expect(await answeringPort(pairPool('standby-first', 'primary'))).toBe(primary.port);
    expect(await answeringPort(pairPool('primary-first', 'read-write'))).toBe(primary.port);
  });

  it('takes the first host that answers for any, and the standby for standby, read-only and prefer-standby', async () => {
    expect(await answeringPort(pairPool('standby-first', 'any'))).toBe(standby.port);
    expect(await answeringPort(pairPool('primary-first', 'standby'))).toBe(standby.port);
    expect(await answeringPort(pairPool('primary-first', 'read-only'))).toBe(standby.port);
    expect(await answeringPort(pairPool('primary-first', 'prefer-standby'))).toBe(standby.port);
  });

  it('refuses fast with SQLSTATE 08001 when no host gives the session asked for', async () => {
    const onlyStandby = createPool({
      connectionString: `postgresql://postgres@127.0.0.1:${standby.port}/postgres?target_session_attrs=read-write`,
      max: 1,
    });
    pools.push(onlyStandby);
    const started = Date.now();
    const failure = await onlyStandby.query('SELECT 1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NoFittingHostError);
    expect(failure).toMatchObject({ code: '08001', message: expect.stringContaining('a standby') as unknown });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('creates and migrates a database on the primary through a multi-host URL, and Prisma writes there', async () => {
    const url = standby.failoverUrl('kasa_multi_host');
    expect(await ensureDatabase(url)).toBe(true);
    const result = await migrate(url);
    expect(result.applied.length).toBeGreaterThan(0);
    const database = createDatabase({ connectionString: url, max: 2 });
    try {
      const [row] = await database.prisma.$queryRaw<{ port: number }[]>`SELECT inet_server_port() AS port`;
      expect(row?.port).toBe(primary.port);
    } finally {
      await database.close();
    }
    const direct = await connectClient(url);
    try {
      expect((await direct.query<{ port: number }>(SERVER)).rows[0]?.port).toBe(primary.port);
    } finally {
      await direct.end();
    }
  });
});

describe('a failover', () => {
  it('moves a read-write pool to the promoted standby, where every acknowledged commit is', async () => {
    const pool = pairPool('primary-first', 'read-write', 1_000);
    await pool.query('CREATE TABLE acknowledged (n integer PRIMARY KEY)');
    const acknowledged: number[] = [];
    for (let n = 1; n <= 200; n += 1) {
      await pool.query('INSERT INTO acknowledged (n) VALUES ($1)', [n]);
      acknowledged.push(n);
    }
    expect(await answeringPort(pool)).toBe(primary.port);

    await killPostgres(primary);
    // Until the standby is promoted no host gives a read-write session: the pool says so at once.
    await expect(pool.query('SELECT 1')).rejects.toMatchObject({ code: expect.stringMatching(/^08001$|^ECONNREFUSED$/) as unknown });
    await standby.promote();

    let port = 0;
    for (let attempt = 0; attempt < 50 && port !== standby.port; attempt += 1) {
      port = await answeringPort(pool).catch(() => 0);
      if (port !== standby.port) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(port).toBe(standby.port);
    const { rows } = await pool.query<{ n: number }>('SELECT n FROM acknowledged ORDER BY n');
    expect(rows.map((row) => row.n)).toEqual(acknowledged);
    await pool.query('INSERT INTO acknowledged (n) VALUES (201)');
  }, 60_000);
});
