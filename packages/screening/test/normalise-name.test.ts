import { describe, expect, it } from '@jest/globals';
import { normaliseName } from '../src/index.js';

const tokens = (name: string) => normaliseName(name).tokens;

describe('normaliseName', () => {
  it('reads the four Turkish i letters as one i, by table, whatever the upper or lower case', () => {
    expect(tokens('İSMAİL IŞIK')).toEqual(['ismail', 'isik']);
    expect(tokens('ismail ışık')).toEqual(['ismail', 'isik']);
    expect(tokens('ISMAIL ISIK')).toEqual(['ismail', 'isik']);
    // String#toLowerCase would leave a combining dot after the i of İ: two characters, and a different word.
    expect(tokens('İ')).toEqual(['i']);
    expect(tokens('İ')[0]).toHaveLength(1);
  });

  it('folds Ş, Ğ, Ç, Ö and Ü, upper and lower case, to their ASCII letters', () => {
    expect(tokens('Şükrü ÇAĞLAYAN Öğüt ÜNAL ğöçşü')).toEqual(['sukru', 'caglayan', 'ogut', 'unal', 'gocsu']);
  });

  it('folds other Latin diacritics through NFKD and spells out the letters NFKD leaves whole', () => {
    expect(tokens('José Müller-Lüdenscheidt')).toEqual(['jose', 'muller', 'ludenscheidt']);
    expect(tokens('Øster Łódź Straße Æbeltoft')).toEqual(['oster', 'lodz', 'strasse', 'aebeltoft']);
    expect(tokens('ﬁnn')).toEqual(['finn']);
  });

  it('joins apostrophes, splits on other punctuation and drops titles, Turkish ones included', () => {
    expect(tokens("'ABD AL-MALIK")).toEqual(['abd', 'al', 'malik']);
    expect(tokens("Abu al-Darda'")).toEqual(['abu', 'al', 'darda']);
    expect(tokens('Sn. Av. Ayşe KAYA, Dr.')).toEqual(['ayse', 'kaya']);
    expect(tokens('Prof. Dr. Mehmet (Memo) Öz / Bay')).toEqual(['mehmet', 'memo', 'oz']);
  });

  it('keeps initials as one-letter tokens', () => {
    expect(tokens('M. A. Yılmaz')).toEqual(['m', 'a', 'yilmaz']);
    expect(tokens('M.A.YILMAZ')).toEqual(['m', 'a', 'yilmaz']);
  });

  it('gives the same order-free form for any word order and spelling of the Turkish letters', () => {
    const a = normaliseName('Yılmaz Ayşe');
    const b = normaliseName('AYSE YILMAZ');
    expect(a.text).toBe('yilmaz ayse');
    expect(b.text).toBe('ayse yilmaz');
    expect(a.orderFree).toBe(b.orderFree);
    expect(normaliseName('Ayşe Kaya').orderFree).not.toBe(b.orderFree);
  });

  it('keeps letters of other scripts and drops their vowel marks', () => {
    expect(tokens('عبدالخالق الحوثي')).toEqual(['عبدالخالق', 'الحوثي']);
    expect(tokens('مُحَمَّد')).toEqual(['محمد']);
  });

  it('leaves nothing of a name without letters or digits', () => {
    expect(normaliseName(' .,-/ ')).toEqual({ tokens: [], text: '', orderFree: '' });
    expect(tokens('Dr.')).toEqual([]);
  });
});
