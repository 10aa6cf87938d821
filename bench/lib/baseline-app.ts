/**
 * The baseline: a bare Express 5 app over `pg` (pool of 10) doing, per request, the single SQL statement the
 * Kasa path ends in: no auth, no Redis, no validation schema, no second hop. What Kasa costs on top of this
 * is the price of its gateway/ledger split, authentication, rate limiting, idempotency and Prisma.
 *
 * Routes are scoped by the site id in the path, like the ledger's internal API.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';

const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

function referenceNo(): string {
  const bytes = randomBytes(8);
  let out = 'KD';
  for (const byte of bytes) out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  return out;
}

interface Row {
  id: string;
  reference_no: string;
  status: string;
  amount: string;
  requested_amount: string;
  currency: string;
  approved_at: Date | null;
  rejected_at: Date | null;
  rejected_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id::text, reference_no, status, amount::text, requested_amount::text, currency, approved_at, rejected_at,
  rejected_reason, created_at, updated_at`;

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const record = (row: Row) => ({
  intentId: row.id,
  referenceNo: row.reference_no,
  status: row.status,
  amount: row.amount,
  currency: row.currency,
  approvedAt: iso(row.approved_at),
  rejectedAt: iso(row.rejected_at),
  rejectedReason: row.rejected_reason,
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
});

/** The baseline's own unsigned cursor: base64url of {t, i}. */
export function baselineCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: createdAt.toISOString(), i: id })).toString('base64url');
}

export interface BaselineServer {
  port: number;
  stop(): Promise<void>;
}

export async function startBaseline(databaseUrl: string, port = 0): Promise<BaselineServer> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const account = await pool.query<{ id: string }>('SELECT id::text FROM receiving_bank_accounts WHERE active ORDER BY created_at LIMIT 1');
  const accountId = account.rows[0]?.id;
  if (!accountId) throw new Error('baseline: no receiving account');

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');

  app.post('/sites/:siteId/deposits', express.json(), async (req, res) => {
    const body = req.body as { externalUserId: string; amount: string; currency?: string };
    const key = req.get('idempotency-key') ?? randomUUID();
    const id = randomUUID();
    // A fresh reference number when one collides with an existing row (1 in billions), as Kasa's create does.
    const insert = () =>
      pool.query<{ id: string; reference_no: string; amount: string; currency: string; expires_at: Date }>(
        `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, currency,
           external_user_id, external_user_label, receiving_account_id, deposit_token_hash, expires_at,
           idempotency_key, idempotency_fingerprint, created_at, updated_at)
         VALUES ($1::uuid, $2::uuid, $3, 'RESERVED', $4, $4, $5, $6, NULL, $7::uuid, $8, now() + make_interval(secs => 1800),
           $9, $10, now(), now())
         ON CONFLICT (site_id, idempotency_key) DO NOTHING
         RETURNING id::text, reference_no, amount::text, currency, expires_at`,
        [
          id,
          req.params.siteId,
          referenceNo(),
          body.amount,
          body.currency ?? 'TRY',
          body.externalUserId,
          accountId,
          createHash('sha256').update(id).digest('hex'),
          key,
          createHash('sha256').update(key).digest('hex'),
        ],
      );
    let rows: Awaited<ReturnType<typeof insert>>['rows'] = [];
    for (let attempt = 0; ; attempt += 1) {
      try {
        rows = (await insert()).rows;
        break;
      } catch (error) {
        const { code, constraint } = error as { code?: string; constraint?: string };
        if (attempt >= 4 || code !== '23505' || !constraint?.includes('reference_no')) throw error;
      }
    }
    const row = rows[0];
    if (!row) {
      res.status(409).json({ error: 'idempotency_key_reused' });
      return;
    }
    res.status(201).json({
      intentId: row.id,
      referenceNo: row.reference_no,
      amount: row.amount,
      currency: row.currency,
      expiresAt: row.expires_at.toISOString(),
    });
  });

  app.get('/sites/:siteId/intents/:intentId', async (req, res) => {
    const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM deposit_intents WHERE id = $1::uuid AND site_id = $2::uuid`, [
      req.params.intentId,
      req.params.siteId,
    ]);
    const row = rows[0];
    if (!row) {
      res.status(404).json({ error: 'not_found' });
      return;
    }
    res.json(record(row));
  });

  // Keyset page, newest first, with a row-value comparison on the (site_id, created_at DESC, id DESC) index.
  app.get('/sites/:siteId/intents', async (req, res) => {
    const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? 50)));
    const cursor =
      typeof req.query.cursor === 'string'
        ? (JSON.parse(Buffer.from(req.query.cursor, 'base64url').toString()) as { t: string; i: string })
        : null;
    const { rows } = cursor
      ? await pool.query<Row>(
          `SELECT ${COLUMNS} FROM deposit_intents WHERE site_id = $1::uuid AND (created_at, id) < ($2::timestamptz, $3::uuid)
           ORDER BY created_at DESC, id DESC LIMIT $4`,
          [req.params.siteId, cursor.t, cursor.i, limit + 1],
        )
      : await pool.query<Row>(
          `SELECT ${COLUMNS} FROM deposit_intents WHERE site_id = $1::uuid ORDER BY created_at DESC, id DESC LIMIT $2`,
          [req.params.siteId, limit + 1],
        );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    res.json({
      data: page.map((row) => ({ ...record(row), requestedAmount: row.requested_amount })),
      nextCursor: rows.length > limit && last ? baselineCursor(last.created_at, last.id) : null,
    });
  });

  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: 'internal_error', detail: error instanceof Error ? error.message : String(error) });
  });

  const server: Server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  return {
    port: (server.address() as AddressInfo).port,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}
