/**
 * A partner's program that reads every documented field of every answer and of every webhook body, typed only by
 * `@kasa/sdk` as a partner installs it. test/contract/partner-program.test.ts compiles it, strict, with zero
 * diagnostics, and checks that `read<Schema>` reads each documented property of that schema of the OpenAPI document:
 * a field the document adds must be read here, and a field the SDK's types lack fails to compile. Nothing here runs.
 */
import type {
  Balance,
  BalanceStatement,
  BalanceStatementKeys,
  BalanceStatementMovement,
  BalanceTransaction,
  BalanceTransactionList,
  components,
  CreateDepositResponse,
  CreateWithdrawalResponse,
  DepositIntent,
  DepositIntentList,
  DepositIntentListItem,
  Event,
  EventList,
  EventWithAttempts,
  PingWebhookEvent,
  Problem,
  RecoverEventsResponse,
  SimulatedIntent,
  SimulatedTransfer,
  SimulatedWithdrawal,
  TestWebhookResponse,
  WebhookConfig,
  WebhookConfigResponse,
  WebhookEvent,
  Withdrawal,
  WithdrawalList,
  WithdrawalListItem,
} from '@kasa/sdk';

type Schemas = components['schemas'];
type Read = unknown[];

export function readDepositIntent(d: DepositIntent): Read {
  const status: 'RESERVED' | 'PENDING_REVIEW' | 'APPROVED' | 'REJECTED' | 'AUTO_CANCELLED' | 'LATE_ARRIVAL' = d.status;
  const currency: 'TRY' = d.currency;
  return [
    d.intentId,
    d.referenceNo,
    status,
    BigInt(d.amount),
    currency,
    d.approvedAt,
    d.rejectedAt,
    d.rejectedReason,
    d.createdAt,
    d.updatedAt,
  ];
}

export function readDepositIntentListItem(d: DepositIntentListItem): Read {
  return [
    d.intentId,
    d.referenceNo,
    d.status,
    BigInt(d.amount),
    BigInt(d.requestedAmount),
    d.currency,
    d.approvedAt,
    d.rejectedAt,
    d.rejectedReason,
    d.createdAt,
    d.updatedAt,
  ];
}

export function readDepositIntentList(page: DepositIntentList): Read {
  return [page.data.map(readDepositIntentListItem), page.nextCursor];
}

export function readCreateDepositResponse(r: CreateDepositResponse): Read {
  return [r.intentId, r.referenceNo, new URL(r.depositUrl), BigInt(r.amount), r.currency, new Date(r.expiresAt)];
}

/** A withdrawal's return reason: the ISO 20022 code when the bank gave one, and the text. */
function returnReasonOf(reason: Withdrawal['returnReason']): Read {
  return reason === null ? [] : [reason.code, reason.text];
}

export function readWithdrawal(w: Withdrawal): Read {
  const status: 'PENDING_REVIEW' | 'APPROVED' | 'SENT' | 'REJECTED' | 'RETURNED' = w.status;
  return [
    w.withdrawalId,
    w.referenceNo,
    status,
    BigInt(w.amount),
    w.currency,
    w.sentAt,
    w.rejectedAt,
    w.rejectedReason,
    w.createdAt,
    w.updatedAt,
    w.returnedAt,
    w.returnReason?.code,
    w.returnReason?.text,
  ];
}

export function readWithdrawalListItem(w: WithdrawalListItem): Read {
  return [
    w.withdrawalId,
    w.referenceNo,
    w.status,
    BigInt(w.amount),
    BigInt(w.requestedAmount),
    w.currency,
    w.sentAt,
    w.rejectedAt,
    w.rejectedReason,
    w.createdAt,
    w.updatedAt,
    w.returnedAt,
    w.returnReason?.code,
    w.returnReason?.text,
  ];
}

export function readWithdrawalList(page: WithdrawalList): Read {
  return [page.data.map(readWithdrawalListItem), page.nextCursor];
}

export function readCreateWithdrawalResponse(r: CreateWithdrawalResponse): Read {
  return [r.withdrawalId, r.referenceNo];
}

export function readBalance(b: Balance): Read {
  return [BigInt(b.available), BigInt(b.reserved), b.currency];
}

export function readBalanceTransaction(t: BalanceTransaction): Read {
  const balance: 'available' | 'reserved' = t.balance;
  const type: 'deposit' | 'withdrawal_reserved' | 'withdrawal_released' | 'withdrawal_sent' | 'withdrawal_returned' | 'adjustment' = t.type;
  return [t.id, balance, type, BigInt(t.amount), t.currency, t.intentId ?? t.withdrawalId, t.referenceNo, t.createdAt];
}

export function readBalanceTransactionList(page: BalanceTransactionList): Read {
  return [page.data.map(readBalanceTransaction), page.nextCursor];
}

export function readBalanceStatementMovement(m: BalanceStatementMovement): Read {
  return [
    m.id,
    m.balance,
    m.type,
    BigInt(m.amount),
    m.currency,
    m.intentId,
    m.withdrawalId,
    m.referenceNo,
    m.createdAt,
    BigInt(m.balanceAfter),
  ];
}

export function readBalanceStatement(s: BalanceStatement): Read {
  const format: 'kasa.balance-statement.v1' = s.format;
  return [
    format,
    s.siteId,
    s.livemode,
    s.date,
    s.timeZone,
    s.from,
    s.to,
    s.currency,
    s.opening,
    BigInt(s.opening.available),
    BigInt(s.opening.reserved),
    s.closing,
    BigInt(s.closing.available),
    BigInt(s.closing.reserved),
    s.movements.map(readBalanceStatementMovement),
    s.signature,
    s.signature.algorithm,
    s.signature.keyId,
    s.signature.value,
  ];
}

