import { once } from 'node:events';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { createPool } from '../src/client.js';
import { ReplicaReads, type ReadQueryable } from '../src/replica-reads.js';

// Both "servers" are the machine's PostgreSQL; the application name tells which pool answered.
const server = 'postgresql://postgres@127.0.0.1:5432/postgres';
const WHO = "SELECT current_setting('application_name') AS who";

let primary: pg.Pool;
let replica: pg.Pool;
let deadReplica: pg.Pool;

/** A loopback port nobody listens on: connecting is refused at once, as with a stopped replica. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

beforeAll(async () => {
  primary = createPool({ connectionString: `${server}?application_name=primary`, max: 2 });
  replica = createPool({ connectionString: `${server}?application_name=replica`, max: 2 });
  deadReplica = createPool({ connectionString: `postgresql://postgres@127.0.0.1:${await closedPort()}/postgres`, max: 2 });
});
afterAll(async () => {
  await Promise.all([primary.end(), replica.end(), deadReplica.end()]);
});

/** The replica pool, counting the reads that reach it. */
function counted(pool: pg.Pool): ReadQueryable & { attempts: number } {
  const wrapper = {
    attempts: 0,
    query<Row extends pg.QueryResultRow>(text: string, values: unknown[]) {
      wrapper.attempts += 1;
      return pool.query<Row>(text, values);
    },
  };
  return wrapper;
}

const who = async (reads: ReadQueryable) => (await reads.query<{ who: string }>(WHO, [])).rows[0]?.who;

describe('ReplicaReads', () => {
  it('reads the replica while it answers, and the primary when there is none', async () => {
    expect(await who(new ReplicaReads(primary, replica))).toBe('replica');
    expect(await who(new ReplicaReads(primary, null))).toBe('primary');
  });

  it('answers from the primary when the replica refuses, then skips the replica for skipForMs and tries it again after', async () => {
    let now = 1_000;
    const errors: string[] = [];
    const dead = counted(deadReplica);
    const reads = new ReplicaReads(primary, dead, {
      skipForMs: 5_000,
      now: () => now,
      onReplicaError: (error) => errors.push(error.message),
    });

    expect(await who(reads)).toBe('primary');
    expect(dead.attempts).toBe(1);
    expect(errors).toEqual([expect.stringContaining('ECONNREFUSED')]);
    expect(reads.usingReplica).toBe(false);

    // Within the period the replica is not asked at all.
    now += 4_999;
    expect(await Promise.all([who(reads), who(reads), who(reads)])).toEqual(['primary', 'primary', 'primary']);
    expect(dead.attempts).toBe(1);

    // After it, the replica is tried again (and, still dead, reported again).
    now += 1;
    expect(reads.usingReplica).toBe(true);
    expect(await who(reads)).toBe('primary');
    expect(dead.attempts).toBe(2);
    expect(errors).toHaveLength(2);
  });

  it('reports once when reads in flight fail together', async () => {
    const errors: Error[] = [];
    const reads = new ReplicaReads(primary, deadReplica, { onReplicaError: (error) => errors.push(error) });
    expect(await Promise.all(Array.from({ length: 5 }, () => who(reads)))).toEqual(Array(5).fill('primary'));
    expect(errors).toHaveLength(1);
  });

  it('answers from the primary when a query fails on the replica', async () => {
    const errors: string[] = [];
    // The replica's sessions cancel anything slower than 1 ms, as a hot standby cancels a query that conflicts with recovery.
    const cancelling = createPool({ connectionString: `${server}?options=-c%20statement_timeout%3D1`, max: 1 });
    try {
      const reads = new ReplicaReads(primary, cancelling, { onReplicaError: (error) => errors.push(error.message) });
      const { rows } = await reads.query<{ who: string }>(`SELECT pg_sleep(0.05), current_setting('application_name') AS who`, []);
      expect(rows[0]?.who).toBe('primary');
    } finally {
      await cancelling.end();
    }
    // Under load PostgreSQL has reported this 1 ms timeout as "due to user request" (a CI run saw it): either is the replica cancelling.
    expect(errors).toEqual([expect.stringMatching(/^canceling statement due to (statement timeout|user request)$/)]);
  });
});
