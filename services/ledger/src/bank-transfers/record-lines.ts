import type { Prisma, Site } from '@kasa/db';
import type { StatementLine } from '@kasa/statements';
import { normalizeIban } from '@kasa/contracts';
import type { FollowUpRepository, NewFollowUp } from '../follow-ups/follow-up.repository.js';
import type { ApprovalPayload, FollowUpRunner, PayoutReturnedPayload, PayoutSentPayload } from '../follow-ups/follow-up-work.js';
import type { Actor } from '../shared/audit.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { yieldToEventLoop } from '../shared/event-loop.js';
import type { TransitionDeps } from '../review/transition.js';
import { sentPayouts, splitPayoutReturns, type PayoutLineDeps, type PayoutTally } from './payout-statement.js';
import type { SiteRepository } from '../sites/site.repository.js';
import type { BankStatementRepository } from './bank-statement.repository.js';
import type { NewBankTransfer } from './bank-transfer.repository.js';
import { recordArrivals, type RecordArrivalDeps, type RecordedArrival } from './record-arrival.js';
import { answerHandEntries } from './hand-entries.js';
import { lineKeysOf } from './line-key.js';
import { straightThrough, type StraightThroughRefusal } from './straight-through.js';
import {
  LINES_LISTED,
  applyDecision,
  debitOutcome,
  handEntryOutcome,
  knownLine,
  matchReasons,
  outcomeOf,
  returnOutcome,
  settleApproval,
  unmatchedReason,
  type LineOutcome,
} from './line-outcomes.js';
import type { UnmatchedReason } from './arrival.js';

/** What recording a receiving account's lines needs: recording and matching, the debits, and approving by a site's rule. */
export interface RecordLinesDeps extends TransitionDeps, RecordArrivalDeps, PayoutLineDeps {
  config: RecordArrivalDeps['config'];
  statements: BankStatementRepository;
  sites: SiteRepository;
  followUps: FollowUpRepository;
  /** Carries out the follow-ups the lines' commit promised (follow-ups/, wired by ledger-deps.ts). */
  followUpRunner: FollowUpRunner;
}

/** What recording a batch of lines did. `matched + suggested + unmatched` are the new transfers. */
export interface LineCounts {
  created: number;
  duplicates: number;
  matched: number;
  suggested: number;
  unmatched: number;
  autoApproved: number;
  payoutsSent: number;
  payoutsReturned: number;
  /** Hand entries a bank line confirmed (the same transaction: nothing credited again). */
  handEntriesConfirmed: number;
  /** Hand entries a bank line disagreed with (amount, or day by more than one): flagged for an operator, nothing credited. */
  bankLineDifferences: number;
}

/** The counts alone, for the one log line a batch writes (the answer carries more). */
export function countsOf(counts: LineCounts): LineCounts {
  const { created, duplicates, matched, suggested, unmatched, autoApproved, payoutsSent, payoutsReturned } = counts;
  const { handEntriesConfirmed, bankLineDifferences } = counts;
  return {
    created,
    duplicates,
    matched,
    suggested,
    unmatched,
    autoApproved,
    payoutsSent,
    payoutsReturned,
    handEntriesConfirmed,
    bankLineDifferences,
  };
}

/**
 * The most follow-ups a batch may promise and still have its request carry them out before answering: a connector's
 * batch (at most 500 lines) and a day's statement always. A larger file is answered once its lines commit, and its
 * follow-ups run right after the answer: a pageful of approvals costs about what recording its lines did, and the
 * operator who sent 10,000 lines waits for the lines, not for the approvals the commit already guarantees.
 */
export const FOLLOW_UPS_BEFORE_ANSWER = 2_000;

/**
 * What a batch of lines does once its transaction committed, whoever delivered it (a statement, a connector): the
 * arrival events published, and the follow-ups of its lines carried out (the deposits its sites' rules approve
 * straight through, the batched payouts the lines showed sent or returned): those {@link promiseLineWork} wrote in the
 * transaction, and those a try before left pending (a crash after a commit: the same lines sent again resume them).
 * Returns the batch's counts at the answer: a batch that promised more than {@link FOLLOW_UPS_BEFORE_ANSWER} counts
 * none of its follow-ups done (its listed lines say `approval_pending`), which run on once the answer is given; a
 * ledger stopping meanwhile leaves the rest to the follow-up worker or to the same file sent again.
 */
