import { formatAmount } from './amount.js';
import { direction, firstGiven, NOT_PROVIDED, readAmount } from './camt053-fields.js';
import { hasTimeOfDay, parseIsoDate } from './dates.js';
import { normaliseIban } from './iban.js';
import { checkLine } from './limits.js';
import { StatementError, type StatementLine } from './statement.js';
import { all, at, ownText, textAt, type XmlElement } from './xml-tree.js';

/**
 * Entries not yet booked (PDNG, INFO, FUTR) are skipped, not reported: they do not move the booked balance the
 * statement is checked against, and the bank repeats them as BOOK in the statement where they are booked.
 */
const BOOKED = 'BOOK';

/**
 * The bankTxId of a line whose bank gave no reference of its own (no `AcctSvcrRef`, `NtryRef` or `TxId`): MT940's word
 * for the same. The ledger's line key tells such lines apart by direction, amount, booking day and occurrence, and a
 * fixed word gives the same line the same key in any statement that lists it (docs/statements.md, "Which lines are the
 * same line"). The payer's own references (`EndToEndId`, `InstrId`) are never used: the payer can write anything there.
 */
const NO_REFERENCE = 'NONREF';

/** The one day the statement covers, for entries that give no date of their own (camt053-balances.ts). */
export type StatementDay = { day: string; where: string } | undefined;

type Direction = StatementLine['direction'];

/** One booked Ntry as statement lines: one line, or one per TxDtls when the entry is a batch. */
export function readEntry(ntry: XmlElement, where: string, statementDay?: StatementDay): StatementLine[] {
  // 001.02 writes <Sts>BOOK</Sts>, 001.08 <Sts><Cd>BOOK</Cd></Sts> (or <Prtry>). An entry without a status is booked:
  // a statement reports booked entries (one bank's 001.08 files give none), and its balances check them.
  const status = textAt(ntry, 'Sts/Cd') ?? textAt(ntry, 'Sts/Prtry') ?? textAt(ntry, 'Sts') ?? BOOKED;
  if (status !== BOOKED) return [];

  const amount = readAmount(ntry, where);
  const entryDirection = direction(ntry, where);
  const booked = bookingDate(ntry, where, statementDay);
  const entry = {
    ntry,
    currency: amount.currency,
    bookedAt: parseIsoDate(booked.text, booked.where),
    timeKnown: hasTimeOfDay(booked.text),
    reversal: ['true', '1'].includes(textAt(ntry, 'RvslInd') ?? ''),
    ref: textAt(ntry, 'AcctSvcrRef') ?? textAt(ntry, 'NtryRef'),
  };
  const transactions = all(ntry, 'NtryDtls').flatMap((details, d) =>
    all(details, 'TxDtls').map((tx, t) => ({ tx, where: `${where}/NtryDtls[${d + 1}]/TxDtls[${t + 1}]` })),
  );

  // A batch whose transactions give no amounts (only a count) cannot be split: it is one line, as booked.
  if (transactions.length <= 1 || transactions.every(({ tx }) => transactionAmountPath(tx) === undefined)) {
    const single = transactions.length === 1 ? transactions[0] : undefined;
    // The entry's references, else its one transaction's (the bank's AcctSvcrRef, the interbank TxId), else NONREF.
    const bankTxId = entry.ref ?? firstGiven(single?.tx, 'Refs/AcctSvcrRef', 'Refs/TxId') ?? NO_REFERENCE;
    const charges = readCharges(single?.tx, single?.where ?? where) ?? readCharges(ntry, where);
    return [line(entry, single?.tx, { bankTxId, direction: entryDirection, amount: amount.minor, charges }, single?.where ?? where)];
  }

  // A batch: one booking for several payments. Each TxDtls becomes its own line, and together they must make the entry.
  let sum = 0n;
  const lines = transactions.map(({ tx, where: txWhere }, index) => {
    const path = transactionAmountPath(tx);
    if (path === undefined) throw new StatementError('has no Amt or AmtDtls/TxAmt/Amt, while others in its batch have one', txWhere);
    const txAmount = readAmount(tx, txWhere, path);
    if (txAmount.currency !== entry.currency) {
      throw new StatementError(`transaction is in ${txAmount.currency}, its entry in ${entry.currency}`, txWhere);
    }
    const txDirection = textAt(tx, 'CdtDbtInd') === undefined ? entryDirection : direction(tx, txWhere);
    sum += txDirection === entryDirection ? txAmount.minor : -txAmount.minor;
    const bankTxId =
      textAt(tx, 'Refs/AcctSvcrRef') ??
      (entry.ref === undefined ? undefined : `${entry.ref}/${index + 1}`) ??
      firstGiven(tx, 'Refs/TxId') ??
      NO_REFERENCE;
    return line(entry, tx, { bankTxId, direction: txDirection, amount: txAmount.minor, charges: readCharges(tx, txWhere) }, txWhere);
  });
  if (sum !== amount.minor) {
    const show = (minor: bigint) => formatAmount(minor, entry.currency);
    throw new StatementError(
      `its ${transactions.length} TxDtls add up to ${show(sum)} ${entry.currency}, the entry says ${show(amount.minor)}`,
      `${where}/Amt`,
    );
  }
  return lines;
}

