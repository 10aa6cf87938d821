import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseUnConsolidatedXml, ScreeningListError, UN_SOURCE } from '../src/index.js';
import { listError, sample, sampleBytes } from './samples.js';

const FILE = 'un-consolidated-2020-03-20.xml';
const xml = sample(FILE);
const sources = JSON.parse(sample('sources.json')) as { samples: { file: string; sha256?: string; bytes?: number }[] };
/** Counted in the file itself, not in the parser's answer. */
const count = (pattern: RegExp) => (xml.match(pattern) ?? []).length;

describe('the real UN consolidated list of 2020-03-20', () => {
  const { version, entries } = parseUnConsolidatedXml(xml);
  const byId = (id: string) => entries.find((entry) => entry.id === id);

  it('is the file sources.json records, unedited', () => {
    const recorded = sources.samples.find((source) => source.file === FILE);
    expect(recorded?.sha256).toBe(createHash('sha256').update(sampleBytes(FILE)).digest('hex'));
    expect(recorded?.bytes).toBe(sampleBytes(FILE).length);
  });

  it('reads every INDIVIDUAL and ENTITY element, and the generation date of the root', () => {
    const individuals = count(/<INDIVIDUAL>/g);
    const entities = count(/<ENTITY>/g);
    expect(individuals).toBeGreaterThan(300);
    expect(entries.filter((entry) => entry.kind === 'individual')).toHaveLength(individuals);
    expect(entries.filter((entry) => entry.kind === 'entity')).toHaveLength(entities);
    expect(version).toEqual({
      source: UN_SOURCE,
      generated: /<CONSOLIDATED_LIST[^>]* dateGenerated="([^"]+)"/.exec(xml)?.[1],
      entries: individuals + entities,
    });
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(count(/<DATAID>/g));
  });

  it('gives every entry a primary name first, and among its names each NAME_ORIGINAL_SCRIPT written', () => {
    for (const entry of entries) {
      expect(entry.names[0]?.quality).toBe('primary');
      expect(entry.names[0]?.text).not.toBe('');
      expect(entry.source).toBe(UN_SOURCE);
    }
    // Read from the file with a pattern of its own: each entry's DATAID and its original-script name, where written.
    const written = [
      ...xml.matchAll(/<DATAID>(\d+)<\/DATAID>(?:(?!<DATAID>)[\s\S])*?<NAME_ORIGINAL_SCRIPT>([^<]*\S[^<]*)<\/NAME_ORIGINAL_SCRIPT>/g),
    ];
    expect(written.length).toBeGreaterThan(400);
    for (const [, id, text] of written) {
      const names = byId(id as string)?.names.map((name) => name.text.toUpperCase());
      expect(names).toContain((text as string).replace(/\s+/g, ' ').trim().toUpperCase());
    }
    const scripts = entries.flatMap((entry) => entry.names).filter((name) => name.quality === 'original-script');
    // One of them (DATAID 6908835) writes its Latin primary name again there: kept once, as the primary name.
    expect(scripts).toHaveLength(written.length - 1);
    expect(byId('6908835')?.names.filter((name) => name.text === 'JAMAAH ANSHARUT DAULAH')).toHaveLength(1);
  });

  it('reads an individual: names joined, reference, programme, listing date, birth date and nationality', () => {
    expect(byId('6908555')).toEqual({
      source: UN_SOURCE,
      id: '6908555',
      kind: 'individual',
      names: [{ text: 'RI WON HO', quality: 'primary' }],
      reference: 'KPi.033',
      program: 'DPRK',
      listedOn: '2016-11-30',
      birthDates: ['1964-07-17'],
      nationalities: ["Democratic People's Republic of Korea"],
    });
  });

  it('reads the original script and each alias with its grade, and a birth year', () => {
    const entry = byId('6908434');
    expect(entry?.names).toEqual([
      { text: 'ABD AL-KHALIQ AL-HOUTHI', quality: 'primary' },
      { text: 'عبدالخالق الحوثي', quality: 'original-script' },
      { text: 'Abd-al-Khaliq al-Huthi', quality: 'good' },
      { text: 'Abd-al-Khaliq Badr-al-Din al Huthi', quality: 'good' },
      { text: '‘Abd al-Khaliq Badr al-Din al-Huthi', quality: 'good' },
      { text: 'Abd al-Khaliq al-Huthi', quality: 'good' },
      { text: 'Abu-Yunus', quality: 'low' },
    ]);
    expect(entry?.birthDates).toEqual(['1984']);
    expect(entry?.reference).toBe('YEi.001');
  });

  it('reads a range of birth years, and two birth dates', () => {
    expect(byId('6908757')?.birthDates).toEqual(['1965/1969']);
    expect(byId('6908558')?.birthDates).toEqual(['1968-03-26', '1970-10-15']);
  });

  it('reads an entity by FIRST_NAME, with its a.k.a. names', () => {
    const entry = entries.find((candidate) => candidate.kind === 'entity' && candidate.names.some((name) => name.quality === 'aka'));
    expect(entry).toBeDefined();
    expect(entry?.birthDates).toEqual([]);
    expect(byId('110403')).toMatchObject({
      kind: 'entity',
      names: [{ text: '7TH OF TIR', quality: 'primary' }],
      program: 'Iran',
      reference: 'IRe.001',
    });
  });
});

