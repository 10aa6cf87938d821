/**
 * Evidence for the list path: captures the SQL the ledger's own DepositRepository.list sends for a deep page
 * (through a recording pool), then runs EXPLAIN (ANALYZE, BUFFERS) on it
 * and on the plain keyset row comparison the baseline uses.
 */
import pg from 'pg';
import { DepositRepository } from '../../services/ledger/src/deposits/deposit.repository.js';

export interface PlanSummary {
  executionMs: number;
  summary: string;
  sql?: string;
}

export type ExplainResult = { ledgerLast: PlanSummary; keysetLast: PlanSummary; ledgerFirst: PlanSummary } | { error: string };

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

function summarize(plan: { Plan: PlanNode; 'Execution Time': number }): PlanSummary {
  const parts: string[] = [];
  const walk = (node: PlanNode) => {
    let text = node['Node Type'];
    if (node['Index Name']) text += ` on ${node['Index Name']}`;
    if (node['Index Cond']) text += ` [cond ${node['Index Cond']}]`;
    if (node.Filter) text += ` [filter ${node.Filter}]`;
    text += ` rows=${node['Actual Rows'] ?? '?'}`;
    if (node['Rows Removed by Filter']) text += ` removed-by-filter=${node['Rows Removed by Filter']}`;
    parts.push(text);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan.Plan);
  const buffers = `buffers hit=${plan.Plan['Shared Hit Blocks'] ?? 0} read=${plan.Plan['Shared Read Blocks'] ?? 0}`;
  return { executionMs: Math.round(plan['Execution Time'] * 100) / 100, summary: `${parts.join(' > ')}; ${buffers}` };
}

async function capture(
  databaseUrl: string,
  run: (repo: DepositRepository) => Promise<unknown>,
): Promise<{ sql: string; params: unknown[] }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  // The repository's statements go through this pool; recording them shows exactly what the ledger sends.
  const recording = {
    query: (sql: string, params: unknown[]) => {
      seen.push({ sql, params });
      return pool.query(sql, params);
    },
  } as unknown as pg.Pool;
  try {
    await run(new DepositRepository(undefined as never, recording));
  } finally {
    await pool.end();
  }
  const query = seen.find((q) => /deposit_intents/.test(q.sql));
  if (!query) throw new Error('no deposit_intents query was recorded');
  return query;
}

export async function explainListQueries(
  databaseUrl: string,
  siteId: string,
  after: { createdAt: Date; id: string },
  take: number,
): Promise<ExplainResult> {
  const last = await capture(databaseUrl, (repo) => repo.list(siteId, undefined, { after, limit: take }));
  const first = await capture(databaseUrl, (repo) => repo.list(siteId, undefined, { limit: take }));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const explain = async (sql: string, params: unknown[]) => {
      // Run twice; keep the second (warm cache), as the measured runs see it.
      await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
        params,
      );
      return summarize(rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode; 'Execution Time': number });
    };
    const keysetSql = `SELECT * FROM deposit_intents WHERE site_id = $1::uuid AND (created_at, id) < ($2::timestamptz, $3::uuid)
      ORDER BY created_at DESC, id DESC LIMIT $4`;
    return {
      ledgerLast: { ...(await explain(last.sql, last.params)), sql: last.sql },
      ledgerFirst: await explain(first.sql, first.params),
      keysetLast: await explain(keysetSql, [siteId, after.createdAt.toISOString(), after.id, take]),
    };
  } finally {
    await client.end();
  }
}

async function explainOnce(databaseUrl: string, sql: string, params: unknown[]): Promise<PlanSummary> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
      params,
    );
    return summarize(rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode; 'Execution Time': number });
  } finally {
    await client.end();
  }
}

/** The plan of the ledger's own status lookup (DepositRepository.findInSite, as the ledger sends it) for one intent. */
export async function explainLookup(databaseUrl: string, siteId: string, intentId: string): Promise<PlanSummary> {
  const query = await capture(databaseUrl, (repo) => repo.findInSite(siteId, intentId));
  return { ...(await explainOnce(databaseUrl, query.sql, query.params)), sql: query.sql };
}

/** ANALYZE deposit_intents; returns how long it took. */
export async function analyzeDeposits(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('ANALYZE deposit_intents');
    return Math.round(performance.now() - started);
  } finally {
    await client.end();
  }
}
