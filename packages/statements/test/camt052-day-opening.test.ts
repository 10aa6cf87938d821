/**
 * A camt.052 report with booked lines is read only when it opens at the opening of their day (`OPBD`, or a `PRCD` of an
 * earlier day), so that it holds every line of the day so far and numbers them as the day's other reports and its
 * camt.053 do. Built from the two real reports (test/samples/camt052-*-hbci4java.xml) by replacing their balances;
 * camt.053 is read as before.
 */
import { describe, expect, it } from '@jest/globals';
import { balanceProblem, parseStatements } from '../src/index.js';
import { sample, statementError } from './samples.js';

/** v08: OPBD 100.00 dated 2023-11-08, one booked debit of 34.00 on 2023-11-10, CLBD 66.00. */
const v08 = sample('camt052-v08-hbci4java.xml');
/** v02: PRCD 100.00 dated 2018-07-19, two booked credits on 2018-07-20, CLBD 110.50. */
const v02 = sample('camt052-v02-hbci4java.xml');
const PRCD_DATE = /(<Cd>PRCD<\/Cd>[\s\S]*?<Dt>\s*)<Dt>2018-07-19<\/Dt>(\s*<\/Dt>)/;

const read = (body: string) => parseStatements(body, 'application/xml').statements;
const prcdDated = (date: string) => v02.replace(PRCD_DATE, `$1<Dt>${date}</Dt>$2`);

/** A camt.052 report as the camt.053 statement it would be: the same elements under `BkToCstmrStmt/Stmt`. */
const asCamt053 = (report: string) =>
  report.replaceAll('camt.052.001', 'camt.053.001').replaceAll('BkToCstmrAcctRpt>', 'BkToCstmrStmt>').replaceAll('Rpt>', 'Stmt>');

/** A camt.053 statement as the camt.052 report it would be. */
const asCamt052 = (statement: string) =>
  statement.replaceAll('camt.053.001', 'camt.052.001').replaceAll('BkToCstmrStmt>', 'BkToCstmrAcctRpt>').replaceAll('Stmt>', 'Rpt>');

describe("a camt.052 report opening at the day's opening", () => {
  it('reads one opening at OPBD, and refuses it opening at an interim ITBD, naming the balance and what to import', () => {
    expect(read(v08)[0]?.lines).toHaveLength(1);

    const interim = v08.replace('<Cd>OPBD</Cd>', '<Cd>ITBD</Cd>');
    // Its lines still add up: only its opening tells that it may start after lines an earlier report carried.
    expect(balanceProblem(read(asCamt053(interim))[0]!)).toBeNull();
    expect(statementError(() => read(interim))).toMatchObject({
      location: 'Rpt[1]/Bal[1]',
      reason:
        'opens at ITBD 2023-11-08, not at the opening of 2023-11-10, the first day its entries are booked on: a report that ' +
        "starts after the day's opening carries only the lines since an earlier report, which could not be told from lines " +
        "already imported; import a report that opens at the day's opening balance (OPBD), or the day's camt.053",
    });
  });

  it('reads one opening at PRCD of the day before its entries, and refuses it dated on or after their day', () => {
    expect(read(v02)[0]?.lines).toHaveLength(2);
    for (const date of ['2018-07-20', '2018-07-21']) {
      expect(statementError(() => read(prcdDated(date)))).toMatchObject({
        location: 'Rpt[1]/Bal[1]',
        reason: expect.stringMatching(new RegExp(`^opens at PRCD ${date}, not at the opening of 2018-07-20, the first day`)),
      });
    }
  });

  it('refuses one at OPBD whose period starts after the first moment of its first day, and reads one from midnight', () => {
    const from = (at: string) =>
      v08.replace(/(<Rpt>[\s\S]*?<\/CreDtTm>)/, `$1<FrToDt><FrDtTm>${at}</FrDtTm><ToDtTm>2023-11-10T23:59:59+01:00</ToDtTm></FrToDt>`);
    expect(from('2023-11-10T10:15:00+01:00')).toContain('<FrDtTm>2023-11-10T10:15:00+01:00</FrDtTm>');
    expect(statementError(() => read(from('2023-11-10T10:15:00+01:00')))).toMatchObject({
      location: 'Rpt[1]/FrToDt/FrDtTm',
      reason: expect.stringMatching(/^covers from 2023-11-10T10:15:00\+01:00, after the opening of 2023-11-10, the first day its entries/),
    });
    expect(statementError(() => read(from('2023-11-10T00:00:01')))).toMatchObject({ location: 'Rpt[1]/FrToDt/FrDtTm' });
    for (const midnight of ['2023-11-10T00:00:00+01:00', '2023-11-10T00:00:00.000Z', '2023-11-10T00:00', '2023-11-09T18:00:00+01:00']) {
      expect(read(from(midnight))[0]?.lines).toHaveLength(1);
    }
  });

  it('refuses one opening at PRCD without a date', () => {
    const undated = v02.replace(/(<Cd>PRCD<\/Cd>[\s\S]*?)<Dt>\s*<Dt>2018-07-19<\/Dt>\s*<\/Dt>/, '$1');
    expect(statementError(() => read(undated))).toMatchObject({
      location: 'Rpt[1]/Bal[1]',
      reason: expect.stringMatching(/^opens at PRCD without a date, not at the opening of 2018-07-20/),
    });
  });

  it('takes the day of entries booked with a time as written, before any change of time zone', () => {
    const timed = (prcd: string) =>
      prcdDated(prcd).replaceAll(/<BookgDt>\s*<Dt>2018-07-20<\/Dt>/g, '<BookgDt><DtTm>2018-07-20T00:30:00+02:00</DtTm>');
    expect(read(timed('2018-07-19'))[0]?.lines).toHaveLength(2);
    expect(statementError(() => read(timed('2018-07-20'))).location).toBe('Rpt[1]/Bal[1]');
  });

  it('reads a report without booked lines whatever its opening, as it gives no line a key', () => {
    const interim = v08.replace('<Cd>OPBD</Cd>', '<Cd>ITBD</Cd>');
    const pending = interim.replace('<Cd>BOOK</Cd>', '<Cd>PDNG</Cd>');
    expect(statementError(() => read(interim)).location).toBe('Rpt[1]/Bal[1]');
    expect(read(pending)[0]?.lines).toEqual([]);
    const empty = interim.replace(/<Ntry>[\s\S]*<\/Ntry>/, '').replace('<Amt Ccy="EUR">66.00</Amt>', '<Amt Ccy="EUR">100.00</Amt>');
    expect(read(empty)[0]).toMatchObject({ openingBalance: 10_000n, closingBalance: 10_000n, lines: [] });
  });
});

describe('camt.053, read whatever its opening', () => {
  it('reads a statement opening at an interim ITBD, or at a PRCD of its own day, that camt.052 refuses', () => {
    const interim = sample('camt053-v13-interim-balances.xml');
    expect(read(interim)[0]?.lines).toHaveLength(1);
    expect(statementError(() => read(asCamt052(interim)))).toMatchObject({
      location: 'Rpt[1]/Bal[1]',
      reason: expect.stringMatching(/^opens at ITBD 2025-03-19, not at the opening of 2025-03-19/),
    });

    const sameDay = prcdDated('2018-07-20');
    expect(read(asCamt053(sameDay))[0]).toMatchObject({ openingBalance: 10_000n, closingBalance: 11_050n });
    expect(statementError(() => read(sameDay)).location).toBe('Rpt[1]/Bal[1]');
  });
});
