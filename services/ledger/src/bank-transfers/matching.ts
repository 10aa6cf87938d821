import type { DepositStatus } from '@kasa/db';
import { MATCH_REASONS } from '@kasa/contracts';
import { REFERENCE_ALPHABET, findReferenceNos, isValidReferenceNo } from '../site-records/reference-no.js';
import { resemblesName } from '../deposits/sender-name.js';

/**
 * Why a transfer is thought to pay a deposit: a closed set an operator reads beside the confidence.
 * - `reference_exact`: the description carries the deposit's reference (case, spaces, dots and dashes tolerated);
 * - `reference_near`: it carries one that is one character off (a wrong, missing, extra or swapped character,
 *   O/0 and I/1 typed for a letter, Turkish letters such as Ş or ı), corrected to a reference whose check character
 *   is right and that names an existing deposit;
 * - `amount_exact` / `amount_less` / `amount_more`: the money against the requested amount;
 * - `sender_matches_user` / `sender_differs`: the sender's name against the partner's label of the user (neither
 *   when the deposit has no label);
 * - `late`: the money reached the bank after the deposit expired;
 * - `split`: a further transfer for a deposit already waiting for review;
 * - `top_up`: money an operator credited to a deposit approved before it arrived (never found by matching).
 */
export { MATCH_REASONS };
export type MatchReason = (typeof MATCH_REASONS)[number];

/** Each reason in the words an operator reads (the import's answer lists them with each line). */
export const MATCH_REASON_TEXTS = {
  reference_exact: "the description carries the deposit's reference",
  reference_near: "the description carries a reference one character off the deposit's",
  amount_exact: "exactly the deposit's amount",
  amount_less: "short of the deposit's amount",
  amount_more: "more than the deposit's amount",
  sender_matches_user: 'sender name matches the user',
  sender_differs: 'sender name does not match the user',
  late: 'arrived after the deposit expired',
  split: 'a further payment for a deposit already waiting for review',
  top_up: 'credited to a deposit approved before the money arrived',
} as const satisfies Record<MatchReason, string>;

/** What matching reads of a deposit. */
export interface MatchCandidate {
  id: string;
  referenceNo: string;
  status: DepositStatus;
  requestedAmount: bigint;
  externalUserLabel: string | null;
  expiresAt: Date;
}

/** What matching reads of a transfer. */
export interface MatchLine {
  amount: bigint;
  senderName: string;
  receivedAt: Date;
}

export interface Explained {
  reasons: MatchReason[];
  /** 0 to 100; see {@link WEIGHTS}. */
  confidence: number;
}

/**
 * The confidence is the sum of the reasons' weights, clamped to 0..100: the reference carries most of it (a near
 * one less: it was corrected), the exact amount and a matching sender add to it, and every sign of trouble takes
 * from it. An exact reference with the exact amount and the user's name scores 100; a near reference with the
 * exact amount and the user's name 75; a sender who differs costs 25.
 */
const WEIGHTS: Record<MatchReason, number> = {
  reference_exact: 60,
  reference_near: 35,
  amount_exact: 25,
  amount_less: 0,
  amount_more: 0,
  sender_matches_user: 15,
  sender_differs: -25,
  late: -15,
  split: -15,
  top_up: 0,
};

/** Each reason that holds for `line` paying `deposit`, and the confidence they add up to. */
export function explainMatch(
  line: MatchLine,
  deposit: MatchCandidate,
  reference: 'reference_exact' | 'reference_near' | null,
  skewMs: number,
): Explained {
  // No reference reason: an operator assigned a transfer whose description named no deposit.
  const reasons: MatchReason[] = reference ? [reference] : [];
  if (line.amount === deposit.requestedAmount) reasons.push('amount_exact');
  else reasons.push(line.amount < deposit.requestedAmount ? 'amount_less' : 'amount_more');
  if (deposit.externalUserLabel) {
    reasons.push(resemblesName(deposit.externalUserLabel, line.senderName) ? 'sender_matches_user' : 'sender_differs');
  }
  if (line.receivedAt.getTime() > deposit.expiresAt.getTime() + skewMs) reasons.push('late');
  if (deposit.status === 'PENDING_REVIEW' || deposit.status === 'LATE_ARRIVAL') reasons.push('split');
  const sum = reasons.reduce((total, reason) => total + WEIGHTS[reason], 0);
  return { reasons, confidence: Math.max(0, Math.min(100, sum)) };
}

// Turkish letters folded to the reference alphabet's Latin letters (İ, ı and Ö fold to I and O, which the alphabet
// lacks: the one-character correction below then takes them like any other slip).
const TURKISH: Record<string, string> = { İ: 'I', ı: 'I', Ş: 'S', ş: 'S', Ğ: 'G', ğ: 'G', Ü: 'U', ü: 'U', Ö: 'O', ö: 'O', Ç: 'C', ç: 'C' };
const LENGTH = 10;
const PREFIX = 'KD';

