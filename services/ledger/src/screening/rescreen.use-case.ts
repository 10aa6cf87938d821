import type { Deposit, Prisma, PrismaClient, Withdrawal } from '@kasa/db';
import type { Logger } from '@kasa/logger';
import { inTransaction } from '../review/transition.js';
import type { ListIndex } from './list-index.js';
import { outcomeOf } from './screen-name.js';
import { OPEN_DEPOSIT_STATUSES, type ScreeningRepository } from './screening.repository.js';

export interface RescreenDeps {
  db: PrismaClient;
  logger: Logger;
  listIndex: ListIndex;
  screenings: ScreeningRepository;
  /** The withdrawals' and deposits' row locks (their review repositories): screening sits below the records it holds. */
  withdrawalReview: { lockWithdrawal(tx: Prisma.TransactionClient, id: string): Promise<Withdrawal | null> };
  depositReview: { lockDeposit(tx: Prisma.TransactionClient, id: string): Promise<Deposit | null> };
}

/** Records screened per pass; the next pass takes the next ones. */
const PASS_SIZE = 200;
/** Withdrawals still open to a hold: not yet SENT (the money left) nor REJECTED. */
const OPEN = new Set(['PENDING_REVIEW', 'APPROVED']);

export interface RescreenCounts {
  screened: number;
  held: number;
}

/**
 * One re-screening pass (docs/compliance.md): every live withdrawal still open, and every open deposit of a site that
 * screens deposit senders ({@link rescreenOpenDeposits}), whose newest screening was not made
 * against the lists' current versions (a list was imported since, or none existed at its create) is screened again.
 * What an import promised is kept by the database alone: the versions are there and the record's screening is not,
 * so a ledger killed mid-pass leaves the rest due, and any ledger's next pass takes them. Each record is locked and
 * checked again in its own transaction (still open, still not screened against these versions: two ledgers never
 * write it twice); a match on an entry it has no hit for is a new OPEN hit, audited `SCREENING.HELD`, and holds it;
 * an entry already held or decided for it keeps its decision (KNOWN).
 */
export async function rescreenOpenRecords(deps: RescreenDeps, limit = PASS_SIZE): Promise<RescreenCounts> {
  const counts: RescreenCounts = { screened: 0, held: 0 };
  const key = await deps.listIndex.currentKey();
  if (key === '') return counts;
  const due = await deps.screenings.withdrawalsToScreen(key, limit);
  for (const withdrawal of due) {
    const screening = await deps.listIndex.screen(withdrawal.name);
    // A list imported during the pass: the next pass screens against it.
    if (screening.versionsKey !== key) break;
    const held = await inTransaction(deps, async (tx) => {
      const locked = await deps.withdrawalReview.lockWithdrawal(tx, withdrawal.id);
      if (!locked || !OPEN.has(locked.status)) return null;
      const history = await deps.screenings.historyOf(tx, withdrawal.id);
      if (history.latestKey === key) return null;
      const outcome = outcomeOf(screening, history.hitEntries);
      await deps.screenings.insert(tx, {
        subjectType: 'withdrawal',
        subjectId: locked.id,
        siteId: locked.siteId,
        screenedName: locked.targetHolderName,
        screening,
        ...outcome,
      });
      return outcome.status === 'OPEN';
    });
    if (held === null) continue;
    counts.screened += 1;
    if (held) {
      counts.held += 1;
      deps.logger.info('screening hit on an open withdrawal', { withdrawalId: withdrawal.id, siteId: withdrawal.siteId });
    }
  }
  const deposits = await rescreenOpenDeposits(deps, key, limit);
  return { screened: counts.screened + deposits.screened, held: counts.held + deposits.held };
}

const OPEN_DEPOSIT = new Set<string>(OPEN_DEPOSIT_STATUSES);

/**
 * The deposits' part of a pass: each open deposit (money arrived, not yet decided) of a live site whose policy screens
 * deposit senders, whose newest screening is not against the current versions (a list imported since, or money
 * credited before the site turned the policy on), has every sender of its money screened again, locked and checked in
 * its own transaction like a withdrawal; one row per sender, a new entry an OPEN hit that holds it.
 */
async function rescreenOpenDeposits(deps: RescreenDeps, key: string, limit: number): Promise<RescreenCounts> {
  const counts: RescreenCounts = { screened: 0, held: 0 };
  for (const deposit of await deps.screenings.depositsToScreen(key, limit)) {
    const held = await inTransaction(deps, async (tx) => {
      const locked = await deps.depositReview.lockDeposit(tx, deposit.id);
      if (!locked || !OPEN_DEPOSIT.has(locked.status)) return null;
      if ((await deps.screenings.historyOf(tx, deposit.id)).latestKey === key) return null;
      let hits = 0;
      for (const name of await deps.screenings.sendersOf(tx, deposit.id)) {
        const screening = await deps.listIndex.screen(name, tx);
        // A list imported meanwhile: the next pass screens against it.
        if (screening.versionsKey !== key) return null;
        // Read again for each sender: two senders matching one entry are one hit.
        const { hitEntries } = await deps.screenings.historyOf(tx, deposit.id);
        const outcome = outcomeOf(screening, hitEntries);
        await deps.screenings.insert(tx, {
          subjectType: 'deposit',
          subjectId: locked.id,
          siteId: locked.siteId,
          screenedName: name,
          screening,
          ...outcome,
        });
        if (outcome.status === 'OPEN') hits += 1;
      }
      return hits > 0;
    });
    if (held === null) continue;
    counts.screened += 1;
    if (held) {
      counts.held += 1;
      deps.logger.info('screening hit on an open deposit', { intentId: deposit.id, siteId: deposit.siteId });
    }
  }
  return counts;
}
