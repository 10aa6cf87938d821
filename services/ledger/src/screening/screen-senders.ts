import type { Prisma } from '@kasa/db';
import type { ListIndex } from './list-index.js';
import { outcomeOf } from './screen-name.js';
import type { ScreeningRepository } from './screening.repository.js';

/** What screening a deposit's senders needs: the lists' index and the screenings. */
export interface SenderScreeningDeps {
  listIndex: ListIndex;
  screenings: ScreeningRepository;
}

/** Money just credited to a deposit (locked by the crediting transaction) and the name of who sent it. */
export interface SenderCredit {
  depositId: string;
  siteId: string;
  senderName: string;
}

/**
 * Screens the senders of money credited to deposits, inside the transaction that records the credit (a statement's or
 * a connector's lines, a hand entry, an operator's assignment), for the sites whose policy asks for it
 * (`screenDepositSenders`, live sites only): each credit a `screenings` row of its deposit, written with the credit, so
 * a deposit never holds money from a listed sender without its hit. A match on an entry the deposit has no hit for is
 * an OPEN hit (audited `SCREENING.HELD`) that holds the deposit from approval until two admins decide it; an entry it
 * already has a hit for keeps its decision (KNOWN). The lists are read through the transaction. Returns the deposits
 * a new hit holds (for the log: the names stay out of it).
 */
export async function screenSenders(
  tx: Prisma.TransactionClient,
  deps: SenderScreeningDeps,
  credits: readonly SenderCredit[],
): Promise<string[]> {
  if (credits.length === 0) return [];
  const screening = await deps.screenings.sitesScreeningSenders(tx, [...new Set(credits.map((credit) => credit.siteId))]);
  const held: string[] = [];
  // In order: a second line of the same sender to the same deposit finds the first one's hit (KNOWN, not a second hit).
  for (const credit of credits) {
    if (!screening.has(credit.siteId)) continue;
    const found = await deps.listIndex.screen(credit.senderName, tx);
    const history = await deps.screenings.historyOf(tx, credit.depositId);
    const outcome = outcomeOf(found, history.hitEntries);
    await deps.screenings.insert(tx, {
      subjectType: 'deposit',
      subjectId: credit.depositId,
      siteId: credit.siteId,
      screenedName: credit.senderName,
      screening: found,
      ...outcome,
    });
    if (outcome.status === 'OPEN') held.push(credit.depositId);
  }
  return held;
}