export async function afterLinesCommitted(
  deps: RecordLinesDeps,
  request: OperatorRequest,
  source: Pick<LineSource, 'receivingAccountId'>,
  tally: LineTally,
): Promise<LineCounts> {
  await deps.outbox.publish(tally.events, request.requestId);
  for (const { intentId, refusal } of tally.refusals) {
    deps.logger.info('straight-through approval not applied', { requestId: request.requestId, intentId, refusal });
  }
  const selection = { receivingAccountId: source.receivingAccountId, lineKeys: tally.lineKeys };
  // What the batch's commit may have promised: an approval per deposit paid, each payout sent or returned.
  const promisedWork = tally.paid.length + tally.payouts.sent.length + tally.payouts.returned.length;
  const done =
    promisedWork <= FOLLOW_UPS_BEFORE_ANSWER
      ? await deps.followUpRunner.run(request.requestId, selection)
      : runAfterAnswer(deps, request.requestId, selection, promisedWork);
  const promised = tally.outcomes.filter((o) => o.approvalPromised && o.deposit);
  if (promised.length > 0) {
    const approvals = await deps.followUps.approvalsOf(promised.map((o) => o.deposit?.depositId ?? ''));
    for (const outcome of promised) settleApproval(outcome, approvals.get(outcome.deposit?.depositId ?? ''));
  }
  return { ...tally.counts, autoApproved: done.autoApproved, payoutsSent: done.payoutsSent, payoutsReturned: done.payoutsReturned };
}

/** A large batch's follow-ups, started without waiting (none counted yet); the outcome is logged when they end. */
function runAfterAnswer(
  deps: RecordLinesDeps,
  requestId: string,
  selection: { receivingAccountId: string; lineKeys: string[] },
  promised: number,
): { autoApproved: number; payoutsSent: number; payoutsReturned: number } {
  const started = performance.now();
  deps.logger.info('follow-ups run after the answer', { requestId, promised });
  void deps.followUpRunner.run(requestId, selection).then(
    (counts) => deps.logger.info('follow-ups after the answer done', { requestId, ...counts, ms: Math.round(performance.now() - started) }),
    (error: unknown) =>
      deps.logger.warn('follow-ups after the answer stopped; the follow-up worker resumes them', {
        requestId,
        reason: error instanceof Error ? error.message : String(error),
      }),
  );
  return { autoApproved: 0, payoutsSent: 0, payoutsReturned: 0 };
}

/** The running counts of a batch, and the arrivals that paid a deposit (for straight-through approval once committed). */
export interface LineTally {
  counts: LineCounts;
  paid: RecordedArrival[];
  /** The ids of the opt-in arrival events written, to publish once committed. */
  events: string[];
  /** Batched payouts the lines showed leaving or coming back, to mark SENT or RETURNED (follow-ups). */
  payouts: PayoutTally;
  /** Every line's key, new or known: the follow-ups still pending for them are resumed once committed. */
  lineKeys: string[];
  /** Deposits of sites with the rule on that it did not cover, and why (logged once committed). */
  refusals: Array<{ intentId: string; refusal: StraightThroughRefusal }>;
  /** What became of the batch's first {@link LINES_LISTED} lines, in batch order (line-outcomes.ts). */
  outcomes: LineOutcome[];
  /** The listed lines' outcomes by the transfer they created, for the straight-through rule's decisions. */
  byTransfer: Map<string, LineOutcome>;
}

export const newTally = (): LineTally => ({
  counts: {
    created: 0,
    duplicates: 0,
    matched: 0,
    suggested: 0,
    unmatched: 0,
    autoApproved: 0,
    payoutsSent: 0,
    payoutsReturned: 0,
    handEntriesConfirmed: 0,
    bankLineDifferences: 0,
  },
  paid: [],
  events: [],
  payouts: { sent: [], returned: [] },
  lineKeys: [],
  refusals: [],
  outcomes: [],
  byTransfer: new Map(),
});

/** Where a batch of lines came from: a receiving account, and the statement they are in (null: a bank connector's feed). */
export interface LineSource {
  receivingAccountId: string;
  statementId: string | null;
}

