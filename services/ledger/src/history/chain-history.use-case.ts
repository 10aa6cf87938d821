import type { PrismaClient } from '@kasa/db';
import { chainOf, linkHash, rowHash, type HistorySource } from './history-hash.js';
import type { HistoryRepository, NewLink } from './history.repository.js';

/** Rows one transaction of a pass links at most, per source; a pass goes on until it has caught up. */
const ROWS_PER_TRANSACTION = 2_000;
/** Transactions one pass runs at most, so a backlog is worked through in bounded passes. */
const TRANSACTIONS_PER_PASS = 25;

export interface ChainHistoryDeps {
  db: PrismaClient;
  history: HistoryRepository;
}

export interface ChainedCounts {
  audit: number;
  journal: number;
  /** False when another ledger held the chains: this pass did nothing. */
  ran: boolean;
}

/**
 * Links the audit entries and journal entries committed since the last pass into their hash chains
 * (docs/compliance.md, Tamper-evident history): each row's hash, and its link over the previous link of its chain. One
 * ledger at a time (an advisory lock; another ledger's pass skips), each page in a transaction of its own that moves the
 * chain heads and the cursor with its links, so a pass stopped anywhere leaves the chains whole and the next goes on.
 */
export async function chainHistory(deps: ChainHistoryDeps): Promise<ChainedCounts> {
  const counts: ChainedCounts = { audit: 0, journal: 0, ran: true };
  for (const source of ['audit', 'journal'] as const satisfies readonly HistorySource[]) {
    for (let page = 0; page < TRANSACTIONS_PER_PASS; page += 1) {
      const linked = await deps.db.$transaction(async (tx) => {
        if (!(await deps.history.lockChains(tx))) return null;
        const after = await deps.history.cursor(tx, source);
        const rows = await deps.history.rowsAfter(tx, source, after, ROWS_PER_TRANSACTION);
        const last = rows[rows.length - 1];
        if (!last) return 0;
        const chains = [...new Set(rows.map(chainOf))];
        const heads = await deps.history.heads(tx, chains);
        const links: NewLink[] = rows.map((entry) => {
          const chain = chainOf(entry);
          const head = heads.get(chain);
          const seq = (head?.seq ?? 0n) + 1n;
          const row = rowHash(entry);
          const link = linkHash(chain, seq, head ? Buffer.from(head.linkHash, 'hex') : null, row);
          heads.set(chain, { seq, linkHash: link.toString('hex') });
          return { chain, seq, source, rowId: entry.row.id, rowHash: row.toString('hex'), linkHash: link.toString('hex') };
        });
        await deps.history.append(tx, source, links, { txId: last.txId, rowId: last.row.id });
        return rows.length;
      });
      if (linked === null) return { audit: 0, journal: 0, ran: false };
      counts[source] += linked;
      if (linked < ROWS_PER_TRANSACTION) break;
    }
  }
  return counts;
}
