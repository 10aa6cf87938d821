/** A camt.053 statement's balances: which one opens it, which one closes it, and what each amounts to. */
import { direction, readAmount } from './camt053-fields.js';
import { StatementError } from './statement.js';
import { all, textAt, type XmlElement } from './xml-tree.js';

export interface Balance {
  bal: XmlElement;
  where: string;
  /** `Tp/CdOrPrtry/Cd`, else the same code written as `Tp/CdOrPrtry/Prtry` (some banks do). */
  code: string | undefined;
}

/**
 * The opening balance is `OPBD` (opening booked), else `PRCD` (the previous statement's closing); the closing one is
 * `CLBD`. A statement that has neither form of one of them but interim booked balances (`ITBD`) is opened by the first
 * and closed by the last. Available and forward balances (`OPAV`, `CLAV`, `FWAV`, ...) count holds and future entries,
 * so they never stand in: booked lines would not add up to them.
 */
export function statementBalances(stmt: XmlElement, where: string): { opening: Balance; closing: Balance } {
  const balances: Balance[] = all(stmt, 'Bal').map((bal, index) => ({
    bal,
    where: `${where}/Bal[${index + 1}]`,
    code: (textAt(bal, 'Tp/CdOrPrtry/Cd') ?? textAt(bal, 'Tp/CdOrPrtry/Prtry'))?.toUpperCase(),
  }));
  const first = (code: string) => balances.find((b) => b.code === code);
  const interim = balances.filter((b) => b.code === 'ITBD');
  const opening = first('OPBD') ?? first('PRCD') ?? interim[0];
  const closing = first('CLBD') ?? interim.filter((b) => b !== opening).at(-1);
  const seen = balances.map((b) => b.code ?? '(no code)').join(', ') || 'none';
  if (!opening)
    throw new StatementError(`has no opening balance (a Bal of type OPBD, PRCD or ITBD); its balances: ${seen}`, `${where}/Bal`);
  if (!closing)
    throw new StatementError(`has no closing balance (a Bal of type CLBD or a second ITBD); its balances: ${seen}`, `${where}/Bal`);
  return { opening, closing };
}

/**
 * A balance in signed minor units (`DBIT` is negative). A balance without `CdtDbtInd` is read as in credit: one bank's
 * 001.08 statements omit it on every balance, none of them overdrawn; a wrong sign would then show in
 * `balanceProblem`, as the lines would not lead from one balance to the other.
 */
export function readBalance(balance: Balance, currency: string): bigint {
  const amount = readAmount(balance.bal, balance.where);
  if (amount.currency !== currency)
    throw new StatementError(`balance is in ${amount.currency}, the account in ${currency}`, `${balance.where}/Amt`);
  if (textAt(balance.bal, 'CdtDbtInd') === undefined) return amount.minor;
  return direction(balance.bal, balance.where) === 'credit' ? amount.minor : -amount.minor;
}

/**
 * The one day a statement covers, as written (`2024-03-07`), with where it was read: its period (`FrToDt`) when that
 * starts and ends on one day, else its opening and closing balances' date when both have the same one (not a `PRCD`,
 * which is dated the day before). Undefined when the statement does not say, or spans several days.
 */
export function statementDay(
  stmt: XmlElement,
  where: string,
  opening: Balance,
  closing: Balance,
): { day: string; where: string } | undefined {
  const from = textAt(stmt, 'FrToDt/FrDtTm') ?? textAt(stmt, 'FrToDt/FrDt');
  const to = textAt(stmt, 'FrToDt/ToDtTm') ?? textAt(stmt, 'FrToDt/ToDt');
  if (from !== undefined || to !== undefined) {
    return from?.slice(0, 10) === to?.slice(0, 10) && from !== undefined ? { day: from.slice(0, 10), where: `${where}/FrToDt` } : undefined;
  }
  const day = dayOf(closing);
  if (opening.code === 'PRCD' || day === undefined || dayOf(opening) !== day) return undefined;
  return { day, where: `${closing.where}/Dt` };
}

/** The day a balance is dated, as written (`2024-03-07`); undefined when it gives none. */
function dayOf(balance: Balance): string | undefined {
  return (textAt(balance.bal, 'Dt/Dt') ?? textAt(balance.bal, 'Dt/DtTm'))?.slice(0, 10);
}

/** Why a report that starts after its first day's opening is refused, and what to import instead. */
const SINCE_AN_EARLIER_REPORT =
  "a report that starts after the day's opening carries only the lines since an earlier report, which could not be " +
  "told from lines already imported; import a report that opens at the day's opening balance (OPBD), or the day's camt.053";

/**
 * Refuses a statement with booked entries (`booked`) that does not open at the opening of the day they are booked on:
 * camt.052's check (`CamtMessage.fromDayOpening`, camt053.parser.ts). The ledger numbers the lines sharing reference,
 * direction, amount and day within one file, so two files give a line the same key only when both hold every line of
 * the day from its opening. `OPBD` opens there, and so does a `PRCD` dated before the first booking day (the previous
 * day's close); an interim `ITBD` or a `PRCD` of that day (an earlier report's close) opens after lines another report
 * carried, and the balance check would still pass on the lines since. A report whose period (`FrToDt/FrDtTm`) starts
 * after the first moment of that day is refused too, even at `OPBD`: a bank may open each report of the lines since
 * the last at an `OPBD` of that moment.
 */
export function checkOpensDay(stmt: XmlElement, where: string, opening: Balance, booked: readonly XmlElement[]): void {
  const bookingDays = booked.flatMap((ntry) => (textAt(ntry, 'BookgDt/Dt') ?? textAt(ntry, 'BookgDt/DtTm'))?.slice(0, 10) ?? []);
  const first = bookingDays.sort()[0];
  const dated = dayOf(opening);
  if (booked.length === 0) return;
  // `OPBD` opens the report's period, which a report may also say (`FrToDt/FrDtTm`): one starting later on the day of
  // its first line than that day's first moment is a report of the lines since an earlier one, whatever it calls its
  // opening balance.
  const from = textAt(stmt, 'FrToDt/FrDtTm');
  if (from !== undefined && first !== undefined && from.slice(0, 10) === first && !/^T00:00(:00(\.0+)?)?(?![\d:.])/.test(from.slice(10))) {
    throw new StatementError(
      `covers from ${from}, after the opening of ${first}, the first day its entries are booked on: ${SINCE_AN_EARLIER_REPORT}`,
      `${where}/FrToDt/FrDtTm`,
    );
  }
  if (opening.code === 'OPBD') return;
  if (opening.code === 'PRCD' && dated !== undefined && first !== undefined && dated < first) return;
  const day =
    first === undefined ? 'the day its entries are booked on (they give no BookgDt)' : `${first}, the first day its entries are booked on`;
  throw new StatementError(
    `opens at ${opening.code ?? 'a balance'} ${dated ?? 'without a date'}, not at the opening of ${day}: ${SINCE_AN_EARLIER_REPORT}`,
    opening.where,
  );
}
