import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/** Listens on `port` (0 picks a free one) and resolves with the server and the port it got. */
export async function listen(app: Express, port: number, host = '0.0.0.0'): Promise<{ server: Server; port: number }> {
  const server = app.listen(port, host);
  await once(server, 'listening');
  // Longer than a typical load balancer idle timeout, so keep-alive sockets are closed by the client side.
  server.keepAliveTimeout = 65_000;
  return { server, port: (server.address() as AddressInfo).port };
}

/** Stops accepting connections and waits for in-flight requests; idle keep-alive sockets are closed. */
export async function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.closeIdleConnections();
  await closed;
}
