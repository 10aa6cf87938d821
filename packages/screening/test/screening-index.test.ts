import { describe, expect, it } from '@jest/globals';
import { DEFAULT_THRESHOLD, parseNationalListCsv, parseUnConsolidatedXml, ScreeningIndex, type ListEntry } from '../src/index.js';
import { sample } from './samples.js';

const un = parseUnConsolidatedXml(sample('un-consolidated-2020-03-20.xml')).entries;
const national = parseNationalListCsv(sample('national-list.csv'), { source: 'tr-masak' }).entries;
const index = new ScreeningIndex([...un, ...national]);

/** The best hit's entry id, name and score, or null when nothing reaches the threshold. */
function best(name: string, threshold?: number) {
  const [hit] = index.screen(name, threshold === undefined ? {} : { threshold });
  return hit ? { id: hit.entry.id, name: hit.name.text, quality: hit.name.quality, score: hit.score } : null;
}

/** Common Turkish given names and surnames, in common pairings: people no list here names. */
const COMMON_TURKISH_NAMES = [
  'Ayşe Yılmaz',
  'Mehmet Demir',
  'Fatma Kaya',
  'Mustafa Çelik',
  'Emine Şahin',
  'Ahmet Öztürk',
  'Hatice Yıldırım',
  'Ali Aydın',
  'Zeynep Arslan',
  'Hüseyin Doğan',
  'Hasan Kılıç',
  'İbrahim Aslan',
  'Murat Çetin',
  'Elif Kara',
  'Ömer Koç',
  'Ramazan Kurt',
  'Osman Özkan',
  'Yusuf Şimşek',
  'Merve Polat',
  'Halil Erdoğan',
  'Abdullah Korkmaz',
  'Mahmut Özdemir',
  'Songül Aktaş',
  'Burak Kaplan',
  'Gülşen Kaya',
  'Mehmet Yılmaz',
  'Ahmet Yıldız',
  'Mehmet Ali Yıldırım',
  'Ayşe Nur Kaya',
  'Süleyman Aksoy',
];

describe('ScreeningIndex finds a listed name written differently', () => {
  it('indexes every name of every entry', () => {
    expect(index.size.entries).toBe(un.length + national.length);
    expect(index.size.names).toBeGreaterThan(index.size.entries);
  });

  it('in another word order', () => {
    expect(best('Khalil Iyad Salih Nazmi')).toEqual({ id: '6908576', name: 'IYAD NAZMI SALIH KHALIL', quality: 'primary', score: 1 });
    expect(best('Öztürkmen Şükrü Çağlayan')).toMatchObject({ id: 'TR-6415-0001', score: 1 });
  });

  it('with Turkish letters written as ASCII, and ASCII names written with Turkish letters', () => {
    expect(best('SUKRU CAGLAYAN OZTURKMEN')).toMatchObject({ id: 'TR-6415-0001', name: 'Şükrü Çağlayan Öztürkmen', score: 1 });
    expect(best('gulsen agaoglu')).toMatchObject({ id: 'TR-7262-0001', score: 1 });
    expect(best('İyad Nazmı Salih Khalil')).toMatchObject({ id: '6908576', score: 1 });
    expect(best('Hajjı Abd al-Nasır')).toMatchObject({ id: '6908757', score: 1 });
  });

  it('with one typo in every word', () => {
    const typos = best('Iyda Nazmy Salh Khalii');
    expect(typos).toMatchObject({ id: '6908576', name: 'IYAD NAZMI SALIH KHALIL' });
    expect(typos?.score).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(typos?.score).toBeLessThan(1);
    expect(best('Sükür Caglayn Öztrükmen')).toMatchObject({ id: 'TR-6415-0001' });
    expect(best('Gulsne Agaoglou')).toMatchObject({ id: 'TR-7262-0001' });
  });

  it('with initials for the given names, scored below the whole name', () => {
    const initial = best('G. Ağaoğlu');
    expect(initial).toMatchObject({ id: 'TR-7262-0001' });
    expect(initial?.score).toBeLessThan(1);
    expect(best('I. N. S. Khalil')).toMatchObject({ id: '6908576', name: 'IYAD NAZMI SALIH KHALIL' });
    expect(best('X. Ağaoğlu')).toBeNull();
  });

  it('by an alias, naming the alias and its grade; a weak (Low) alias scores lower', () => {
    expect(best('Eyad Nazmi Saleh Khalil')).toEqual({ id: '6908576', name: 'Eyad Nazmi Saleh Khalil', quality: 'good', score: 1 });
    expect(best('Iyad al-Tubasi')).toEqual({ id: '6908576', name: 'Iyad al-Tubasi', quality: 'low', score: 0.9 });
    expect(best('Ebu Irmak')).toMatchObject({ id: 'TR-6415-0002', name: 'Ebu Irmak', quality: 'aka' });
    expect(best('Yesilirmak Lojistik AS')).toMatchObject({ id: 'TR-7262-0002' });
  });

  it('an entity, with "and" written as "&"', () => {
    expect(best('Propaganda and Agitation Department')).toMatchObject({ id: '6908629' });
    expect(best('Propaganda & Agitation Department')).toMatchObject({ id: '6908629' });
  });

  it('penalising a missing or an extra word', () => {
    const whole = best('Iyad Nazmi Salih Khalil', 0.5)?.score ?? 0;
    const missing = best('Iyad Nazmi Khalil', 0.5)?.score ?? 0;
    const twoMissing = best('Iyad Khalil', 0.5)?.score ?? 0;
    const extra = best('Iyad Nazmi Salih Khalil Demir', 0.5)?.score ?? 0;
    expect(whole).toBe(1);
    expect(missing).toBeLessThan(whole);
    expect(missing).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
    expect(twoMissing).toBeLessThan(missing);
    expect(twoMissing).toBeLessThan(DEFAULT_THRESHOLD);
    expect(extra).toBeLessThan(whole);
    expect(extra).toBeGreaterThanOrEqual(DEFAULT_THRESHOLD);
  });
});

