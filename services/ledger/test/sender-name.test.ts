import { describe, expect, it } from '@jest/globals';
import { nameWords, resemblesName, senderNameMismatch } from '../src/deposits/sender-name.js';

describe('sender name check', () => {
  it('folds Turkish case and accents', () => {
    expect(nameWords('AYŞE YILMAZ')).toEqual(['ayse', 'yilmaz']);
    expect(nameWords('İsmail Çağrı Öztürk')).toEqual(['ismail', 'cagri', 'ozturk']);
  });

  it.each([
    ['Ayşe Yılmaz', 'AYSE YILMAZ', true],
    ['Ayşe Yılmaz', 'Ayşe Yılmaz Kaya', true],
    ['Ayşe Yılmaz', 'A. YILMAZ', true],
    ['Ayşe Yılmaz', 'Ayse Yilmas', true],
    ['Ayşe Yılmaz', 'Mehmet Demir', false],
    ['Ayşe Yılmaz', 'Ayşe Demir', false],
    ['Ayşe Yılmaz', 'YILMAZ INSAAT LTD STI', false],
    ['Mehmet Ali Demir', 'MEHMET DEMIR', true],
    ['Cher', 'CHER', true],
  ])('%s vs %s: %s', (label, sender, expected) => {
    expect(resemblesName(label, sender)).toBe(expected);
  });

  it('returns the differing senders, or null when there is nothing to compare', () => {
    expect(senderNameMismatch('Ayşe Yılmaz', ['AYSE YILMAZ', 'Mehmet Demir', 'Mehmet Demir'])).toEqual(['Mehmet Demir']);
    expect(senderNameMismatch('Ayşe Yılmaz', ['AYSE YILMAZ'])).toEqual([]);
    expect(senderNameMismatch(null, ['Mehmet Demir'])).toBeNull();
    expect(senderNameMismatch('Ayşe Yılmaz', [])).toBeNull();
    expect(senderNameMismatch('12345', ['Mehmet Demir'])).toBeNull();
  });
});
