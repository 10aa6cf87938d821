import type { Response } from 'express';
import type { AuditEntry, ListResponse, OpsBankTransfer, OpsEvent, OpsIntent, OpsSenderReturn, OpsWithdrawal } from '@kasa/contracts';
import { csvCell, csvFilename, liraDecimal, streamCsv, type CsvCell } from './csv.js';

/** Rows read from the database per page of an export: small enough to hold, large enough that paging costs little. */
export const CSV_PAGE_ROWS = 500;

type Column<Item> = readonly [header: string, cell: (item: Item) => CsvCell];

/** An amount as two columns: `<name>_kurus` (the API's integer digits) and `<name>_try` (`1234.50`). */
function money<Item>(name: string, read: (item: Item) => string | null): Array<Column<Item>> {
  return [
    [`${name}_kurus`, read],
    [`${name}_try`, (item) => liraDecimal(read(item))],
  ];
}

const list = (values: readonly string[] | null | undefined): string => (values ?? []).join('; ');

/** A list's file: the name it is saved under and its columns, each a header and how an item of the JSON list fills it. */
interface CsvTable<Item> {
  file: string;
  columns: ReadonlyArray<Column<Item>>;
}

const table = <Item>(file: string, columns: ReadonlyArray<Column<Item>>): CsvTable<Item> => ({ file, columns });

/** The columns each ops list exports (docs/operations.md, CSV export, names them); one row per item of its JSON list. */
const OPS_CSV_TABLES = {
  'ops-intents': table<OpsIntent>('intents', [
    ['intent_id', (i) => i.intentId],
    ['reference_no', (i) => i.referenceNo],
    ['status', (i) => i.status],
    ['site_id', (i) => i.siteId],
    ['external_user_id', (i) => i.externalUserId],
    ['external_user_label', (i) => i.externalUserLabel],
    ...money<OpsIntent>('amount', (i) => i.amount),
    ...money<OpsIntent>('requested_amount', (i) => i.requestedAmount),
    ...money<OpsIntent>('received_amount', (i) => i.receivedAmount),
    ['currency', (i) => i.currency],
    ['created_at', (i) => i.createdAt],
    ['updated_at', (i) => i.updatedAt],
    ['expires_at', (i) => i.expiresAt],
    ['user_confirmed_at', (i) => i.userConfirmedAt],
    ['awaiting_review_since', (i) => i.awaitingReviewSince],
    ['waiting_for_rest_since', (i) => i.waitingForRestSince],
    ['approved_at', (i) => i.approvedAt],
    ['rejected_at', (i) => i.rejectedAt],
    ['rejected_reason', (i) => i.rejectedReason],
    ['rejected_user_reason', (i) => i.rejectedUserReason],
    ['cancelled_at', (i) => i.cancelledAt],
    ['mismatched_sender_names', (i) => list(i.senderNameMismatch)],
  ]),
  'ops-withdrawals': table<OpsWithdrawal>('withdrawals', [
    ['withdrawal_id', (w) => w.withdrawalId],
    ['reference_no', (w) => w.referenceNo],
    ['status', (w) => w.status],
    ['site_id', (w) => w.siteId],
    ['external_user_id', (w) => w.externalUserId],
    ['external_user_label', (w) => w.externalUserLabel],
    ...money<OpsWithdrawal>('amount', (w) => w.amount),
    ...money<OpsWithdrawal>('requested_amount', (w) => w.requestedAmount),
    ['currency', (w) => w.currency],
    ['target_iban', (w) => w.targetIban],
    ['target_holder_name', (w) => w.targetHolderName],
    ['created_at', (w) => w.createdAt],
    ['updated_at', (w) => w.updatedAt],
    ['approved_at', (w) => w.approvedAt],
    ['sent_at', (w) => w.sentAt],
    ['sent_bank_tx_id', (w) => w.sentBankTxId],
    ['rejected_at', (w) => w.rejectedAt],
    ['rejected_reason', (w) => w.rejectedReason],
    ['returned_at', (w) => w.returnedAt],
    ['returned_reason', (w) => w.returnedReason],
  ]),
  'ops-bank-transfers': table<OpsBankTransfer>('bank-transfers', [
    ['bank_transfer_id', (t) => t.bankTransferId],
    ['bank_tx_id', (t) => t.bankTxId],
    ['status', (t) => t.status],
    ...money<OpsBankTransfer>('amount', (t) => t.amount),
    ['currency', (t) => t.currency],
    ['sender_name', (t) => t.senderName],
    ['sender_iban', (t) => t.senderIban],
    ['description', (t) => t.description],
    ['received_at', (t) => t.receivedAt],
    ['receiving_account_id', (t) => t.receivingAccountId],
    ['livemode', (t) => t.livemode],
    ['intent_id', (t) => t.intentId],
    ['unmatched_reason', (t) => t.unmatchedReason],
    ['match_reasons', (t) => list(t.matchReasons)],
    ['set_aside_reason', (t) => t.setAsideReason],
    ['set_aside_at', (t) => t.setAsideAt],
    ['created_at', (t) => t.createdAt],
  ]),
  'ops-sender-returns': table<OpsSenderReturn>('sender-returns', [
    ['return_id', (r) => r.returnId],
    ['bank_transfer_id', (r) => r.bankTransferId],
    ['intent_id', (r) => r.intentId],
    ['status', (r) => r.status],
    ...money<OpsSenderReturn>('amount', (r) => r.amount),
    ['currency', (r) => r.currency],
    ['sender_name', (r) => r.senderName],
    ['sender_iban', (r) => r.senderIban],
    ['reason', (r) => r.reason],
    ['requested_by', (r) => r.requestedBy],
    ['created_at', (r) => r.createdAt],
    ['approved_at', (r) => r.approvedAt],
    ['sent_at', (r) => r.sentAt],
    ['sent_bank_tx_id', (r) => r.sentBankTxId],
    ['rejected_at', (r) => r.rejectedAt],
    ['rejected_reason', (r) => r.rejectedReason],
  ]),
  events: table<OpsEvent>('events', [
    ['event_id', (e) => e.eventId],
    ['site_id', (e) => e.siteId],
    ['type', (e) => e.type],
    ['status', (e) => e.status],
    ['external_user_id', (e) => e.user?.externalUserId],
    ['external_user_label', (e) => e.user?.externalUserLabel],
    ['created_at', (e) => e.createdAt],
    ['attempt_count', (e) => e.attemptCount],
    ['last_attempt_at', (e) => e.lastAttemptAt],
    ['next_attempt_at', (e) => e.nextAttemptAt],
    ['delivered_at', (e) => e.deliveredAt],
    ['dead_at', (e) => e.deadAt],
    // The webhook body as the partner receives it: one JSON text per cell.
    ['payload', (e) => JSON.stringify(e.payload)],
  ]),
  audit: table<AuditEntry>('audit', [
    ['audit_id', (a) => a.auditId],
    ['created_at', (a) => a.createdAt],
    ['actor_type', (a) => a.actor.type],
    ['actor_id', (a) => a.actor.id],
    ['actor_email', (a) => a.actor.email],
    ['action', (a) => a.action],
    ['entity_type', (a) => a.entityType],
    ['entity_id', (a) => a.entityId],
    ['site_id', (a) => a.siteId],
    ['metadata', (a) => (a.metadata === null || a.metadata === undefined ? null : JSON.stringify(a.metadata))],
  ]),
};

