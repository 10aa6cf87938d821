/**
 * A server that dies while a multi-host pool checks a new connection's session (the primary killed -9 during a
 * failover) must fail that connect, never crash the process: node-postgres emits the socket's error on the client
 * as well as failing the query, and the pool listens for it only once the connect is done.
 */
import { once } from 'node:events';
import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type pg from 'pg';
import { createPool } from '../src/client.js';

/** The session check's query text, as it crosses the wire. */
const SESSION_CHECK = Buffer.from('pg_is_in_recovery');

let proxy: Server;
let port: number;
let checksSeen = 0;
/** Which session check (1-based) the proxy answers by resetting the connection. */
let resetOnCheck = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  // A TCP proxy to the machine's PostgreSQL that sends RST (ECONNRESET on the client) when it sees the chosen check.
  proxy = createServer((client) => {
    const upstream = connectTcp(5432, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('error', () => undefined);
    upstream.on('error', () => client.destroy());
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (chunk.includes(SESSION_CHECK)) {
        checksSeen += 1;
        if (checksSeen === resetOnCheck) {
          upstream.destroy();
          client.resetAndDestroy();
          return;
        }
      }
      upstream.write(chunk);
    });
    client.on('close', () => upstream.destroy());
  }).listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  ({ port } = proxy.address() as { port: number });
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  proxy.close();
  await once(proxy, 'close');
});

it('fails a connect whose session check is reset, keeps the process up, and connects again after', async () => {
  const pool: pg.Pool = createPool({
    connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres?target_session_attrs=read-write`,
    max: 2,
  });
  const uncaught: Error[] = [];
  const record = (error: Error) => uncaught.push(error);
  process.on('uncaughtException', record);
  try {
    // The selector's own search is check 1; the pool's new connection is checked second, and that one is reset.
    checksSeen = 0;
    resetOnCheck = 2;
    await expect(pool.query('SELECT 1 AS one')).rejects.toThrow();
    // Give the socket's close and any late error a turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(uncaught).toEqual([]);

    const { rows } = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
  } finally {
    process.off('uncaughtException', record);
    await pool.end();
  }
});