export function readBalanceStatementKeys(k: BalanceStatementKeys): Read {
  return [k.keys, k.keys.map((key) => [key.keyId, key.algorithm, key.publicKey, key.publicKeyPem])];
}

export function readWebhookConfig(c: WebhookConfig): Read {
  return [c.webhookUrl, c.rotatedAt, c.eventTypes];
}

export function readWebhookConfigResponse(c: WebhookConfigResponse): Read {
  // The secret comes once: keep it when it is there.
  return [c.webhookUrl, c.webhookSecret ?? 'unchanged', c.rotatedAt, c.eventTypes];
}

export function readTestWebhookResponse(r: TestWebhookResponse): Read {
  return [r.delivered, r.statusCode, r.durationMs, r.error];
}

export function readRecoverEventsResponse(r: RecoverEventsResponse): Read {
  return [r.replayed, r.eventIds];
}

export function readTopUp(t: Schemas['TopUp']): Read {
  return [BigInt(t.amount), t.bankTransferId, t.receivedAt];
}

/** A deposit's webhook: `type` says it is one, and `data` is then the deposit. */
export function readIntentWebhookEvent(e: Schemas['IntentWebhookEvent']): Read {
  const read: Read = [e.eventId, e.type, e.createdAt, e.livemode, e.test === true, readDepositIntent(e.data)];
  if (e.type === 'intent.topped_up' && e.topUp) read.push(readTopUp(e.topUp));
  return read;
}

export function readWithdrawalWebhookEvent(e: Schemas['WithdrawalWebhookEvent']): Read {
  return [e.eventId, e.type, e.createdAt, e.livemode, e.test === true, readWithdrawal(e.data)];
}

export function readPingWebhookEvent(e: PingWebhookEvent): Read {
  const test: true = e.test;
  return [e.eventId, e.type, e.createdAt, e.livemode, test, Object.keys(e.data).length];
}

/** What a receiver does with a verified webhook: the event's `type` tells the record apart, and so types `data`. */
export function handleWebhook(e: WebhookEvent): Read {
  if (!e.livemode) return ['a sandbox event'];
  switch (e.type) {
    case 'intent.approved':
    case 'intent.topped_up':
      return [e.data.intentId, BigInt(e.data.amount), e.topUp?.amount];
    case 'withdrawal.returned':
      return [e.data.withdrawalId, e.data.returnReason?.code];
    default:
      return 'intentId' in e.data ? [e.data.intentId, e.data.status] : [e.data.withdrawalId, e.data.status];
  }
}

/** An event's payload is the webhook body it delivered, typed: `livemode`, and `data` by the payload's `type`. */
function payloadOf(payload: Event['payload']): Read {
  const read: Read = [payload.eventId, payload.type, payload.createdAt, payload.livemode];
  if (payload.type.startsWith('intent.') && 'intentId' in payload.data) read.push(payload.data.intentId);
  return [...read, 'withdrawalId' in payload.data ? payload.data.withdrawalId : payload.data.referenceNo];
}

export function readEvent(e: Event): Read {
  const status: 'PENDING' | 'DELIVERED' | 'DEAD' = e.status;
  return [
    e.eventId,
    e.type,
    status,
    e.createdAt,
    e.attemptCount,
    e.lastAttemptAt,
    e.deliveredAt,
    e.deadAt,
    e.nextAttemptAt,
    payloadOf(e.payload),
  ];
}

export function readDeliveryAttempt(a: Schemas['DeliveryAttempt']): Read {
  return [a.attemptNo, a.url, a.startedAt, a.durationMs, a.statusCode, a.error, a.responseBody];
}

export function readEventWithAttempts(e: EventWithAttempts): Read {
  return [
    e.eventId,
    e.type,
    e.status,
    e.createdAt,
    e.attemptCount,
    e.lastAttemptAt,
    e.deliveredAt,
    e.deadAt,
    e.nextAttemptAt,
    payloadOf(e.payload),
    e.attempts.map(readDeliveryAttempt),
  ];
}

export function readEventList(page: EventList): Read {
  return [page.data.map(readEvent), page.nextCursor];
}

export function readSimulatedTransfer(t: SimulatedTransfer): Read {
  return [
    t.bankTransferId,
    t.status,
    t.amount,
    t.receivedAt,
    t.matchReasons,
    t.unmatchedReason,
    t.suggestions.map((s) => [s.intentId, s.referenceNo, s.confidence, s.reasons]),
    t.autoApproved,
    readDepositIntent(t.intent),
  ];
}

export function readSimulatedIntent(d: SimulatedIntent): Read {
  return [
    d.intentId,
    d.referenceNo,
    d.status,
    d.amount,
    d.currency,
    d.approvedAt,
    d.rejectedAt,
    d.rejectedReason,
    d.createdAt,
    d.updatedAt,
    d.eventId,
  ];
}

export function readSimulatedWithdrawal(w: SimulatedWithdrawal): Read {
  return [
    w.withdrawalId,
    w.referenceNo,
    w.status,
    w.amount,
    w.currency,
    w.sentAt,
    w.rejectedAt,
    w.rejectedReason,
    w.createdAt,
    w.updatedAt,
    w.returnedAt,
    returnReasonOf(w.returnReason),
    w.returnReason?.code,
    w.returnReason?.text,
    w.eventId,
  ];
}

export function readProblem(p: Problem): Read {
  return [p.type, p.title, p.status, p.detail, p.error, p.reason, p.errors?.map((e) => [e.field, e.message]), p.requestId];
}