/**
 * Deposit references `text` nearly carries: every reference with a correct check character one character away
 * (changed, dropped, added, or two neighbours swapped) from a stretch of the folded text that begins like a deposit
 * reference. Exact references ({@link findReferenceNos}) are left out. Only a deposit that exists makes a candidate
 * a suggestion; the caller looks them up.
 */
export function nearReferenceNos(text: string): string[] {
  const exact = new Set(findReferenceNos(text));
  const compact = text
    .replace(/[İıŞşĞğÜüÖöÇç]/g, (c) => TURKISH[c] ?? c)
    .toUpperCase()
    .replace(/[\s.\-_/]+/g, '');
  const found = new Set<string>();
  const consider = (candidate: string) => {
    if (candidate.startsWith(PREFIX) && !exact.has(candidate) && isValidReferenceNo(candidate)) found.add(candidate);
  };
  for (let start = 0; start < compact.length; start += 1) {
    // A stretch worth correcting begins with at least one of the prefix's letters in place.
    if (compact[start] !== 'K' && compact[start + 1] !== 'D') continue;
    for (const length of [LENGTH - 1, LENGTH, LENGTH + 1]) {
      const window = compact.slice(start, start + length);
      if (window.length !== length) continue;
      // Folding alone may have mended it (a Ş typed for an S).
      consider(window);
      for (const candidate of correctionsOf(window)) consider(candidate);
    }
  }
  return [...found];
}

/**
 * The strings one edit from `window` over the reference alphabet (a change, a deletion, an insertion, a swap) that can
 * be a reference at all: {@link LENGTH} long and beginning with {@link PREFIX}. Only those are made, in the order the
 * edits are tried: making every edit and filtering costs about 2,000 strings a window, which a statement of 20,000
 * lines paid for each line in one go, holding up the ledger's other requests.
 */
function* correctionsOf(window: string): Generator<string> {
  const size = window.length;
  // An edit at index 2 or later keeps the window's first two characters: it must begin with the prefix already.
  const prefixed = window.startsWith(PREFIX);
  const edited = (candidate: string) => candidate.startsWith(PREFIX);
  for (let i = 0; i <= size && (i < 2 || prefixed); i += 1) {
    const before = window.slice(0, i);
    if (size === LENGTH + 1 && i < size) {
      const deleted = before + window.slice(i + 1);
      if (edited(deleted)) yield deleted;
    } else if (size === LENGTH && i < size) {
      const after = window.slice(i + 1);
      for (const char of REFERENCE_ALPHABET) if (char !== window[i] && edited(before + char + after)) yield before + char + after;
      if (i + 1 < size) {
        const swapped = before + (window[i + 1] as string) + (window[i] as string) + window.slice(i + 2);
        if (edited(swapped)) yield swapped;
      }
    } else if (size === LENGTH - 1) {
      for (const char of REFERENCE_ALPHABET) if (edited(before + char + window.slice(i))) yield before + char + window.slice(i);
    }
  }
}

/** The reasons stored on a transfer (a JSON column), read back; anything outside the closed set is dropped. */
export function storedReasons(value: unknown): MatchReason[] {
  return Array.isArray(value) ? value.filter((reason): reason is MatchReason => MATCH_REASONS.includes(reason as MatchReason)) : [];
}

/** The suggestions stored on a transfer, read back. */
export function storedSuggestions(value: unknown): Suggestion[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (!item || typeof item !== 'object') return [];
    const { intentId, referenceNo, confidence, reasons } = item as Record<string, unknown>;
    if (typeof intentId !== 'string' || typeof referenceNo !== 'string' || typeof confidence !== 'number') return [];
    return [{ intentId, referenceNo, confidence, reasons: storedReasons(reasons) }];
  });
}

/** A deposit a transfer may pay, as the transfer's detail shows it. */
export interface Suggestion extends Explained {
  intentId: string;
  referenceNo: string;
}

/** Suggestions best first (by confidence, then by reference for a stable order); a deposit already decided never. */
export function rankSuggestions(line: MatchLine, deposits: MatchCandidate[], skewMs: number): Suggestion[] {
  return deposits
    .filter((deposit) => deposit.status !== 'APPROVED' && deposit.status !== 'REJECTED')
    .map((deposit) => ({
      intentId: deposit.id,
      referenceNo: deposit.referenceNo,
      ...explainMatch(line, deposit, 'reference_near', skewMs),
    }))
    .sort((a, b) => b.confidence - a.confidence || a.referenceNo.localeCompare(b.referenceNo));
}
