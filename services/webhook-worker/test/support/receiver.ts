/**
 * A real HTTPS webhook receiver for tests, with a certificate authority made by the test itself (openssl),
 * so the worker verifies TLS for real and trusts the CA only because the test injects it.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestTls {
  /** PEM of the test CA: what the worker is told to trust. */
  ca: string;
  /** The same CA as a file, for a worker started as a child process (WEBHOOK_CA_FILE). */
  caFile: string;
  key: string;
  cert: string;
  cleanup(): void;
}

/** Makes a CA and a server certificate for localhost and 127.0.0.1 (EC P-256: fast to generate). */
export function makeTestTls(): TestTls {
  const dir = mkdtempSync(join(tmpdir(), 'kasa-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Kasa Test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  );
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(file('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '2',
    '-extfile',
    file('ext.cnf'),
  );
  return {
    ca: readFileSync(file('ca.pem'), 'utf8'),
    caFile: file('ca.pem'),
    key: readFileSync(file('server.key'), 'utf8'),
    cert: readFileSync(file('server.pem'), 'utf8'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One request the receiver got, exactly as it arrived. */
export interface ReceivedDelivery {
  path: string;
  eventId: string | undefined;
  signature: string | undefined;
  contentType: string | undefined;
  /** Every header as it arrived (lower-case names), for verifiers that read them themselves. */
  headers: Record<string, string>;
  rawBody: Buffer;
  receivedAt: number;
}

/** Decides the status code of each request (`index` counts from 0 over all requests). */
export type Respond = (delivery: ReceivedDelivery, index: number) => number | Promise<number>;

export interface Receiver {
  url: string;
  port: number;
  deliveries: ReceivedDelivery[];
  respond: Respond;
  close(): Promise<void>;
}

/** Starts the receiver on a free loopback port; change `respond` at any time. */
export async function startReceiver(tls: TestTls, respond: Respond = () => 200): Promise<Receiver> {
  const deliveries: ReceivedDelivery[] = [];
  const receiver = { deliveries, respond } as Receiver;
  const server: Server = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(',') : value;
      };
      const delivery: ReceivedDelivery = {
        path: req.url ?? '/',
        eventId: header('service-event-id'),
        signature: header('service-signature'),
        contentType: header('content-type'),
        headers: Object.fromEntries(Object.keys(req.headers).map((name) => [name, header(name) ?? ''])),
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      const index = deliveries.length;
      deliveries.push(delivery);
      Promise.resolve(receiver.respond(delivery, index)).then(
        (status) => res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope'),
        () => res.destroy(),
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  receiver.port = port;
  receiver.url = `https://localhost:${port}/webhooks/kasa`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}
