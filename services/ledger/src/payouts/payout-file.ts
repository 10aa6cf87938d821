import type { PayoutBatchItem, ReceivingBankAccount } from '@kasa/db';
import type { PayoutBatchWithItems } from './payout-batch.repository.js';

/** What a payout file states: the batch, its items and the paying account (the debtor). */
export interface PayoutFileInput {
  batch: PayoutBatchWithItems;
  debtor: Pick<ReceivingBankAccount, 'holderName' | 'iban' | 'bankName'>;
  /** When the file was made (GrpHdr/CreDtTm) and the day the bank is asked to pay (ReqdExctnDt). */
  now: Date;
}

/** Minor units as the files write money: `150000` -> `1500.00`. */
export function decimalAmount(minor: bigint): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text for an element: escaped, control characters dropped, cut to the schema's length (Max140Text, Max35Text). */
function text(value: string, max: number): string {
  const printable = [...value].map((char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f ? ' ' : char)).join('');
  const clean = printable.trim().slice(0, max) || 'NOTPROVIDED';
  return clean.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? char);
}

/** The batch id as a message id: 32 hex characters, within Max35Text. */
const messageId = (batchId: string) => batchId.replaceAll('-', '');

function transaction(item: PayoutBatchItem): string {
  return [
    '      <CdtTrfTxInf>',
    `        <PmtId><EndToEndId>${text(item.reference, 35)}</EndToEndId></PmtId>`,
    `        <Amt><InstdAmt Ccy="${text(item.currency, 3)}">${decimalAmount(item.amount)}</InstdAmt></Amt>`,
    `        <Cdtr><Nm>${text(item.creditorName, 140)}</Nm></Cdtr>`,
    `        <CdtrAcct><Id><IBAN>${text(item.creditorIban, 34)}</IBAN></Id></CdtrAcct>`,
    `        <RmtInf><Ustrd>${text(item.reference, 140)}</Ustrd></RmtInf>`,
    '      </CdtTrfTxInf>',
  ].join('\n');
}

/**
 * The batch as an ISO 20022 customer credit transfer initiation (`pain.001.001.03`): one payment information block
 * debiting the paying account, one credit transfer per item whose `EndToEndId` (and remittance text) is the item's
 * reference, which the bank's statement carries back and confirms the payout by (bank-transfers/payout-statement.ts).
 */
export function pain001(input: PayoutFileInput): string {
  const { batch, debtor, now } = input;
  const id = messageId(batch.id);
  const count = batch.items.length;
  const sum = decimalAmount(batch.items.reduce((total, item) => total + item.amount, 0n));
  const created = `${now.toISOString().slice(0, 19)}Z`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    '  <CstmrCdtTrfInitn>',
    '    <GrpHdr>',
    `      <MsgId>${id}</MsgId>`,
    `      <CreDtTm>${created}</CreDtTm>`,
    `      <NbOfTxs>${count}</NbOfTxs>`,
    `      <CtrlSum>${sum}</CtrlSum>`,
    `      <InitgPty><Nm>${text(debtor.holderName, 140)}</Nm></InitgPty>`,
    '    </GrpHdr>',
    '    <PmtInf>',
    `      <PmtInfId>${id}</PmtInfId>`,
    '      <PmtMtd>TRF</PmtMtd>',
    '      <BtchBookg>false</BtchBookg>',
    `      <NbOfTxs>${count}</NbOfTxs>`,
    `      <CtrlSum>${sum}</CtrlSum>`,
    `      <ReqdExctnDt>${now.toISOString().slice(0, 10)}</ReqdExctnDt>`,
    `      <Dbtr><Nm>${text(debtor.holderName, 140)}</Nm></Dbtr>`,
    `      <DbtrAcct><Id><IBAN>${text(debtor.iban, 34)}</IBAN></Id><Ccy>${text(batch.currency, 3)}</Ccy></DbtrAcct>`,
    '      <DbtrAgt><FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId></DbtrAgt>',
    ...batch.items.map(transaction),
    '    </PmtInf>',
    '  </CstmrCdtTrfInitn>',
    '</Document>',
    '',
  ].join('\n');
}

/** The CSV's columns, in order (docs/operations.md, Payouts). */
export const PAYOUT_CSV_COLUMNS = [
  'reference',
  'amount',
  'currency',
  'creditor_iban',
  'creditor_name',
  'debtor_iban',
  'kind',
  'item_id',
] as const;

function csvField(value: string): string {
  // A leading formula character is defused so a spreadsheet never runs a name as a formula.
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The batch as CSV for a bank without pain.001: a header row, then one row per item (amounts as `1500.00`). */
export function payoutCsv(input: PayoutFileInput): string {
  const rows = input.batch.items.map((item) =>
    [
      item.reference,
      decimalAmount(item.amount),
      item.currency,
      item.creditorIban,
      item.creditorName,
      input.debtor.iban,
      item.withdrawalId ? 'withdrawal' : 'sender_return',
      item.withdrawalId ?? item.senderReturnId ?? '',
    ]
      .map(csvField)
      .join(','),
  );
  return `${[PAYOUT_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
