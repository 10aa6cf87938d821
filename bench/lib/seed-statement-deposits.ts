/**
 * The deposits a statement benchmark's file pays, written with SQL instead of through the partner API: 100,000
 * deposits through the API would take minutes of a benchmark about statements. Each is a fresh RESERVED deposit of
 * the site on the receiving account, with a valid reference number of its own, the planned amount and user label, and
 * an expiry 30 minutes on (as the partner API gives one).
 */
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { generateReferenceNo } from '../../services/ledger/src/site-records/reference-no.js';
import type { CreatedDeposit, PlannedDeposit } from './statement-plan.js';

const ROWS_PER_INSERT = 20_000;
const EXPIRES_AFTER_MS = 30 * 60_000;

export async function seedStatementDeposits(
  databaseUrl: string,
  siteId: string,
  accountId: string,
  planned: readonly PlannedDeposit[],
  tag: string,
): Promise<CreatedDeposit[]> {
  const references = new Set<string>();
  const created = planned.map((deposit): CreatedDeposit => {
    let referenceNo = generateReferenceNo('deposit');
    while (references.has(referenceNo)) referenceNo = generateReferenceNo('deposit');
    references.add(referenceNo);
    return { ...deposit, intentId: '', referenceNo };
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const expiresAt = new Date(Date.now() + EXPIRES_AFTER_MS).toISOString();
    for (let start = 0; start < created.length; start += ROWS_PER_INSERT) {
      const part = created.slice(start, start + ROWS_PER_INSERT);
      const { rows } = await client.query<{ id: string; reference_no: string }>(
        `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, currency, external_user_id,
           external_user_label, receiving_account_id, deposit_token_hash, expires_at, idempotency_key, idempotency_fingerprint)
         SELECT gen_random_uuid(), $1::uuid, d.reference_no, 'RESERVED'::"DepositStatus", d.amount, d.amount, 'TRY', d.user_id,
           d.label, $2::uuid, d.token_hash, $3::timestamptz, d.user_id, d.token_hash
         FROM unnest($4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[]) AS d(reference_no, amount, user_id, label, token_hash)
         RETURNING id::text, reference_no`,
        [
          siteId,
          accountId,
          expiresAt,
          part.map((d) => d.referenceNo),
          part.map((d) => d.amount.toString()),
          part.map((d) => `user-${tag}-${d.index}`),
          part.map((d) => d.label),
          part.map(() => createHash('sha256').update(randomBytes(16)).digest('hex')),
        ],
      );
      const ids = new Map(rows.map((row) => [row.reference_no, row.id]));
      for (const deposit of part) deposit.intentId = ids.get(deposit.referenceNo) ?? '';
    }
    await client.query('ANALYZE deposit_intents');
  } finally {
    await client.end();
  }
  if (created.some((deposit) => !deposit.intentId)) throw new Error('a seeded deposit has no id');
  return created;
}