/**
 * Lines recorded per round of statements: bounded work per query whatever the file's size, and few enough that the
 * work in memory between two queries (building and reading a round's rows) stays a few tens of milliseconds.
 */
const CHUNK_LINES = 500;

/**
 * Records the lines a bank delivered for a receiving account (one statement's, or a connector's request) inside the
 * caller's transaction, in file order, a chunk of lines at a time: the credits as transfers exactly as an operator's
 * ({@link recordArrivals}), the debits kept for the payouts. A line is known by its line key on the account
 * (line-key.ts: reference, direction, amount, booking day, occurrence in this batch): a line the account already has
 * is a duplicate and changes nothing, lines sharing a reference are each recorded. A credit answering what an
 * operator recorded by hand confirms it, or flags the difference, instead of being credited again (hand-entries.ts).
 */
export async function recordLines(
  tx: Prisma.TransactionClient,
  deps: RecordLinesDeps,
  actor: Actor,
  source: LineSource,
  lines: readonly StatementLine[],
  tally: LineTally,
  requestId: string | null = null,
): Promise<void> {
  const { counts } = tally;
  // Numbered over the whole batch: the occurrence of a repeated line must not depend on where a chunk ends. Keyed a
  // chunk at a time (the occurrences so far carried over), so a large batch's keys do not stall the event loop either.
  const seen = new Map<string, number>();
  let keys = new Map<StatementLine, string>();
  const keyOf = (line: StatementLine) => keys.get(line) ?? '';
  // A hand entry recorded at this moment waits for the batch, and the batch for it (bank-transfer.repository.ts).
  await deps.bankTransfers.lockAccountLines(tx, source.receivingAccountId, 'shared');
  for (let start = 0; start < lines.length; start += CHUNK_LINES) {
    // Between chunks the ledger's other requests are answered: a large file never holds them up for long.
    if (start > 0) await yieldToEventLoop();
    const chunk = lines.slice(start, start + CHUNK_LINES);
    const outcomes = new Map<StatementLine, LineOutcome>();
    keys = lineKeysOf(chunk, seen);
    for (const key of keys.values()) tally.lineKeys.push(key);
    const debits = chunk.filter((line) => line.direction === 'debit');
    // Every line of a batch has its own key: none is the repeat of another.
    const createdDebits = await deps.statements.insertDebitsUnlessKnown(
      tx,
      debits.map((line) => debitOf(line, source, keyOf(line))),
    );
    counts.created += createdDebits.size;
    counts.duplicates += debits.length - createdDebits.size;
    // Only new debits confirm a payout: the same statement imported again confirms nothing twice.
    const sentBefore = tally.payouts.sent.length;
    await sentPayouts(
      deps,
      tx,
      source,
      debits.filter((line) => createdDebits.has(keyOf(line))),
      keyOf,
      tally.payouts,
    );
    const sentNow = new Map(tally.payouts.sent.slice(sentBefore).map((sent) => [sent.lineKey, sent]));
    for (const line of debits) {
      const key = keyOf(line);
      const sent = sentNow.get(key);
      outcomes.set(
        line,
        !createdDebits.has(key)
          ? knownLine(line, key)
          : debitOutcome(line, key, sent ? { kind: sent.kind, id: sent.id, batchId: sent.batchId } : null),
      );
    }
    // A payout the bank sent back is not unknown money: it settles the withdrawal's return, in no queue.
    const returnedBefore = tally.payouts.returned.length;
    const returned = await splitPayoutReturns(
      deps,
      tx,
      actor,
      source,
      chunk.filter((line) => line.direction !== 'debit'),
      (line) => transferOf(line, source, keyOf(line)),
      tally.payouts,
    );
    counts.created += returned.created;
    counts.duplicates += returned.duplicates;
    const returnsNow = new Map(tally.payouts.returned.slice(returnedBefore).map((r) => [r.lineKey, r]));
    const others = new Set(returned.others);
    for (const line of chunk) {
      if (line.direction === 'debit' || others.has(line)) continue;
      const key = keyOf(line);
      const back = returnsNow.get(key);
      outcomes.set(
        line,
        back
          ? returnOutcome(line, key, { id: back.withdrawalId, batchId: back.batchId, bankTransferId: back.bankTransferId })
          : knownLine(line, key),
      );
    }
    const answered = await answerHandEntries(tx, deps, actor, source, returned.others, keys);
    for (const [line, { answer, bankTransferId }] of answered.answered) {
      outcomes.set(line, answer === 'known' ? knownLine(line, keyOf(line)) : handEntryOutcome(line, keyOf(line), answer, bankTransferId));
    }
    counts.handEntriesConfirmed += answered.confirmed;
    counts.bankLineDifferences += answered.differences;
    counts.duplicates += answered.known;
    const credits = answered.others;
    const arrivals = await recordArrivals(
      tx,
      deps,
      actor,
      credits.map((line) => transferOf(line, source, keyOf(line))),
      requestId,
    );
    for (const [index, recorded] of arrivals.entries()) {
      const line = credits[index] as StatementLine; // recordArrivals answers each transfer given, in order
      if (!recorded) {
        counts.duplicates += 1;
        outcomes.set(line, knownLine(line, keyOf(line)));
        continue;
      }
      tally.events.push(...recorded.events.map((event) => event.eventId));
      counts.created += 1;
      const kind = recorded.deposit ? 'matched' : recorded.suggestions.length > 0 ? 'suggested' : 'unmatched';
      counts[kind] += 1;
      if (recorded.deposit) tally.paid.push(recorded);
      outcomes.set(line, arrivalOutcome(line, keyOf(line), kind, recorded));
    }
    for (const line of chunk) {
      const outcome = outcomes.get(line);
      if (!outcome || tally.outcomes.length >= LINES_LISTED) continue;
      tally.outcomes.push(outcome);
      if (outcome.bankTransferId) tally.byTransfer.set(outcome.bankTransferId, outcome);
    }
  }
}

