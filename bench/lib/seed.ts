/** Bulk data for the list benchmark: N deposit intents for one site in a single INSERT ... SELECT generate_series. */
import pg from 'pg';

export interface SeedResult {
  rows: number;
  /** The INSERT ... SELECT itself (secondary indexes dropped). */
  insertMs: number;
  /** Re-creating the secondary indexes exactly as they were defined. */
  indexMs: number;
  analyzeMs: number;
  /**
   * A CHECKPOINT after the seed, so the bulk write's dirty pages are on disk before anything is measured
   * instead of being flushed by the checkpointer during the runs; null when the role may not checkpoint.
   */
  checkpointMs: number | null;
  indexesRebuilt: number;
  spanDays: number;
}

/**
 * Inserts `rows` intents for `siteId`, one every half second back from an hour ago (two rows per second,
 * so (created_at, id) ties are exercised), all in settled statuses (APPROVED, REJECTED, AUTO_CANCELLED):
 * old intents cannot still be RESERVED, and RESERVED ones past their expiry would set the ledger's expiry
 * sweeper to work in the middle of the measurements.
 *
 * For speed on a small machine the table's secondary indexes are dropped for the INSERT and re-created from
 * their own definitions (pg_indexes) right after, so the schema afterwards is exactly the migrated one.
 * The primary key stays (bank_transfers references it).
 */
export async function seedDeposits(databaseUrl: string, siteId: string, accountId: string, rows: number): Promise<SeedResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`SET statement_timeout = '170s'`);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    const { rows: indexes } = await client.query<{ indexname: string; indexdef: string; constraint: string | null }>(
      `SELECT i.indexname, i.indexdef, c.conname AS constraint
         FROM pg_indexes i LEFT JOIN pg_constraint c ON c.conname = i.indexname AND c.conrelid = 'deposit_intents'::regclass
        WHERE i.schemaname = 'public' AND i.tablename = 'deposit_intents' AND i.indexname <> 'deposit_intents_pkey'`,
    );
    // A constraint-backed index cannot simply be dropped and re-created: then insert with every index in place.
    const droppable = indexes.some((index) => index.constraint !== null) ? [] : indexes;
    for (const index of droppable) await client.query(`DROP INDEX "${index.indexname}"`);
    const started = performance.now();
    await client.query(
      `INSERT INTO deposit_intents (id, site_id, reference_no, status, requested_amount, amount, currency, external_user_id,
         receiving_account_id, deposit_token_hash, expires_at, received_amount, approved_at, rejected_at, rejected_reason,
         cancelled_at, idempotency_key, idempotency_fingerprint, created_at, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'KS' || lpad(g::text, 8, '0'), s.status::"DepositStatus",
         10000 + g % 500000, 10000 + g % 500000, 'TRY', 'user-' || (g % 20000), $2::uuid,
         md5(g::text) || md5('t' || g::text), t + interval '30 minutes',
         CASE WHEN s.status = 'APPROVED' THEN 10000 + g % 500000 END,
         CASE WHEN s.status = 'APPROVED' THEN t + interval '10 minutes' END,
         CASE WHEN s.status = 'REJECTED' THEN t + interval '20 minutes' END,
         CASE WHEN s.status = 'REJECTED' THEN 'No matching transfer' END,
         CASE WHEN s.status = 'AUTO_CANCELLED' THEN t + interval '30 minutes' END,
         'seed-' || g, md5('f' || g::text) || md5('p' || g::text), t, t + interval '10 minutes'
       FROM generate_series(1, $3::int) AS g,
         LATERAL (SELECT date_trunc('second', now()) - interval '1 hour' - make_interval(secs => g / 2) AS t) AS ts,
         LATERAL (SELECT (ARRAY['APPROVED','APPROVED','APPROVED','APPROVED','APPROVED','REJECTED','AUTO_CANCELLED','AUTO_CANCELLED'])[1 + g % 8] AS status) AS s`,
      [siteId, accountId, rows],
    );
    const insertMs = performance.now() - started;
    const indexStarted = performance.now();
    for (const index of droppable) await client.query(index.indexdef);
    const indexMs = performance.now() - indexStarted;
    const analyzeStarted = performance.now();
    await client.query('VACUUM (ANALYZE) deposit_intents');
    const analyzeMs = performance.now() - analyzeStarted;
    const checkpointStarted = performance.now();
    const checkpointMs = await client.query('CHECKPOINT').then(
      () => Math.round(performance.now() - checkpointStarted),
      () => null,
    );
    return {
      rows,
      insertMs: Math.round(insertMs),
      indexMs: Math.round(indexMs),
      analyzeMs: Math.round(analyzeMs),
      checkpointMs,
      indexesRebuilt: droppable.length,
      spanDays: Math.round((rows / 2 / 86400) * 10) / 10,
    };
  } finally {
    await client.end();
  }
}

/** The (created_at, id) of the row at 0-based position `offset` of the site's newest-first order. */
export async function positionAt(databaseUrl: string, siteId: string, offset: number): Promise<{ createdAt: Date; id: string }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ created_at: Date; id: string }>(
      `SELECT created_at, id::text FROM deposit_intents WHERE site_id = $1::uuid ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [siteId, offset],
    );
    const row = rows[0];
    if (!row) throw new Error(`no row at offset ${offset}`);
    return { createdAt: row.created_at, id: row.id };
  } finally {
    await client.end();
  }
}