/** An ops list that exports CSV, by the name its cursors are bound to. */
export type OpsCsvList = keyof typeof OPS_CSV_TABLES;

/** True for a list that has a CSV table. */
export const isCsvList = (name: string): name is OpsCsvList => Object.hasOwn(OPS_CSV_TABLES, name);

/** The header row of a list's file. */
export function csvHeaderOf(name: OpsCsvList): string[] {
  return OPS_CSV_TABLES[name].columns.map(([header]) => header);
}

/** One page of a list as its JSON route reads it, from a cursor (none: the first page) and a page size. */
export type ReadListPage<Item> = (window: { limit: string; cursor?: string }) => Promise<ListResponse<Item>>;

/** Every page of a list from `first` on, {@link CSV_PAGE_ROWS} items at a time, following its own `nextCursor` until the end. */
async function* everyPage<Item>(readPage: ReadListPage<Item>, first: ListResponse<Item>): AsyncGenerator<Item[]> {
  let page = first;
  for (;;) {
    yield page.data;
    if (!page.nextCursor) return;
    page = await readPage({ limit: String(CSV_PAGE_ROWS), cursor: page.nextCursor });
  }
}

/**
 * Answers an ops list as a CSV file (`Accept: text/csv`): every item the JSON list's filters select, page after
 * page through the list's own keyset cursor, streamed (src/shared/csv.ts). The route has parsed the filters
 * already, so a bad one was a 400 before any byte of CSV. The first page is read before the status is sent too,
 * so a read that fails at once (past OPS_READ_TIMEOUT_MS: 503) is still an error answer; a later page that fails
 * cuts the file off (streamCsv).
 */
export async function sendOpsListCsv<Item>(res: Response, name: OpsCsvList, readPage: ReadListPage<Item>): Promise<void> {
  const { file, columns } = OPS_CSV_TABLES[name];
  // The cast: each table is written for the items its list's JSON answer holds (the same `toItem`, whose answers
  // test/contract checks against these response types), and `name` is the list `readPage` reads.
  const cells = (columns as ReadonlyArray<Column<unknown>>).map(([, cell]) => cell);
  const first = await readPage({ limit: String(CSV_PAGE_ROWS) });
  async function* records() {
    for await (const items of everyPage(readPage, first)) yield csvRecords(cells, items);
  }
  await streamCsv(res, { name: csvFilename(file, new Date()), header: columns.map(([header]) => header) }, records());
}

/**
 * A page's items as CSV records, the bytes `csvLine` writes for each item's cells, built as one text: no array of
 * cells per item nor string per record, whose garbage a 100,000-row export would otherwise collect.
 */
function csvRecords(cells: ReadonlyArray<(item: unknown) => CsvCell>, items: readonly unknown[]): string {
  let text = '';
  for (const item of items) {
    for (let i = 0; i < cells.length; i += 1) text += (i === 0 ? '' : ',') + csvCell((cells[i] as (item: unknown) => CsvCell)(item));
    text += '\r\n';
  }
  return text;
}