/**
 * When the entry was booked: `BookgDt` (`DtTm` or `Dt`), else its value date (`ValDt`), as an MT940 line without an
 * entry date is read; else, in a statement of one day, that day (one bank's 001.08 files date only their balances).
 */
function bookingDate(ntry: XmlElement, where: string, statementDay: StatementDay): { text: string; where: string } {
  for (const element of ['BookgDt', 'ValDt']) {
    const text = textAt(ntry, `${element}/DtTm`) ?? textAt(ntry, `${element}/Dt`);
    if (text !== undefined) return { text, where: `${where}/${element}` };
  }
  if (statementDay) return { text: statementDay.day, where: statementDay.where };
  throw new StatementError(
    'a booked entry needs a date: BookgDt or ValDt (DtTm or Dt), or a statement of one day (its FrToDt, or its balances dated alike)',
    `${where}/BookgDt`,
  );
}

/** Where a transaction of a batch gives its amount: `Amt` (from 001.03 on), else `AmtDtls/TxAmt/Amt`; undefined when neither. */
function transactionAmountPath(tx: XmlElement): string | undefined {
  return ['Amt', 'AmtDtls/TxAmt/Amt'].find((path) => at(tx, path) !== undefined);
}

function line(
  entry: { ntry: XmlElement; currency: string; bookedAt: Date; timeKnown: boolean; reversal: boolean },
  tx: XmlElement | undefined,
  own: { bankTxId: string; direction: Direction; amount: bigint; charges: bigint | null },
  where: string,
): StatementLine {
  // The other side: who paid us on a credit, whom we paid on a debit. 001.08 wraps the party in Pty.
  const party = own.direction === 'credit' ? 'Dbtr' : 'Cdtr';
  const iban = textAt(tx, `RltdPties/${party}Acct/Id/IBAN`);
  const endToEndId = textAt(tx, 'Refs/EndToEndId');
  return checkLine(
    {
      bankTxId: own.bankTxId,
      direction: own.direction,
      amount: own.amount,
      currency: entry.currency,
      bookedAt: entry.bookedAt,
      timeKnown: entry.timeKnown,
      description: description(entry.ntry, tx),
      counterpartyName: textAt(tx, `RltdPties/${party}/Nm`) ?? textAt(tx, `RltdPties/${party}/Pty/Nm`) ?? null,
      counterpartyIban: iban === undefined ? null : (normaliseIban(iban) ?? iban),
      endToEndId: endToEndId === undefined || endToEndId === NOT_PROVIDED ? null : endToEndId,
      returnReason: returnReason(tx),
      purpose: purpose(tx),
      reversal: entry.reversal,
      charges: own.charges,
    },
    where,
  );
}

/** `RtrInf/Rsn/Cd` (ISO 20022 `AC04`, `MD07`, ...), else a bank's own code in `Rsn/Prtry` when it is a code (at most 8). */
function returnReason(tx: XmlElement | undefined): string | null {
  const proprietary = textAt(tx, 'RtrInf/Rsn/Prtry');
  return textAt(tx, 'RtrInf/Rsn/Cd') ?? (proprietary !== undefined && proprietary.length <= 8 ? proprietary : null);
}

/** `Purp/Cd` (ISO 20022 ExternalPurpose1Code, at most 4), else the bank's own `Purp/Prtry` (at most 35). */
function purpose(tx: XmlElement | undefined): string | null {
  const code = textAt(tx, 'Purp/Cd')?.trim();
  if (code) return code;
  const proprietary = textAt(tx, 'Purp/Prtry')?.trim();
  return proprietary || null;
}

/** Unstructured remittance lines joined; failing those the creditor reference, then the bank's own texts (a return's reason). */
function description(ntry: XmlElement, tx: XmlElement | undefined): string {
  const unstructured = all(at(tx, 'RmtInf'), 'Ustrd')
    .map((ustrd) => ownText(ustrd) ?? '')
    .filter((text) => text !== '' && text !== NOT_PROVIDED);
  if (unstructured.length > 0) return unstructured.join(' ');
  return (
    textAt(tx, 'RmtInf/Strd/CdtrRefInf/Ref') ??
    textAt(tx, 'AddtlTxInf') ??
    textAt(tx, 'RtrInf/AddtlInf') ??
    textAt(ntry, 'AddtlNtryInf') ??
    ''
  );
}

/**
 * Charges in either shape: 001.02 repeats `Chrgs/Amt`; 001.08 has one `Chrgs` with `Rcrd/Amt` records (and
 * optionally `TtlChrgsAndTaxAmt`). Reported only; whether they are inside the entry amount is the bank's ChrgInclInd.
 */
function readCharges(element: XmlElement | undefined, where: string): bigint | null {
  const blocks = all(element, 'Chrgs');
  if (blocks.length === 0) return null;
  let total = 0n;
  blocks.forEach((block, b) => {
    const blockWhere = `${where}/Chrgs[${b + 1}]`;
    const records = all(block, 'Rcrd');
    if (records.length > 0) records.forEach((record, r) => (total += readAmount(record, `${blockWhere}/Rcrd[${r + 1}]`).minor));
    else if (at(block, 'TtlChrgsAndTaxAmt')) total += readAmount(block, blockWhere, 'TtlChrgsAndTaxAmt').minor;
    else total += readAmount(block, blockWhere).minor;
  });
  return total;
}
