import { randomUUID } from 'node:crypto';
import type { BankTransfer, Deposit, Prisma } from '@kasa/db';
import { maskIban } from '@kasa/logger';
import { findReferenceNos } from '../site-records/reference-no.js';
import { writeAudits, type Actor, type AuditEntry } from '../shared/audit.repository.js';
import { timeSlices } from '../shared/event-loop.js';
import type { DepositReviewRepository } from '../deposits/deposit-review.repository.js';
import type { Clock } from '../shared/clock.js';
import { arrivalChange } from './apply-arrival.js';
import { explainMatch, nearReferenceNos, rankSuggestions, type MatchReason, type Suggestion } from './matching.js';
import type { UnmatchedReason } from './arrival.js';
import type { BankTransferRepository, NewBankTransfer } from './bank-transfer.repository.js';
import { transferLineKey } from './line-key.js';
import { arrivalEventTypes } from '../deposits/arrival-events.js';
import { writeEventsIfSubscribed, type WrittenOutboxEvent } from '../outbox/outbox.repository.js';
import { toDepositRecord } from '../deposits/deposit.views.js';
import { screenSenders, type SenderScreeningDeps } from '../screening/screen-senders.js';

export interface RecordArrivalDeps extends SenderScreeningDeps {
  clock: Clock;
  config: { arrivalClockSkewMs: number };
  bankTransfers: BankTransferRepository;
  depositReview: DepositReviewRepository;
}

/** A transfer this transaction recorded, the deposit its money went to (null: the unmatched queue) and, unmatched, the deposits a near reference names. */
export interface RecordedArrival {
  transfer: BankTransfer;
  deposit: Deposit | null;
  /** The deposit as it was before this money reached it. */
  before: Deposit | null;
  reasons: MatchReason[];
  suggestions: Suggestion[];
  /** The opt-in events the arrival wrote (`intent.received`, `intent.late_arrival`): the caller publishes them once committed. */
  events: WrittenOutboxEvent[];
}

/** One incoming transfer recorded inside the caller's transaction: {@link recordArrivals} of one. Null for a repeat. */
export async function recordArrival(
  tx: Prisma.TransactionClient,
  deps: RecordArrivalDeps,
  actor: Actor,
  transfer: NewBankTransfer,
  requestId: string | null = null,
): Promise<RecordedArrival | null> {
  const [recorded] = await recordArrivals(tx, deps, actor, [transfer], requestId);
  return recorded ?? null;
}

/** A line's matching outcome, decided in memory before anything is written. */
interface Decided {
  id: string;
  transfer: NewBankTransfer;
  matched: Deposit | null;
  before: Deposit | null;
  reason: UnmatchedReason | null;
  reasons: MatchReason[];
  suggestions: Suggestion[];
}

/**
 * Records incoming transfers of one receiving account inside the caller's transaction, whoever delivered them (an
 * operator, a statement, a connector), in the order given: each inserted unless its line key is known on the account
 * (line-key.ts; a repeat, also within `transfers`, is null and writes nothing), matched by the deposit reference
 * in its description, the deposit moved ({@link arrivalChange}), and audited as `BANK_TRANSFER.RECORDED`. The match's
 * reasons are stored with it; a transfer no exact reference matched keeps the deposits a near reference names as
 * suggestions (it stays UNMATCHED: an operator confirms one by assigning).
 *
 * Set-based: one read of the line keys the account already has, one lock of every deposit the new transfers name (in
 * id order), one read of the near references, the decisions in memory in order (a deposit two transfers pay sees the
 * first one's money: the second is a split), then one write each of the transfers (inserted as decided: each row
 * written once), the deposits and the audit entries. A line another batch recorded between the read and the insert
 * (the unique index made this insert wait for it) undoes this call's rows and records the transfers the careful way
 * ({@link recordArrivalsInsertingFirst}).
 */
export async function recordArrivals(
  tx: Prisma.TransactionClient,
  deps: RecordArrivalDeps,
  actor: Actor,
  transfers: readonly NewBankTransfer[],
  requestId: string | null = null,
): Promise<Array<RecordedArrival | null>> {
  const livemode = batchLivemode(transfers);
  const distinct = distinctLines(transfers);
  const known = await deps.bankTransfers.knownLineKeys(tx, distinct);
  const fresh = distinct.filter((transfer) => !known.has(transfer));
  // A known line that a statement carries confirms the line the bank connector posted first.
  await deps.bankTransfers.confirmKnownByStatement(
    tx,
    distinct.filter((transfer) => known.has(transfer)),
  );
  if (fresh.length === 0) return transfers.map(() => null);
  const decisions = await decideArrivals(
    tx,
    deps,
    actor,
    fresh.map((transfer) => ({ id: randomUUID(), transfer, references: findReferenceNos(transfer.description) })),
    livemode,
  );
  const settled = await deps.bankTransfers.insertDecided(tx, decisions.decided.map(settledRow));
  if (!settled) return recordArrivalsInsertingFirst(tx, deps, actor, transfers, requestId);
  return writeDecided(tx, deps, actor, transfers, decisions, settled, requestId);
}

