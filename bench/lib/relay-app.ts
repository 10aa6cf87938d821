/**
 * The two-hop floor: a bare Express 5 app that passes each request to the baseline over keep-alive HTTP
 * (undici, as the gateway reaches the ledger) and returns its answer. No auth, Redis, validation, logging
 * or metrics: what one extra HTTP hop costs on this machine, to set against the gateway + ledger pair.
 */
import express from 'express';
import { Pool } from 'undici';

export interface RelayServer {
  port: number;
  stop(): Promise<void>;
}

export async function startRelay(upstreamUrl: string, port = 0): Promise<RelayServer> {
  const pool = new Pool(upstreamUrl, { connections: 50, pipelining: 1, keepAliveTimeout: 30_000 });
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json());
  app.use(async (req, res) => {
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const upstream = await pool.request({
      method: req.method as 'GET' | 'POST',
      path: req.originalUrl,
      headers: {
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
        ...(req.get('idempotency-key') ? { 'idempotency-key': req.get('idempotency-key') as string } : {}),
      },
      ...(hasBody ? { body: JSON.stringify(req.body) } : {}),
    });
    const text = await upstream.body.text();
    res.status(upstream.statusCode).type('application/json').send(text);
  });
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const listening = app.listen(port, '127.0.0.1', () => resolve(listening));
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('relay: no port');
  return {
    port: address.port,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}
