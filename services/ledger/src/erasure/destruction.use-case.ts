import type { KasaConfig } from '@kasa/config';
import type { Prisma } from '@kasa/db';
import { answerErasureRequest } from './erasure-requests.use-case.js';
import { eraseUserlessLine, eraseUserRecords, type ErasureDeps, type Eraser } from './erase-records.use-case.js';
import { retentionEnd } from './retention.js';

/** The job's name in the destruction log. */
export const DESTRUCTION_JOB = 'destruction-job';
/** Users, lines and requests one pass takes at most of each; the next pass goes on. */
const PER_PASS = 500;

export interface DestructionCounts {
  /** False when another ledger held the job: this pass stopped. */
  ran: boolean;
  anonymised: number;
  requestsAnswered: number;
  pruned: number;
}

/**
 * The periodic destruction (KVKK Regulation art. 11: at least every 6 months; docs/compliance.md, Retention and erasure):
 * anonymises every record whose retention ended and that no legal hold keeps, a user at a time and a bank line with no
 * user at a time, each in its own transaction; answers again the erasure requests not completed (a hold ended, or a
 * request filed and not answered when a ledger stopped); and deletes destruction-log rows older than three years. One
 * ledger at a time: each transaction first takes the job's advisory lock, and a pass that finds it taken stops.
 */
export async function runDestruction(deps: ErasureDeps & { config: Pick<KasaConfig, 'retentionYears'> }): Promise<DestructionCounts> {
  const counts: DestructionCounts = { ran: true, anonymised: 0, requestsAnswered: 0, pruned: 0 };
  const eraser: Eraser = { cause: 'retention_expired', erasureRequestId: null, actor: DESTRUCTION_JOB };
  const now = deps.clock.now();
  const years = deps.config.retentionYears;
  const shortest = Math.min(years.deposits, years.withdrawals, years.bankTransfers, years.returns, years.audit);
  const locked = <T>(work: (tx: Prisma.TransactionClient) => Promise<T>) =>
    deps.db.$transaction(async (tx) => ((await deps.erasure.tryLockJob(tx)) ? { value: await work(tx) } : null));

  const users = await deps.erasure.usersPastRetention(deps.db, retentionEnd(now, -shortest), PER_PASS);
  for (const user of users) {
    const done = await locked((tx) => eraseUserRecords(tx, deps, user, eraser));
    if (!done) return { ...counts, ran: false };
    counts.anonymised += done.value.anonymised;
  }
  const lines = await deps.erasure.userlessLinesPastRetention(
    deps.db,
    retentionEnd(now, -Math.min(years.bankTransfers, years.returns)),
    PER_PASS,
  );
  for (const line of lines) {
    const done = await locked((tx) => eraseUserlessLine(tx, deps, line, eraser));
    if (!done) return { ...counts, ran: false };
    counts.anonymised += done.value.anonymised;
  }
  for (const { id } of await deps.erasure.openRequests(deps.db, PER_PASS)) {
    await answerErasureRequest(deps, id);
    counts.requestsAnswered += 1;
  }
  const pruned = await locked((tx) => deps.erasure.pruneLog(tx));
  counts.pruned = pruned?.value ?? 0;
  return counts;
}