/** A new credit's outcome: the deposit it paid (and why), the deposits a near reference suggests, or why neither. */
function arrivalOutcome(
  line: StatementLine,
  lineKey: string,
  kind: 'matched' | 'suggested' | 'unmatched',
  { transfer, deposit, reasons, suggestions }: RecordedArrival,
): LineOutcome {
  const why = transfer.unmatchedReason ? [unmatchedReason(transfer.unmatchedReason as UnmatchedReason)] : [];
  return {
    ...outcomeOf(line, lineKey, kind, deposit ? matchReasons(reasons) : why),
    bankTransferId: transfer.id,
    deposit: deposit ? { depositId: deposit.id, referenceNo: deposit.referenceNo, siteId: deposit.siteId } : null,
    suggestions,
  };
}

/**
 * The work the batch's commit promises, written in its transaction as follow-ups (follow-ups/): each deposit its
 * site's rule lets the service approve (straight-through.ts), with the rule and the money as they were, and each
 * batched payout a line showed leaving or coming back. Carried out once committed ({@link afterLinesCommitted}), or by
 * the follow-up worker when the ledger stopped first; the refusals of a site with the rule on are kept for the log.
 */
export async function promiseLineWork(
  tx: Prisma.TransactionClient,
  deps: Pick<RecordLinesDeps, 'sites'> & { followUps: FollowUpRepository },
  source: Pick<LineSource, 'receivingAccountId'> | { receivingAccountId: null },
  tally: Pick<LineTally, 'paid' | 'payouts' | 'refusals'> & Partial<Pick<LineTally, 'byTransfer'>>,
  requestId: string | null,
): Promise<string[]> {
  const approvals = await straightThroughWork(tx, deps, tally);
  const payouts = payoutWork(tally.payouts);
  return deps.followUps.promise(
    tx,
    [...approvals, ...payouts].map((work) => ({ ...work, receivingAccountId: source.receivingAccountId, requestId })),
  );
}

type PromisedWork = Omit<NewFollowUp, 'receivingAccountId' | 'requestId'>;

