// The start-up benchmark's floor: the least a service of this image does before it is ready. A bare node:http server,
// started as the services are (`node <file>`, plain JavaScript, no loader), that connects to the same PostgreSQL and
// Redis (the ledger's own copies of pg and ioredis) before it listens, logs a "listening" line with its port, and
// answers /readyz with 200 once `SELECT 1` and `PING` answer. Environment: DATABASE_URL, REDIS_URL.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const fromLedger = createRequire(new URL('../../services/ledger/package.json', import.meta.url));
const { default: pg } = await import(pathToFileURL(fromLedger.resolve('pg')).href);
const { default: Redis } = await import(pathToFileURL(fromLedger.resolve('ioredis')).href);

const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  process.stderr.write('startup floor: DATABASE_URL and REDIS_URL must be set\n');
  process.exit(1);
}
const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
await redis.connect();
await pool.query('SELECT 1');

const server = createServer((request, response) => {
  if (request.url === '/readyz') {
    Promise.all([pool.query('SELECT 1'), redis.ping()]).then(
      () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
      () => response.writeHead(503, { 'content-type': 'application/json' }).end('{"status":"unavailable"}'),
    );
    return;
  }
  response.writeHead(request.url === '/healthz' ? 200 : 404).end();
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ level: 'info', message: 'floor listening', port: address.port })}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  Promise.allSettled([pool.end(), redis.quit()]).then(() => process.exit(0));
});
