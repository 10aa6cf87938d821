// The CSV export benchmark's floor: the same rows as the ledger's intents export, read by a bare PostgreSQL cursor
// (`DECLARE ... CURSOR`, `FETCH 500`: pg-copy-streams is not installed) and written as CSV by a bare node:http server,
// a page only once the socket drained the previous one. No framework, no authentication, no JSON shapes: the least an
// export of these rows costs. `node bench/lib/csv-floor.mjs`; DATABASE_URL; GET /export?siteId=<uuid>.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const fromLedger = createRequire(new URL('../../services/ledger/package.json', import.meta.url));
const { default: pg } = await import(pathToFileURL(fromLedger.resolve('pg')).href);
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });

const COLUMNS = `id, reference_no, status, site_id, external_user_id, external_user_label, amount, amount / 100.0 AS amount_try,
  requested_amount, requested_amount / 100.0 AS requested_amount_try, received_amount, received_amount / 100.0 AS received_amount_try,
  currency, created_at, updated_at, expires_at, user_confirmed_at, approved_at, rejected_at, rejected_reason, cancelled_at`;
const HEADER = COLUMNS.split(',').map((column) => column.trim().split(' ').pop());

const cell = (value) => {
  if (value === null || value === undefined) return '';
  const text = value instanceof Date ? value.toISOString() : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** Resolves when `response` drains or closes, taking both listeners off again (one page's wait leaves none behind). */
const drained = (response) =>
  new Promise((resolve) => {
    const settle = () => {
      response.off('drain', settle).off('close', settle);
      resolve();
    };
    response.on('drain', settle).on('close', settle);
  });

const server = createServer(async (request, response) => {
  const url = new URL(request.url, 'http://floor');
  if (url.pathname !== '/export') return void response.writeHead(404).end();
  const client = await pool.connect();
  let gone = false;
  response.once('close', () => (gone = true));
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(
      `DECLARE rows NO SCROLL CURSOR FOR SELECT ${COLUMNS} FROM deposit_intents WHERE site_id = $1::uuid ORDER BY created_at DESC, id DESC`,
      [url.searchParams.get('siteId')],
    );
    response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
    response.write(`${HEADER.join(',')}\r\n`);
    while (!gone) {
      const { rows } = await client.query({ text: 'FETCH 500 FROM rows', rowMode: 'array' });
      if (rows.length === 0) break;
      const page = rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
      if (!response.write(page) && !gone) await drained(response);
    }
    await client.query('COMMIT');
    response.end();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    response.destroy(error);
  } finally {
    client.release();
  }
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ level: 'info', message: 'floor listening', port: server.address().port })}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  pool.end().then(() => process.exit(0));
});