/** The row a decided transfer is written as: its queue status and the matching's outcome. */
function settledRow(d: Decided) {
  return {
    id: d.id,
    transfer: d.transfer,
    status: d.matched ? ('MATCHED' as const) : ('UNMATCHED' as const),
    intentId: d.matched?.id ?? null,
    unmatchedReason: d.reason,
    matchReasons: d.reasons,
    suggestions: d.suggestions.map((s) => ({ ...s })),
  };
}

/** One batch is one source: real money (statements, connectors, operators) or the sandbox simulator's. */
function batchLivemode(transfers: readonly NewBankTransfer[]): boolean {
  const livemode = transfers[0]?.livemode ?? true;
  if (transfers.some((transfer) => (transfer.livemode ?? true) !== livemode)) throw new Error('a batch mixes live and simulated money');
  return livemode;
}

/** A line key repeated within the batch is a repeat of the first one (a batch of lines numbers its repeats apart). */
function distinctLines(transfers: readonly NewBankTransfer[]): NewBankTransfer[] {
  const first = new Map<string, NewBankTransfer>();
  for (const transfer of transfers) {
    const key = transferLineKey(transfer);
    if (!first.has(key)) first.set(key, transfer);
  }
  return [...first.values()];
}

/**
 * {@link recordArrivals} inserting each line UNMATCHED first and settling it once decided: the unique index, not a
 * read, tells a new line from a known one, so a batch racing this one for the same lines is told apart exactly.
 */
async function recordArrivalsInsertingFirst(
  tx: Prisma.TransactionClient,
  deps: RecordArrivalDeps,
  actor: Actor,
  transfers: readonly NewBankTransfer[],
  requestId: string | null = null,
): Promise<Array<RecordedArrival | null>> {
  const livemode = batchLivemode(transfers);
  const distinct = distinctLines(transfers);
  const ids = await deps.bankTransfers.insertLinesUnlessKnown(tx, distinct);
  const inserted = distinct.flatMap((transfer, index) => {
    const id = ids[index];
    return id ? [{ id, transfer, references: findReferenceNos(transfer.description) }] : [];
  });
  if (inserted.length === 0) return transfers.map(() => null);
  const decisions = await decideArrivals(tx, deps, actor, inserted, livemode);
  const settled = await deps.bankTransfers.settleInserted(tx, decisions.decided.map(settledRow));
  // Inserted UNMATCHED by this transaction a moment ago: nobody else can have moved them.
  if (!settled || settled.length !== decisions.decided.length) throw new Error('a transfer recorded in this transaction changed under it');
  return writeDecided(tx, deps, actor, transfers, decisions, settled, requestId);
}

/** The decisions of the new transfers, in order, against their deposits locked by this transaction. */
async function decideArrivals(
  tx: Prisma.TransactionClient,
  deps: RecordArrivalDeps,
  actor: Actor,
  inserted: ReadonlyArray<{ id: string; transfer: NewBankTransfer; references: string[] }>,
  livemode: boolean,
): Promise<Decisions> {
  // The deposits as this transaction leaves them: each line sees the lines before it.
  const current = new Map<string, Deposit>();
  const byReference = new Map<string, string>();
  for (const deposit of await deps.depositReview.lockDepositsByReference(
    tx,
    [...new Set(inserted.flatMap((l) => l.references))],
    livemode,
  )) {
    current.set(deposit.id, deposit);
    byReference.set(deposit.referenceNo, deposit.id);
  }
  const lockedStatus = new Map([...current.values()].map((deposit) => [deposit.id, deposit.status]));
  const named = (references: string[]) =>
    references.flatMap((reference) => {
      const deposit = current.get(byReference.get(reference) ?? '');
      return deposit ? [deposit] : [];
    });
  // The costliest step in memory (a few hundred strings tried per line naming no deposit): paused now and then, so a
  // statement of thousands of such lines does not hold up the ledger's other requests.
  const near = new Map<string, string[]>();
  const pause = timeSlices();
  for (const { id, transfer, references } of inserted) {
    near.set(id, named(references).length === 0 ? nearReferenceNos(transfer.description) : []);
    await pause();
  }
  const nearDeposits = new Map<string, Deposit>();
  for (const deposit of await deps.depositReview.findDepositsByReference(tx, [...new Set([...near.values()].flat())], livemode)) {
    nearDeposits.set(deposit.referenceNo, deposit);
  }

  const skew = deps.config.arrivalClockSkewMs;
  const intentAudits = new Map<string, AuditEntry>();
  // Paused now and then too: a round's decisions (names compared, suggestions ranked) are milliseconds per hundred lines.
  const decided: Decided[] = [];
  for (const { id, transfer, references } of inserted) {
    await pause();
    const deposits = named(references);
    const [only] = deposits;
    let reason: UnmatchedReason | null = null;
    let matched: Deposit | null = null;
    if (references.length === 0) reason = 'no_reference';
    else if (!only) reason = 'unknown_reference';
    else if (deposits.length > 1) reason = 'ambiguous_reference';
    else {
      const change = arrivalChange(deps, actor, only, { id, ...transfer });
      if (change) {
        matched = change.after;
        current.set(only.id, change.after);
        intentAudits.set(id, change.audit);
      } else reason = 'intent_closed';
    }
    const reasons = matched && only ? explainMatch(transfer, only, 'reference_exact', skew).reasons : [];
    const candidates = (near.get(id) ?? []).flatMap((reference) => {
      const deposit = nearDeposits.get(reference);
      return deposit ? [current.get(deposit.id) ?? deposit] : [];
    });
    const suggestions = reason === 'no_reference' || reason === 'unknown_reference' ? rankSuggestions(transfer, candidates, skew) : [];
    decided.push({ id, transfer, matched, before: matched ? (only ?? null) : null, reason, reasons, suggestions });
  }
  const moved = [...intentIdsOf(decided)].flatMap((id) => {
    const [from, to] = [lockedStatus.get(id), current.get(id)];
    return from && to ? [{ from, to }] : [];
  });
  return { decided, moved, intentAudits };
}