describe('input that is not a UN consolidated list', () => {
  const list = (body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><CONSOLIDATED_LIST dateGenerated="2026-01-01T00:00:00Z"><INDIVIDUALS>${body}</INDIVIDUALS><ENTITIES/></CONSOLIDATED_LIST>`;

  it('refuses text that is not XML, at its line', () => {
    expect(listError(() => parseUnConsolidatedXml('id,name\n1,<x>\n')).reason).toMatch(/^malformed XML/);
    const truncated = xml.slice(0, 200_000);
    expect(listError(() => parseUnConsolidatedXml(truncated)).location).toMatch(/^line \d+$/);
  });

  it('refuses another root element (an OFAC SDN file), naming it', () => {
    const error = listError(() => parseUnConsolidatedXml('<?xml version="1.0"?><sdnList><sdnEntry/></sdnList>'));
    expect(error.reason).toBe('not a UN consolidated list: the root element is sdnList, not CONSOLIDATED_LIST');
  });

  it('refuses a DOCTYPE, so no entity can expand', () => {
    const bomb = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaa">]>\n<CONSOLIDATED_LIST/>';
    expect(listError(() => parseUnConsolidatedXml(bomb))).toMatchObject({ location: 'line 1' });
  });

  it('refuses an entry without DATAID or without a name, naming the entry', () => {
    expect(listError(() => parseUnConsolidatedXml(list('<INDIVIDUAL><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL>')))).toMatchObject({
      location: 'INDIVIDUAL 1',
      reason: 'has no DATAID',
    });
    const nameless =
      '<INDIVIDUAL><DATAID>1</DATAID><FIRST_NAME>A</FIRST_NAME></INDIVIDUAL><INDIVIDUAL><DATAID>7</DATAID><FIRST_NAME/></INDIVIDUAL>';
    expect(listError(() => parseUnConsolidatedXml(list(nameless)))).toMatchObject({ location: 'INDIVIDUAL 2 (DATAID 7)' });
  });

  it('reads an empty list as no entries, and one entry alone as a list of one', () => {
    expect(parseUnConsolidatedXml(list('')).entries).toEqual([]);
    const one = parseUnConsolidatedXml(
      list('<INDIVIDUAL><DATAID>0042</DATAID><FIRST_NAME> Ayşe </FIRST_NAME><SECOND_NAME>Kaya</SECOND_NAME></INDIVIDUAL>'),
    );
    expect(one.version.entries).toBe(1);
    expect(one.entries[0]).toMatchObject({ id: '0042', names: [{ text: 'Ayşe Kaya', quality: 'primary' }], listedOn: null, program: null });
  });

  it('reads every INDIVIDUALS and ENTITIES section, when a file has more than one', () => {
    const person = (id: string) => `<INDIVIDUAL><DATAID>${id}</DATAID><FIRST_NAME>A${id}</FIRST_NAME></INDIVIDUAL>`;
    const text = `<CONSOLIDATED_LIST><INDIVIDUALS>${person('1')}</INDIVIDUALS><INDIVIDUALS>${person('2')}${person('3')}</INDIVIDUALS><ENTITIES><ENTITY><DATAID>9</DATAID><FIRST_NAME>E</FIRST_NAME></ENTITY></ENTITIES></CONSOLIDATED_LIST>`;
    expect(parseUnConsolidatedXml(text).entries.map((entry) => `${entry.kind} ${entry.id}`)).toEqual([
      'individual 1',
      'individual 2',
      'individual 3',
      'entity 9',
    ]);
  });

  it('answers any cut or corrupted piece of the real list with entries or a ScreeningListError, never another exception', () => {
    // The first entries of the real file, closed so that the piece itself is a whole list; then a few characters of it
    // replaced by junk, most often inside a text (still a list) and sometimes across a tag (no longer XML).
    const cut = xml.indexOf('</INDIVIDUAL>', 20_000) + '</INDIVIDUAL>'.length;
    const piece = `${xml.slice(0, cut)}</INDIVIDUALS></CONSOLIDATED_LIST>`;
    const whole = parseUnConsolidatedXml(piece).entries.length;
    expect(whole).toBeGreaterThan(10);
    let read = 0;
    fc.assert(
      fc.property(fc.nat({ max: piece.length }), fc.nat({ max: 12 }), fc.string({ maxLength: 6 }), (from, length, junk) => {
        const body = piece.slice(0, from) + junk + piece.slice(from + length);
        try {
          const { entries } = parseUnConsolidatedXml(body);
          read += 1;
          for (const entry of entries) expect(entry.names.length).toBeGreaterThan(0);
          expect(entries.length).toBeLessThanOrEqual(whole);
        } catch (error) {
          expect(error).toBeInstanceOf(ScreeningListError);
        }
      }),
      { numRuns: 300, seed: 36 },
    );
    expect(read).toBeGreaterThan(0);
  });
});
