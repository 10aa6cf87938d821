import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { BANK_PROFILES, UNSOURCED_BANKS, applyBankProfile, bankProfileOf, parseStatements, type Statement } from '../src/index.js';
import { trGenericProfile } from '../src/profiles/index.js';

const profileSample = (file: string) => readFileSync(new URL(`./samples/profiles/${file}`, import.meta.url), 'utf8');
/** The one statement of a profile sample, and the receiving account it is of (its `:25:`). */
function readSample(file: string): { statement: Statement; iban: string } {
  const text = profileSample(file);
  const [statement] = parseStatements(text, '').statements;
  const iban = /^:25:(\S+)/m.exec(text)?.[1];
  if (!statement || !iban) throw new Error(`${file} holds no statement`);
  return { statement, iban };
}

describe.each([...BANK_PROFILES, trGenericProfile].map((profile) => [profile.id, profile] as const))('the %s profile', (_, profile) => {
  it.each(profile.samples.map((s) => [s.file, s] as const))('reads the senders of its sample %s', (__, { file, lines }) => {
    const { statement, iban } = readSample(file);
    const read = applyBankProfile(statement, iban);
    for (const expected of lines) {
      const line = read.lines.find((l) => l.bankTxId === expected.bankTxId);
      expect({ bankTxId: line?.bankTxId, counterpartyName: line?.counterpartyName, counterpartyIban: line?.counterpartyIban }).toEqual(
        expected,
      );
    }
    // Nothing but the senders changes, and a debit not even those.
    const withoutSender = (line: Statement['lines'][number]) => ({ ...line, counterpartyName: undefined, counterpartyIban: undefined });
    expect(read.lines.map(withoutSender)).toEqual(statement.lines.map(withoutSender));
    read.lines.forEach((line, i) => line.direction === 'debit' && expect(line).toEqual(statement.lines[i]));
  });
});

describe('bank profiles', () => {
  it('are picked by the IBAN bank code of the receiving account', () => {
    expect(bankProfileOf('TR62 0001 0012 3456 7890 1234 56')?.id).toBe('ziraat');
    expect(bankProfileOf('TR910006200019000006672315')).toBeNull();
    expect(bankProfileOf('DE89370400440532013000')).toBeNull();
  });

  it('each has a source to open, its own bank code and samples, and no unsourced bank has one', () => {
    const codes: string[] = BANK_PROFILES.map((p) => p.bankCode);
    expect(new Set(codes).size).toBe(codes.length);
    for (const profile of BANK_PROFILES) {
      expect(profile.source.url).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//);
      expect(profile.bankCode).toMatch(/^\d{5}$/);
      expect(profile.samples.length).toBeGreaterThan(0);
    }
    expect(UNSOURCED_BANKS.filter((bank) => codes.includes(bank.bankCode))).toEqual([]);
  });

  it("never overwrites what the bank's structured fields said", () => {
    const { statement, iban } = readSample('ziraat.sta');
    const given = {
      ...statement,
      lines: statement.lines.map((l) => ({ ...l, counterpartyName: 'AHMET KAYA', counterpartyIban: 'TR260001000201234567890123' })),
    };
    expect(applyBankProfile(given, iban)).toEqual(given);
  });

  it('reads the same text the same way in a camt.053 line (Ustrd)', () => {
    const { statement, iban } = readSample('ziraat.sta');
    const camt = {
      ...statement,
      lines: [{ ...statement.lines[0]!, description: 'Gönd: ALİ VELİ ÇAKIR 0064-T. IS BANKASI A.S. FAST işlemi' }],
    };
    expect(applyBankProfile(camt, iban).lines[0]?.counterpartyName).toBe('ALİ VELİ ÇAKIR');
  });

  it("drops an IBAN the parser took from the text when it is the account's own, and leaves a foreign account alone", () => {
    const { statement, iban } = readSample('tr-generic.sta');
    expect(statement.lines.map((l) => l.counterpartyIban)).toEqual([iban, iban]);
    expect(applyBankProfile(statement, iban).lines.map((l) => l.counterpartyIban)).toEqual(['TR260001000201234567890123', null]);
    expect(applyBankProfile(statement, 'DE89370400440532013000')).toBe(statement);
  });
});
