import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { NATIONAL_LIST_COLUMNS, parseNationalListCsv, ScreeningListError } from '../src/index.js';
import { listError, sample } from './samples.js';

const csv = sample('national-list.csv');
const HEADER = NATIONAL_LIST_COLUMNS.join(',');

describe('the national list CSV', () => {
  const { version, entries } = parseNationalListCsv(csv, { source: 'tr-masak', generated: '2024-03-01' });

  it('reads every row after the header, with the caller’s source and date', () => {
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(version).toEqual({ source: 'tr-masak', generated: '2024-03-01', entries: 6 });
    expect(entries.map((entry) => entry.id)).toEqual([
      'TR-6415-0001',
      'TR-6415-0002',
      'TR-6415-0003',
      'TR-7262-0001',
      'TR-7262-0002',
      'TR-7262-0003',
    ]);
  });

  it('splits aliases, birth dates and nationalities on ";" and reads DD.MM.YYYY as a date', () => {
    expect(entries[1]).toEqual({
      source: 'tr-masak',
      id: 'TR-6415-0002',
      kind: 'individual',
      names: [
        { text: 'İsmail Irmakoğlu', quality: 'primary' },
        { text: 'Ismail Irmakoglu', quality: 'aka' },
        { text: 'Ebu Irmak', quality: 'aka' },
      ],
      reference: 'TR-6415-0002',
      program: '6415',
      listedOn: '2020-11-12',
      birthDates: ['1969'],
      nationalities: ['Türkiye', 'Suriye'],
    });
    expect(entries[3]).toMatchObject({ birthDates: ['1985-09'], names: [{ text: 'Gülşen Ağaoğlu', quality: 'primary' }] });
  });

  it('reads quoted fields holding a comma or a line break, and empty optional fields', () => {
    expect(entries[2]).toMatchObject({
      kind: 'entity',
      names: [{ text: 'Gümüşsuyu Dış Ticaret, Ltd. Şti.' }, { text: 'Gumussuyu Trading' }],
      birthDates: [],
      nationalities: [],
    });
    expect(entries[4]?.names.map((name) => name.text)).toEqual(['Yeşilırmak Lojistik A.Ş.', 'Yesilirmak Logistics', 'YLAS']);
  });

  it('reads the same file without its BOM, and columns in another order, alike', () => {
    expect(parseNationalListCsv(csv.slice(1)).entries).toEqual(parseNationalListCsv(csv).entries);
    const swapped = 'name,id,kind,aliases,program,listed_on,birth_date,nationality\nAyşe Kaya,X1,Individual,,,,,\n';
    expect(parseNationalListCsv(swapped).entries[0]).toMatchObject({ id: 'X1', kind: 'individual', names: [{ text: 'Ayşe Kaya' }] });
    expect(parseNationalListCsv(swapped).version).toEqual({ source: 'national-list', generated: null, entries: 1 });
  });
});

describe('a national list CSV that cannot be read', () => {
  const row = (fields: string) => `${HEADER}\nA1,individual,Ayşe Kaya,,,,,\n${fields}\n`;
  const refusal = (text: string) => {
    const error = listError(() => parseNationalListCsv(text));
    return { location: error.location, reason: error.reason };
  };

  it('refuses a file without a header, or a header missing, repeating or adding a column', () => {
    expect(refusal('')).toMatchObject({ location: 'line 1', reason: expect.stringMatching(/^is empty/) });
    expect(refusal('id,kind,name\nA1,individual,Ayşe\n')).toEqual({
      location: 'line 1',
      reason: 'header: missing column(s) aliases, program, listed_on, birth_date, nationality',
    });
    expect(refusal(`${HEADER},id\n`)).toEqual({ location: 'line 1', reason: 'header: column id appears twice' });
    expect(refusal(`A1,individual,Ayşe Kaya,,,,,\n`).reason).toMatch(/^header: unknown column "A1"/);
  });

  it('names the line of a row with another number of fields, an empty or repeated id, a bad kind or an empty name', () => {
    expect(refusal(row('A2,individual,Ali'))).toEqual({ location: 'line 3', reason: 'row has 3 fields, the header 8' });
    expect(refusal(row(',individual,Ali Kaya,,,,,'))).toEqual({ location: 'line 3', reason: 'id is empty' });
    expect(refusal(row('A1,individual,Ali Kaya,,,,,'))).toEqual({ location: 'line 3', reason: 'id "A1" is used again (first at line 2)' });
    expect(refusal(row('A2,person,Ali Kaya,,,,,'))).toEqual({ location: 'line 3', reason: 'kind "person" is not individual or entity' });
    expect(refusal(row('A2,entity, ,,,,,'))).toEqual({ location: 'line 3', reason: 'name is empty' });
  });

  it('names the line of a date that is not one', () => {
    expect(refusal(row('A2,individual,Ali Kaya,,,2023-02-30,,'))).toEqual({
      location: 'line 3',
      reason: 'listed_on "2023-02-30" is not a date (YYYY-MM-DD or DD.MM.YYYY)',
    });
    expect(refusal(row('A2,individual,Ali Kaya,,,1985,,')).reason).toMatch(/^listed_on "1985" is not a date/);
    expect(refusal(row('A2,individual,Ali Kaya,,,,1990-13,')).reason).toMatch(/^birth_date "1990-13" is not a date/);
    expect(refusal(row('A2,individual,Ali Kaya,,,,31.04.1990,')).reason).toMatch(/^birth_date "31.04.1990" is not a date/);
  });

  it('refuses a quote left open, at a line', () => {
    expect(refusal(row('A2,individual,"Ali Kaya,,,,,')).reason).toMatch(/^not RFC 4180 CSV/);
  });

  it('answers any corrupted copy of the sample with entries or a ScreeningListError, never another exception', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.nat({ max: csv.length }), fc.nat({ max: 8 }), fc.string({ maxLength: 6 }), (from, length, junk) => {
        try {
          const { entries } = parseNationalListCsv(csv.slice(0, from) + junk + csv.slice(from + length));
          read += 1;
          for (const entry of entries) expect(entry.names[0]?.text).not.toBe('');
        } catch (error) {
          expect(error).toBeInstanceOf(ScreeningListError);
        }
      }),
      { numRuns: 300, seed: 7262 },
    );
    expect(read).toBeGreaterThan(0);
  });
});
