/**
 * The PostgreSQL and Redis that the tests reach are the ones `npm test` chose (TEST_POSTGRES_BASE and
 * TEST_REDIS_URL, through packages/testkit): each server is asked for its own port. With KASA_ENGINE_REPORT set
 * (first-run.test.ts does) the ports are written there, so a run with the default ports closed can show that the
 * tests used the embedded PostgreSQL and the spare-port Redis.
 */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTestEnvironment, TEST_POSTGRES_BASE, TEST_REDIS_URL, type TestEnvironment } from '@kasa/testkit';

/** Redis's own idea of its port (INFO server, tcp_port). */
function redisPort(url: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port || 6379) });
    let answer = '';
    socket.once('error', reject);
    socket.once('connect', () => socket.write('*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString();
      const match = /tcp_port:(\d+)/.exec(answer);
      if (match) {
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
  });
}

let env: TestEnvironment;
beforeAll(async () => {
  env = await createTestEnvironment();
});
afterAll(async () => {
  await env?.cleanup();
});

describe('the engines npm test hands to the tests', () => {
  it('are the PostgreSQL of TEST_POSTGRES_BASE (a migrated database of the test) and the Redis of TEST_REDIS_URL', async () => {
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    const [port, migrations] = await Promise.all([
      client.query<{ port: string }>('SHOW port'),
      client.query<{ n: number }>('SELECT count(*)::int AS n FROM _prisma_migrations'),
    ]).finally(() => client.end());
    const postgres = Number(port.rows[0]!.port);
    expect(migrations.rows[0]!.n).toBeGreaterThan(0);
    const redis = await redisPort(TEST_REDIS_URL);
    expect(postgres).toBe(Number(new URL(TEST_POSTGRES_BASE).port || 5432));
    expect(redis).toBe(Number(new URL(TEST_REDIS_URL).port || 6379));
    expect(env.databaseUrl.startsWith(`${TEST_POSTGRES_BASE.replace(/\/+$/, '')}/`)).toBe(true);
    if (process.env.KASA_ENGINE_REPORT) writeFileSync(process.env.KASA_ENGINE_REPORT, JSON.stringify({ postgres, redis }));
  });
});