describe('ScreeningIndex does not flag unrelated names at the default threshold', () => {
  it('common Turkish names against the UN list and the national list (which holds Mehmet Yıldız and Gülşen Ağaoğlu)', () => {
    const flagged = COMMON_TURKISH_NAMES.map((name) => ({
      name,
      hits: index.screen(name).map((hit) => `${hit.name.text} ${hit.score}`),
    })).filter(({ hits }) => hits.length > 0);
    expect(flagged).toEqual([]);
    // Not just under the threshold: well under it (README.md gives this margin).
    const closest = Math.max(...COMMON_TURKISH_NAMES.map((name) => index.screen(name, { threshold: 0.3 })[0]?.score ?? 0));
    expect(closest).toBeLessThan(0.75);
    expect(best('Mehmet Yıldız')).toMatchObject({ id: 'TR-7262-0003', score: 1 }); // the listed one still is
  });

  it('every listed name of the UN list against an index of common Turkish names', () => {
    const customers: ListEntry[] = COMMON_TURKISH_NAMES.map((name, i) => ({
      source: 'customers',
      id: String(i),
      kind: 'individual',
      names: [{ text: name, quality: 'primary' }],
      reference: null,
      program: null,
      listedOn: null,
      birthDates: [],
      nationalities: [],
    }));
    const customerIndex = new ScreeningIndex(customers);
    const listedNames = un.flatMap((entry) => entry.names.filter((name) => name.quality !== 'low').map((name) => name.text));
    expect(listedNames.length).toBeGreaterThan(1_000);
    const flagged = listedNames.filter((name) => customerIndex.screen(name).length > 0);
    expect(flagged).toEqual([]);
    expect(customerIndex.screen('Ayse Yilmaz')).toHaveLength(1);
  });
});

describe('ScreeningIndex answers', () => {
  it('the same hits in the same order, best first, however often and from however many builds', () => {
    const again = new ScreeningIndex([...un, ...national]);
    for (const name of ['Iyad Khalil', 'Mohammed Ali', 'Abdul Rahman', 'Kim Chol']) {
      const first = index.screen(name, { threshold: 0.6, limit: 50 });
      expect(index.screen(name, { threshold: 0.6, limit: 50 })).toEqual(first);
      expect(again.screen(name, { threshold: 0.6, limit: 50 })).toEqual(first);
      const scores = first.map((hit) => hit.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
    }
    expect(index.screen('Kim Chol', { threshold: 0.6, limit: 2 })).toHaveLength(2);
  });

  it('the token pairs a score was made of', () => {
    const [hit] = index.screen('Iyda Khalil Nazmi Salih');
    expect(hit?.matches).toEqual(
      expect.arrayContaining([
        { query: 'khalil', listed: 'khalil', similarity: 1 },
        { query: 'iyda', listed: 'iyad', similarity: expect.any(Number) },
      ]),
    );
  });

  it('nothing for a name without letters, and refuses a threshold or limit out of range', () => {
    expect(index.screen(' - . ')).toEqual([]);
    expect(() => index.screen('Ali', { threshold: 0 })).toThrow(RangeError);
    expect(() => index.screen('Ali', { threshold: 1.5 })).toThrow(RangeError);
    expect(() => index.screen('Ali', { limit: 0 })).toThrow(RangeError);
  });
});
