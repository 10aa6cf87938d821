import type { Prisma, PrismaClient } from '@kasa/db';
import type { Clock } from '../shared/clock.js';
import { canonicalPayload, payloadHash, signPayload, type SealKeys } from './history-seal.js';
import type { HistorySealRepository } from './history-seal.repository.js';
import type { HistoryRepository } from './history.repository.js';

/** Days one pass seals at most (a ledger that was down a long while catches up over a few passes). */
const DAYS_PER_PASS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface SealHistoryDeps {
  db: PrismaClient;
  history: HistoryRepository;
  historySeals: HistorySealRepository;
  sealKeys: SealKeys;
  clock: Clock;
}

/**
 * The Istanbul calendar day of an instant, `2026-11-28`. Turkey has kept UTC+03:00 all year since 2016 (as
 * packages/statements/src/dates.ts reads bank times), so a day runs from 21:00 UTC the evening before.
 */
/** The Istanbul day `at` falls on (`YYYY-MM-DD`): the day a seal covers. */
export { bookingDay as istanbulDay } from '../shared/istanbul-day.js';

/** The day after `day`. */
export const nextDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/** The day before `day`. */
export const previousDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** The instant `day` ends in Istanbul: the next day's midnight there. */
export const dayEnd = (day: string): Date => new Date(Date.parse(`${nextDay(day)}T00:00:00+03:00`));

/**
 * A mark taken at the start of a history pass, before the chains are linked: the clock's now, and the transaction id
 * horizon of that moment. Every transaction that began writing before `now` has an id below `horizon`.
 */
export interface SealMark {
  now: Date;
  horizon: bigint;
}

/** The first day not sealed yet: the day after the last seal, or the oldest row's; null while there is no row. */
async function firstUnsealed(deps: SealHistoryDeps, db: PrismaClient | Prisma.TransactionClient) {
  const last = await deps.historySeals.last(db);
  return { last, first: last ? nextDay(last.day) : await deps.historySeals.firstDay(db) };
}

/** The mark, when a day has ended that is not sealed yet (the horizon takes a transaction id, so only then); else null. */
export async function markForSealing(deps: SealHistoryDeps): Promise<SealMark | null> {
  const now = deps.clock.now();
  const { first } = await firstUnsealed(deps, deps.db);
  if (first === null || dayEnd(first) > now) return null;
  return { now, horizon: await deps.historySeals.horizonNow(deps.db) };
}

export interface SealedDays {
  days: string[];
  /** Why nothing was sealed although a day has ended: the chains still miss rows of transactions from before the mark. */
  waiting: boolean;
}

/**
 * Seals each Istanbul day that has ended by the mark and has no seal yet, oldest first (docs/compliance.md, Tamper-evident
 * history). A day is sealed only once the chains hold everything committed before it ended: every transaction that had
 * begun writing by the mark (so by the day's end) has finished and every row of them is linked. The seal holds each
 * chain's head at that moment, which therefore covers the whole day (and whatever later rows were linked by then), and
 * the journal balances those heads cover. A day with no rows is sealed too; days missed while no ledger ran are sealed,
 * each with the heads of the moment they are sealed. In one transaction under the chains' lock, reading the last seal
 * inside it: ledgers racing seal a day once (the day is unique besides).
 */
export async function sealHistory(deps: SealHistoryDeps, mark: SealMark): Promise<SealedDays> {
  return deps.db.$transaction(async (tx) => {
    if (!(await deps.history.lockChains(tx))) return { days: [], waiting: false };
    const { last, first } = await firstUnsealed(deps, tx);
    const due: string[] = [];
    for (let day = first; day !== null && dayEnd(day) <= mark.now && due.length < DAYS_PER_PASS; day = nextDay(day)) due.push(day);
    if (due.length === 0) return { days: [], waiting: false };
    if (!(await deps.historySeals.chainsReached(tx, mark.horizon))) return { days: [], waiting: true };

    const heads = [...(await deps.history.heads(tx))]
      .map(([chain, head]) => ({ chain, seq: head.seq.toString(), linkHash: head.linkHash }))
      .sort((a, b) => (a.chain < b.chain ? -1 : a.chain > b.chain ? 1 : 0));
    const balances = await deps.historySeals.balancesCovered(tx, heads);
    const { privateKey, keyId } = deps.sealKeys.signing;
    let previousHash = last?.payloadHash ?? null;
    // The days due are those ended by the mark; the seal says when it was actually made.
    const sealedAt = deps.clock.now();
    for (const day of due) {
      const payload = canonicalPayload({
        kind: 'kasa-history-seal',
        version: 1,
        day,
        sealedAt: sealedAt.toISOString(),
        keyId,
        previousSealHash: previousHash,
        heads,
        balances,
      });
      const hash = payloadHash(payload).toString('hex');
      const written = await deps.historySeals.insert(tx, {
        day,
        payload,
        payloadHash: hash,
        previousHash,
        signature: signPayload(payload, privateKey),
        keyId,
        sealedAt,
      });
      // Under the lock nobody else seals; should a day be there all the same, the seals after it would not chain.
      if (!written) throw new Error(`history seal of ${day} written by someone else meanwhile`);
      previousHash = hash;
    }
    return { days: due, waiting: false };
  });
}
