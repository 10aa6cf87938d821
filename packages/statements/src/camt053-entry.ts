import { formatAmount } from './amount.js';
import { direction, readAmount, required } from './camt053-fields.js';
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

type Direction = StatementLine['direction'];

/** One booked Ntry as statement lines: one line, or one per TxDtls when the entry is a batch. */
export function readEntry(ntry: XmlElement, where: string): StatementLine[] {
  // 001.02 writes <Sts>BOOK</Sts>, 001.08 <Sts><Cd>BOOK</Cd></Sts>.
  const status = textAt(ntry, 'Sts/Cd') ?? required(ntry, 'Sts', where);
  if (status !== BOOKED) return [];

  const amount = readAmount(ntry, where);
  const entryDirection = direction(ntry, where);
  const booked = textAt(ntry, 'BookgDt/DtTm') ?? textAt(ntry, 'BookgDt/Dt');
  if (booked === undefined) throw new StatementError('a booked entry needs BookgDt/DtTm or BookgDt/Dt', `${where}/BookgDt`);
  const entry = {
    ntry,
    currency: amount.currency,
    bookedAt: parseIsoDate(booked, `${where}/BookgDt`),
    timeKnown: hasTimeOfDay(booked),
    reversal: ['true', '1'].includes(textAt(ntry, 'RvslInd') ?? ''),
    ref: textAt(ntry, 'AcctSvcrRef') ?? textAt(ntry, 'NtryRef'),
  };
  const transactions = all(ntry, 'NtryDtls').flatMap((details, d) =>
    all(details, 'TxDtls').map((tx, t) => ({ tx, where: `${where}/NtryDtls[${d + 1}]/TxDtls[${t + 1}]` })),
  );

  if (transactions.length <= 1) {
    const single = transactions[0];
    const bankTxId = entry.ref ?? textAt(single?.tx, 'Refs/AcctSvcrRef');
    if (bankTxId === undefined) throw new StatementError('has neither AcctSvcrRef nor NtryRef to identify it', where);
    const charges = readCharges(single?.tx, single?.where ?? where) ?? readCharges(ntry, where);
    return [line(entry, single?.tx, { bankTxId, direction: entryDirection, amount: amount.minor, charges }, single?.where ?? where)];
  }

  // A batch: one booking for several payments. Each TxDtls becomes its own line, and together they must make the entry.
  let sum = 0n;
  const lines = transactions.map(({ tx, where: txWhere }, index) => {
    const txAmount = at(tx, 'Amt') ? readAmount(tx, txWhere) : readAmount(tx, txWhere, 'AmtDtls/TxAmt/Amt');
    if (txAmount.currency !== entry.currency) {
      throw new StatementError(`transaction is in ${txAmount.currency}, its entry in ${entry.currency}`, txWhere);
    }
    const txDirection = textAt(tx, 'CdtDbtInd') === undefined ? entryDirection : direction(tx, txWhere);
    sum += txDirection === entryDirection ? txAmount.minor : -txAmount.minor;
    const bankTxId = textAt(tx, 'Refs/AcctSvcrRef') ?? (entry.ref === undefined ? undefined : `${entry.ref}/${index + 1}`);
    if (bankTxId === undefined) throw new StatementError('has no Refs/AcctSvcrRef, nor its entry an AcctSvcrRef or NtryRef', txWhere);
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
      endToEndId: endToEndId === undefined || endToEndId === 'NOTPROVIDED' ? null : endToEndId,
      returnReason: textAt(tx, 'RtrInf/Rsn/Cd') ?? null,
      reversal: entry.reversal,
      charges: own.charges,
    },
    where,
  );
}

/** Unstructured remittance lines joined; failing those the creditor reference, then the bank's own texts. */
function description(ntry: XmlElement, tx: XmlElement | undefined): string {
  const unstructured = all(at(tx, 'RmtInf'), 'Ustrd')
    .map((ustrd) => ownText(ustrd) ?? '')
    .filter(Boolean);
  if (unstructured.length > 0) return unstructured.join(' ');
  return textAt(tx, 'RmtInf/Strd/CdtrRefInf/Ref') ?? textAt(tx, 'AddtlTxInf') ?? textAt(ntry, 'AddtlNtryInf') ?? '';
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
