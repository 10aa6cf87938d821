import type { Prisma, PrismaClient } from '@kasa/db';
import { linkHash, rowHash } from './history-hash.js';
import { ONE_SNAPSHOT, type HistoryRepository } from './history.repository.js';
import type { HistorySealRepository } from './history-seal.repository.js';
import { verifySeals } from './verify-seals.js';
import type { SealKeys } from './history-seal.js';
import type { HistoryProblem, HistoryReport } from './history-report.js';

export type { HistoryProblem, HistoryReport } from './history-report.js';

/** Links read per page while verifying. */
const LINKS_PER_PAGE = 5_000;
/** Problems reported at most (the count says how many were found). */
const PROBLEMS_SHOWN = 100;

export interface VerifyHistoryDeps {
  db: PrismaClient;
  history: HistoryRepository;
  historySeals: HistorySealRepository;
  sealKeys: SealKeys;
}

/**
 * Walks every chain link by link and recomputes it from the rows as they are now (docs/compliance.md, Tamper-evident
 * history): a row edited, deleted, swapped or written behind the chain, or a link edited, removed or moved, is reported
 * with its chain, place and row. Everything is read in one snapshot (a read-only repeatable-read transaction), so links
 * the worker appends meanwhile are not mistaken for a chain running past its head. What the walk cannot see alone, the
 * chains and heads all rewritten consistently by someone who can write to the database, the daily seals show: each is
 * checked against the public keys and the chain as it is now (verify-seals.ts).
 */
export async function verifyHistory(deps: VerifyHistoryDeps): Promise<HistoryReport> {
  return deps.db.$transaction((tx) => walkChains(tx, deps), ONE_SNAPSHOT);
}

async function walkChains(tx: Prisma.TransactionClient, deps: VerifyHistoryDeps): Promise<HistoryReport> {
  const { history } = deps;
  const problems: HistoryProblem[] = [];
  let problemCount = 0;
  const report = (problem: HistoryProblem) => {
    problemCount += 1;
    if (problems.length < PROBLEMS_SHOWN) problems.push(problem);
  };
  const heads = await history.heads(tx);
  const seen = new Set<string>();
  let links = 0;

  for (const source of ['audit', 'journal'] as const) {
    let chain: string | null = null;
    let expected = 1n;
    let previous: string | null = null;
    const endChain = () => {
      if (chain === null) return;
      const head = heads.get(chain);
      if (!head || head.seq !== expected - 1n || head.linkHash !== previous) {
        report({ problem: 'head_mismatch', source, chain, seq: (expected - 1n).toString(), rowId: null });
      }
    };
    let after = { chain: '', seq: '0' };
    for (;;) {
      const page = await history.linksAfter(tx, source, after, LINKS_PER_PAGE);
      for (const link of page) {
        links += 1;
        if (link.chain !== chain) {
          endChain();
          chain = link.chain;
          seen.add(chain);
          expected = 1n;
          previous = null;
        }
        const seq = BigInt(link.seq);
        const at = { source, chain, seq: link.seq, rowId: link.rowId };
        if (seq !== expected) {
          report({ problem: 'link_missing', ...at });
        } else if (
          linkHash(chain, seq, previous === null ? null : Buffer.from(previous, 'hex'), Buffer.from(link.rowHash, 'hex')).toString(
            'hex',
          ) !== link.linkHash
        ) {
          report({ problem: 'link_changed', ...at });
        }
        if (link.row === null) report({ problem: 'row_deleted', ...at });
        else if (rowHash(link.row).toString('hex') !== link.rowHash) report({ problem: 'row_changed', ...at });
        expected = seq + 1n;
        previous = link.linkHash;
      }
      const last = page[page.length - 1];
      if (!last || page.length < LINKS_PER_PAGE) break;
      after = { chain: last.chain, seq: last.seq };
    }
    endChain();
    for (const { rowId } of await history.unlinkedBehind(tx, source, PROBLEMS_SHOWN)) {
      report({ problem: 'row_unlinked', source, chain: null, seq: null, rowId });
    }
  }
  // A head whose chain has no link left at all.
  for (const [chain, head] of heads) {
    if (!seen.has(chain)) {
      report({ problem: 'head_mismatch', source: chain === 'audit' ? 'audit' : 'journal', chain, seq: head.seq.toString(), rowId: null });
    }
  }
  const seals = await verifySeals(tx, deps.historySeals, deps.sealKeys, report);
  return { ok: problemCount === 0, chains: heads.size, links, seals, problemCount, problems };
}