/** The approvals a site's rule covers, each a follow-up; the other deposits of sites with the rule on, with the refusal. */
async function straightThroughWork(
  tx: Prisma.TransactionClient,
  deps: Pick<RecordLinesDeps, 'sites'>,
  { paid, refusals, byTransfer = new Map() }: Pick<LineTally, 'paid' | 'refusals'> & Partial<Pick<LineTally, 'byTransfer'>>,
): Promise<PromisedWork[]> {
  // A deposit two lines of the batch paid is split money: an operator's.
  const times = new Map<string, number>();
  for (const { deposit } of paid) if (deposit) times.set(deposit.id, (times.get(deposit.id) ?? 0) + 1);
  const sites = new Map<string, Promise<Site | null>>();
  const work: PromisedWork[] = [];
  for (const { transfer, deposit, before, reasons } of paid) {
    const outcome = byTransfer.get(transfer.id);
    if (!deposit || !before) continue;
    if (times.get(deposit.id) !== 1) {
      if (outcome) applyDecision(outcome, { approve: false, refusal: 'split' });
      continue;
    }
    const siteOf = sites.get(deposit.siteId) ?? deps.sites.findById(deposit.siteId, tx);
    sites.set(deposit.siteId, siteOf);
    const site = await siteOf;
    if (!site) continue;
    const decision = straightThrough(site, { amount: transfer.amount, reasons, before, after: deposit });
    if (outcome) applyDecision(outcome, decision);
    if (!decision.approve) {
      if (site.autoApproveEnabled) refusals.push({ intentId: deposit.id, refusal: decision.refusal });
      continue;
    }
    // The credit is this transfer's amount, never more: money recorded for the deposit since is an operator's to weigh.
    const payload: ApprovalPayload = {
      siteId: deposit.siteId,
      amount: transfer.amount.toString(),
      rule: {
        name: 'straight_through',
        maxAmount: site.autoApproveMaxAmount.toString(),
        requireSenderMatch: site.autoApproveRequireSenderMatch,
        bankTransferId: transfer.id,
        reasons,
      },
    };
    work.push({
      kind: 'DEPOSIT_APPROVAL',
      subjectId: deposit.id,
      lineKey: transfer.lineKey,
      payload: payload as unknown as Prisma.InputJsonValue,
    });
  }
  return work;
}

/** The payouts the lines confirmed, each a follow-up: sent (a withdrawal, a sender return), then returned. */
function payoutWork({ sent, returned }: PayoutTally): PromisedWork[] {
  return [
    ...sent.map(({ kind, id, batchId, bankTxId, lineKey }): PromisedWork => {
      const payload: PayoutSentPayload = { batchId, bankTxId };
      return {
        kind: kind === 'withdrawal' ? 'WITHDRAWAL_SENT' : 'RETURN_SENT',
        subjectId: id,
        lineKey,
        payload: payload as unknown as Prisma.InputJsonValue,
      };
    }),
    ...returned.map(({ withdrawalId, batchId, bankTxId, bankTransferId, code, reason, lineKey }): PromisedWork => {
      const payload: PayoutReturnedPayload = { batchId, bankTxId, bankTransferId, code, reason };
      return { kind: 'WITHDRAWAL_RETURNED', subjectId: withdrawalId, lineKey, payload: payload as unknown as Prisma.InputJsonValue };
    }),
  ];
}

function transferOf(line: StatementLine, { receivingAccountId, statementId }: LineSource, lineKey: string): NewBankTransfer {
  return {
    bankTxId: line.bankTxId,
    lineKey,
    amount: line.amount,
    currency: line.currency,
    senderName: (line.counterpartyName ?? '').slice(0, 140),
    senderIban: line.counterpartyIban ? normalizeIban(line.counterpartyIban) : '',
    description: line.description.slice(0, 500),
    purpose: line.purpose,
    receivedAt: line.bookedAt,
    receivedTimeKnown: line.timeKnown,
    receivingAccountId,
    statementId,
  };
}

function debitOf(line: StatementLine, { receivingAccountId, statementId }: LineSource, lineKey: string) {
  return {
    receivingAccountId,
    statementId,
    bankTxId: line.bankTxId,
    lineKey,
    amount: line.amount,
    currency: line.currency,
    counterpartyName: line.counterpartyName?.slice(0, 140) ?? null,
    counterpartyIban: line.counterpartyIban ? normalizeIban(line.counterpartyIban) : null,
    description: line.description.slice(0, 500),
    endToEndId: line.endToEndId,
    returnReason: line.returnReason,
    reversal: line.reversal,
    bookedAt: line.bookedAt,
    bookedTimeKnown: line.timeKnown,
  };
}