/** The decisions of a call: each new transfer's, the deposits they moved (from, to), the deposits' audit entries by transfer. */
interface Decisions {
  decided: Decided[];
  moved: Array<{ from: Deposit['status']; to: Deposit }>;
  intentAudits: Map<string, AuditEntry>;
}

/** Writes what the decisions did to the deposits, their audit entries and events; each transfer's record, in the order given. */
async function writeDecided(
  tx: Prisma.TransactionClient,
  deps: RecordArrivalDeps,
  actor: Actor,
  transfers: readonly NewBankTransfer[],
  { decided, moved, intentAudits }: Decisions,
  settled: readonly BankTransfer[],
  requestId: string | null,
): Promise<Array<RecordedArrival | null>> {
  // Locked by this transaction a moment ago: nobody else can have moved them.
  if ((await deps.depositReview.writeArrivals(tx, moved)) !== moved.length) {
    throw new Error('a deposit locked in this transaction changed under it');
  }
  // The senders of the money credited, screened with the credit where the deposit's site asks for it.
  await screenSenders(
    tx,
    deps,
    decided.flatMap((d) => (d.matched ? [{ depositId: d.matched.id, siteId: d.matched.siteId, senderName: d.transfer.senderName }] : [])),
  );
  await writeAudits(
    tx,
    decided.flatMap((d, index) => {
      const intentAudit = intentAudits.get(d.id);
      return [...(intentAudit ? [intentAudit] : []), transferAudit(actor, d, settled[index] as BankTransfer)];
    }),
  );

  // The opt-in events of the money that reached a deposit, written only for the sites that chose them (one query per type),
  // each handed back with the transfer that caused it (per deposit and type they are written in the transfers' order).
  const wanted = decided.map((d) =>
    d.matched && d.before
      ? arrivalEventTypes(d.before, d.matched).map((type) => ({
          siteId: (d.matched as Deposit).siteId,
          type,
          entityId: (d.matched as Deposit).id,
          data: toDepositRecord(d.matched as Deposit),
          requestId,
        }))
      : [],
  );
  const written = new Map<string, WrittenOutboxEvent[]>();
  for (const event of await writeEventsIfSubscribed(tx, wanted.flat())) {
    const key = `${event.entityId} ${event.type}`;
    written.set(key, [...(written.get(key) ?? []), event]);
  }
  const eventsOf = (index: number): WrittenOutboxEvent[] =>
    (wanted[index] ?? []).flatMap((event) => {
      const next = written.get(`${event.entityId} ${event.type}`)?.shift();
      return next ? [next] : [];
    });
  const recorded = new Map(
    decided.map((d, index) => [
      d.transfer,
      {
        transfer: settled[index] as BankTransfer,
        deposit: d.matched,
        before: d.before,
        reasons: d.reasons,
        suggestions: d.suggestions,
        events: eventsOf(index),
      },
    ]),
  );
  return transfers.map((transfer) => recorded.get(transfer) ?? null);
}

function intentIdsOf(decided: readonly Decided[]): Set<string> {
  return new Set(decided.flatMap((d) => (d.matched ? [d.matched.id] : [])));
}

function transferAudit(actor: Actor, { id, transfer, matched, reason, reasons, suggestions }: Decided, settled: BankTransfer): AuditEntry {
  return {
    actor,
    action: 'BANK_TRANSFER.RECORDED',
    entityType: 'bank_transfer',
    entityId: id,
    siteId: matched?.siteId ?? null,
    metadata: {
      bankTxId: transfer.bankTxId,
      amount: transfer.amount.toString(),
      senderIban: maskIban(transfer.senderIban),
      status: settled.status,
      intentId: matched?.id ?? null,
      unmatchedReason: reason,
      matchReasons: reasons,
      suggestions: suggestions.map((s) => s.intentId),
      ...(transfer.statementId ? { statementId: transfer.statementId } : {}),
    },
  };
}
