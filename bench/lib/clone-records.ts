/**
 * Many records waiting for an operator, made in bulk by SQL for a benchmark (not timed): copies of one record made
 * through the API, each with its own id, reference and keys. A paid deposit's copies come with a copy of its transfer,
 * so each has the money that arrived for it; a withdrawal's copies wait for approval as it does.
 */
import type pg from 'pg';

type Sql = Pick<pg.Pool, 'query'>;

/** The copies' references: 16 characters at most (the column's width), unique across calls. */
const referencePrefix = () => `B${Date.now().toString(36).toUpperCase().slice(-6)}`;

/**
 * `count` copies of the paid deposit `intentId` (PENDING_REVIEW with its transfer), each with a copy of its transfer
 * (own bank transaction id and line key); returns their ids.
 */
export async function clonePaidDeposits(sql: Sql, intentId: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  const transfers = await sql.query<{ n: string }>('SELECT count(*) AS n FROM bank_transfers WHERE intent_id = $1', [intentId]);
  if (Number(transfers.rows[0]?.n) !== 1) throw new Error(`deposit ${intentId}: one transfer expected to copy`);
  const ids = await cloneDeposits(sql, intentId, count);
  await sql.query(
    `INSERT INTO bank_transfers
     SELECT (jsonb_populate_record(NULL::bank_transfers, to_jsonb(t) || jsonb_build_object(
       'id', gen_random_uuid(), 'intent_id', c.id, 'bank_tx_id', 'bench-' || c.id, 'line_key', 'bench-' || c.id,
       'bank_line_key', CASE WHEN t.bank_line_key IS NULL THEN NULL ELSE 'bench-' || c.id END))).*
     FROM bank_transfers t, unnest($2::uuid[]) AS c(id)
     WHERE t.intent_id = $1::uuid`,
    [intentId, ids],
  );
  return ids;
}

/**
 * `count` copies of the deposit `intentId`, each with its own id, reference, page-token hash and key, and the columns
 * of `changes` (column name to value, as JSON) set; returns their ids.
 */
export async function cloneDeposits(sql: Sql, intentId: string, count: number, changes: Record<string, unknown> = {}): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO deposit_intents
     SELECT (jsonb_populate_record(NULL::deposit_intents, to_jsonb(d) || jsonb_build_object(
       'id', n.id, 'reference_no', $3::text || lpad(n.g::text, 8, '0'),
       'deposit_token_hash', encode(sha256(convert_to(n.id::text, 'UTF8')), 'hex'), 'idempotency_key', n.id::text) || $4::jsonb)).*
     FROM deposit_intents d, (SELECT g, gen_random_uuid() AS id FROM generate_series(1, $2::int) g) n
     WHERE d.id = $1::uuid
     RETURNING id::text`,
    [intentId, count, referencePrefix(), JSON.stringify(changes)],
  );
  return rows.map((row) => row.id);
}

/** `count` copies of the withdrawal `withdrawalId` (as it is: PENDING_REVIEW), each its own; returns their ids. */
export async function cloneWithdrawals(sql: Sql, withdrawalId: string, count: number): Promise<string[]> {
  if (count === 0) return [];
  const { rows } = await sql.query<{ id: string }>(
    `INSERT INTO withdrawals
     SELECT (jsonb_populate_record(NULL::withdrawals, to_jsonb(w) || jsonb_build_object(
       'id', n.id, 'reference_no', $3::text || lpad(n.g::text, 8, '0'), 'idempotency_key', n.id::text))).*
     FROM withdrawals w, (SELECT g, gen_random_uuid() AS id FROM generate_series(1, $2::int) g) n
     WHERE w.id = $1::uuid
     RETURNING id::text`,
    [withdrawalId, count, `W${referencePrefix().slice(1)}`],
  );
  return rows.map((row) => row.id);
}
