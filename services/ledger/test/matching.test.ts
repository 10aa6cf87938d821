/**
 * The matching module's rules as a table: every reason it gives, the confidence they add up to, the near references
 * it finds (one character off, O/0 and I/1, spaces, case, Turkish letters) and never finds (a wrong check character
 * after correction), and the ranking that never puts a wrong deposit first.
 */
import { describe, expect, it } from '@jest/globals';
import { explainMatch, nearReferenceNos, rankSuggestions, type MatchCandidate, type MatchReason } from '../src/bank-transfers/matching.js';
import { generateReferenceNo, isValidReferenceNo, REFERENCE_ALPHABET } from '../src/site-records/reference-no.js';

const expiresAt = new Date('2026-01-31T12:30:00Z');
const deposit = (overrides: Partial<MatchCandidate> = {}): MatchCandidate => ({
  id: 'd-1',
  referenceNo: 'KD7MX4Q2RH',
  status: 'RESERVED',
  requestedAmount: 150000n,
  externalUserLabel: 'Ayşe Yılmaz',
  expiresAt,
  ...overrides,
});
const line = { amount: 150000n, senderName: 'AYSE YILMAZ', receivedAt: new Date('2026-01-31T12:00:00Z') };

describe('explainMatch', () => {
  const cases: Array<[string, Partial<typeof line>, Partial<MatchCandidate>, 'reference_exact' | 'reference_near', MatchReason[], number]> =
    [
      [
        'the exact reference, amount and sender',
        {},
        {},
        'reference_exact',
        ['reference_exact', 'amount_exact', 'sender_matches_user'],
        100,
      ],
      ['a near reference', {}, {}, 'reference_near', ['reference_near', 'amount_exact', 'sender_matches_user'], 75],
      ['less money', { amount: 100000n }, {}, 'reference_exact', ['reference_exact', 'amount_less', 'sender_matches_user'], 75],
      ['more money', { amount: 200000n }, {}, 'reference_exact', ['reference_exact', 'amount_more', 'sender_matches_user'], 75],
      ['another sender', { senderName: 'MEHMET DEMİR' }, {}, 'reference_exact', ['reference_exact', 'amount_exact', 'sender_differs'], 60],
      ['no label to compare', {}, { externalUserLabel: null }, 'reference_exact', ['reference_exact', 'amount_exact'], 85],
      [
        'money after the expiry',
        { receivedAt: new Date('2026-01-31T13:00:00Z') },
        {},
        'reference_exact',
        ['reference_exact', 'amount_exact', 'sender_matches_user', 'late'],
        85,
      ],
      [
        'a further transfer',
        { amount: 50000n },
        { status: 'PENDING_REVIEW' },
        'reference_exact',
        ['reference_exact', 'amount_less', 'sender_matches_user', 'split'],
        60,
      ],
      [
        'a further late transfer',
        {},
        { status: 'LATE_ARRIVAL' },
        'reference_near',
        ['reference_near', 'amount_exact', 'sender_matches_user', 'split'],
        60,
      ],
    ];

  it.each(cases)('explains %s', (_name, lineChange, depositChange, reference, reasons, confidence) => {
    expect(explainMatch({ ...line, ...lineChange }, deposit(depositChange), reference, 60_000)).toEqual({ reasons, confidence });
  });

  it('counts the clock skew allowance as on time', () => {
    const justAfter = { ...line, receivedAt: new Date(expiresAt.getTime() + 30_000) };
    expect(explainMatch(justAfter, deposit(), 'reference_exact', 60_000).reasons).not.toContain('late');
  });
});

/** `reference` with the character at `index` replaced by another of the alphabet. */
const changed = (reference: string, index: number) => {
  const other = REFERENCE_ALPHABET[(REFERENCE_ALPHABET.indexOf(reference[index] as string) + 1) % REFERENCE_ALPHABET.length] as string;
  return reference.slice(0, index) + other + reference.slice(index + 1);
};

describe('nearReferenceNos', () => {
  // A valid reference (check character right) with an M and an S in its body.
  const reference = 'KDSNM64PJW';
  const typos: Array<[string, string]> = [
    ['one character changed', `HAVALE ${changed(reference, 5)}`],
    ['one character dropped', `HAVALE ${reference.slice(0, 4)}${reference.slice(5)} teşekkürler`],
    ['one character added', `${reference.slice(0, 6)}3${reference.slice(6)}`],
    ['two neighbours swapped', `ref ${reference.slice(0, 3)}${reference[4]}${reference[3]}${reference.slice(5)}`],
    [
      'a zero typed for a letter, in lower case with spaces',
      reference
        .replace(/^(.{5})./, '$10')
        .toLowerCase()
        .replace(/(.{3})/g, '$1 '),
    ],
    ['a one typed for a letter', reference.replace('J', '1')],
  ];

  it.each(typos)('finds the reference with %s', (_name, text) => {
    expect(nearReferenceNos(text)).toContain(reference);
  });

  it('finds a reference typed with Turkish letters', () => {
    // ş folds to S: a reference with an S typed as ş is one fold away, no edit needed; ı (I) takes the one edit.
    expect(nearReferenceNos(`Yatırım ${reference.replace('S', 'ş')}`)).toContain(reference);
    const candidates = Array.from({ length: 2000 }, () => generateReferenceNo('deposit')).filter((ref) => /[SGUC]/.test(ref.slice(2)));
    for (const ref of candidates.slice(0, 20)) {
      const typed = ref.replace(/[SGUC]/, (c) => ({ S: 'ş', G: 'ğ', U: 'ü', C: 'ç' })[c] as string);
      expect(nearReferenceNos(`Yatırım ${typed}`)).toContain(ref);
    }
    expect(nearReferenceNos(`Yatırım ${reference.replace('M', 'ı')}`)).toContain(reference);
  });

  it('leaves exact references to the exact match, and finds nothing in text without a reference', () => {
    expect(nearReferenceNos(`HAVALE ${reference}`)).not.toContain(reference);
    expect(nearReferenceNos('Kira ödemesi Mart')).toEqual([]);
  });

  it('only gives references whose check character is right', () => {
    for (const found of nearReferenceNos(`HAVALE ${changed(reference, 4)}`)) expect(isValidReferenceNo(found)).toBe(true);
  });
});

describe('rankSuggestions', () => {
  it('puts the deposit the amount and sender agree with first, never a decided one', () => {
    const right = deposit({ id: 'right', referenceNo: 'KDZZZZZZZZ' });
    const wrong = deposit({ id: 'wrong', referenceNo: 'KDAAAAAAAA', requestedAmount: 990000n, externalUserLabel: 'Mehmet Demir' });
    const decided = deposit({ id: 'decided', referenceNo: 'KDBBBBBBBB', status: 'APPROVED' });
    const ranked = rankSuggestions(line, [wrong, decided, right], 60_000);
    expect(ranked.map((s) => s.intentId)).toEqual(['right', 'wrong']);
    expect(ranked[0]).toMatchObject({
      referenceNo: 'KDZZZZZZZZ',
      confidence: 75,
      reasons: ['reference_near', 'amount_exact', 'sender_matches_user'],
    });
  });
});
