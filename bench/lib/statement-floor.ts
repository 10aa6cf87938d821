/**
 * What the statements benchmark sets an import against, in the same run: the floor (the file's lines inserted by one
 * bare multi-row INSERT into a table built like bank_transfers), the other requests' latency while an import runs,
 * and when the approvals the import left to follow-ups were all done.
 */
import pg from 'pg';
import { parseStatements } from '../../packages/statements/src/index.js';
import { lineKeysOf } from '../../services/ledger/src/bank-transfers/line-key.js';

const FLOOR_TABLE = 'bench_floor_lines';

/**
 * The file's lines (parsed and keyed beforehand, not timed) inserted into an empty table with bank_transfers' columns,
 * defaults, checks and indexes (its unique line key per account too; no foreign keys) by one INSERT ... SELECT FROM
 * unnest(...) ON CONFLICT DO NOTHING from the bench process, committed: what storing the lines costs PostgreSQL with
 * none of Kasa's work around it.
 */
export async function floorInsert(databaseUrl: string, accountId: string, csv: string): Promise<{ ms: number; rows: number }> {
  const { statements } = parseStatements(csv, 'text/csv');
  const seen = new Map<string, number>();
  const lines = statements.flatMap((statement) => [...lineKeysOf(statement.lines, seen).entries()]);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE TABLE IF NOT EXISTS ${FLOOR_TABLE} (LIKE bank_transfers INCLUDING ALL)`);
    await client.query(`TRUNCATE ${FLOOR_TABLE}`);
    const started = performance.now();
    const result = await client.query(
      `INSERT INTO ${FLOOR_TABLE} (id, bank_tx_id, line_key, hand_entry, amount, currency, sender_name, sender_iban, description,
         received_at, received_time_known, status, receiving_account_id, statement_id, livemode, created_at)
       SELECT gen_random_uuid(), l.bank_tx_id, l.line_key, false, l.amount, 'TRY', l.sender_name, '', l.description, l.received_at,
         true, 'UNMATCHED'::"BankTransferStatus", $1::uuid, NULL, true, now()
       FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::timestamptz[])
         AS l(bank_tx_id, line_key, amount, sender_name, description, received_at)
       ON CONFLICT (receiving_account_id, line_key) DO NOTHING`,
      [
        accountId,
        lines.map(([line]) => line.bankTxId),
        lines.map(([, key]) => key),
        lines.map(([line]) => line.amount.toString()),
        lines.map(([line]) => line.counterpartyName ?? ''),
        lines.map(([line]) => line.description),
        lines.map(([line]) => line.bookedAt.toISOString()),
      ],
    );
    return { ms: performance.now() - started, rows: result.rowCount ?? 0 };
  } finally {
    await client.end();
  }
}

export interface Polled {
  path: string;
  polls: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Polls `path` one request at a time (a pause of `gapMs` between them) until `until` settles; each request's time from
 * sending to its whole answer. A request that fails or does not answer 200 counts as failed (its time kept).
 */
export async function pollDuring(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  until: Promise<unknown>,
  gapMs = 20,
): Promise<Polled> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times: number[] = [];
  let failed = 0;
  while (!done) {
    const started = performance.now();
    const ok = await fetch(`${baseUrl}${path}`, { headers, signal: AbortSignal.timeout(30_000) })
      .then(async (response) => {
        await response.arrayBuffer();
        return response.status === 200;
      })
      .catch(() => false);
    times.push(performance.now() - started);
    if (!ok) failed += 1;
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
  const sorted = times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);
  return { path, polls: sorted.length, failed, p50: at(50), p99: at(99), max: Math.round(sorted[sorted.length - 1] ?? Number.NaN) };
}

/** Waits until the account has no pending follow-up (bounded); the time it took from `since`, null when it did not. */
export async function followUpsDone(databaseUrl: string, accountId: string, since: number, timeoutMs: number): Promise<number | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM follow_ups WHERE receiving_account_id = $1::uuid AND status = 'PENDING'`,
        [accountId],
      );
      if (rows[0]?.n === '0') return performance.now() - since;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return null;
  } finally {
    await client.end();
  }
}
