import type { RetentionYears } from '@kasa/config';

/**
 * Retention and erasure as data (docs/compliance.md, Retention and erasure): each kind of record that carries personal
 * data, the retention class that keeps it, and the record it follows when it has no class of its own (a payout line
 * follows its withdrawal). erasure.repository.ts holds the columns each kind has anonymised.
 */

/** The marker every personal text field of an anonymised record holds. */
export const ERASED = '[erased]';

export type RetentionClass = keyof RetentionYears;

export const PERSONAL_RECORD_KINDS = {
  deposit: { retentionClass: 'deposits' },
  withdrawal: { retentionClass: 'withdrawals' },
  bank_transfer: { retentionClass: 'bankTransfers' },
  sender_return: { retentionClass: 'returns' },
  /** A payout file's line: the class of the withdrawal or return it pays. */
  payout_item: { retentionClass: null },
  /** A statement's debit line for a payout: the class of the payout it shows. */
  statement_debit: { retentionClass: null },
  /** A webhook event and its delivery attempts: the class of the record it reports. */
  outbox_event: { retentionClass: null },
  /**
   * A sanctions screening of a withdrawal's beneficiary or a deposit's sender (the name screened): the class of its
   * withdrawal or deposit.
   */
  screening: { retentionClass: null },
  /** A risk flag about a deposit of the user or a line credited to one (the names and IBAN its facts keep): its subject's class. */
  risk_flag: { retentionClass: null },
  audit_entry: { retentionClass: 'audit' },
} as const satisfies Record<string, { retentionClass: RetentionClass | null }>;

export type PersonalRecordKind = keyof typeof PERSONAL_RECORD_KINDS;

/** Why a record was anonymised (destruction_log.cause). */
export type DestructionCause = 'erasure_request' | 'retention_expired';

/** What keeps a record: its retention class's years (statutory, MASAK's 8) or an admin's explicit legal hold. */
export type Hold = { hold: 'retention'; holdEndsAt: string } | { hold: 'legal_hold'; legalHoldId: string; holdEndsAt: null };

/** The end of a record's retention: `years` after `from`, by the calendar (29 February falls to 28 February). */
export function retentionEnd(from: Date, years: number): Date {
  const end = new Date(from.getTime());
  end.setUTCFullYear(end.getUTCFullYear() + years);
  if (end.getUTCDate() !== from.getUTCDate()) end.setUTCDate(0);
  return end;
}

/**
 * JSON keys whose values are personal data wherever they appear in a record's webhook payload or audit metadata: names,
 * IBANs, the partner's label of the user, and free text.
 */
export const PERSONAL_JSON_KEYS: ReadonlySet<string> = new Set([
  'externalUserLabel',
  'targetIban',
  'targetHolderName',
  'holderName',
  'senderName',
  'senderIban',
  'senderNames',
  'counterpartyName',
  'counterpartyIban',
  'creditorName',
  'creditorIban',
  'iban',
  'name',
  'label',
  'description',
  'reason',
  'rejectedReason',
  'returnedReason',
  'setAsideReason',
  'note',
  'returnUrl',
]);

/** A JSON value with every personal key's string values replaced by {@link ERASED}, at any depth; the rest as it was. */
export function scrubJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, PERSONAL_JSON_KEYS.has(key) ? eraseValue(inner) : scrubJson(inner)]),
  );
}

function eraseValue(value: unknown): unknown {
  if (typeof value === 'string') return ERASED;
  if (Array.isArray(value)) return value.map(eraseValue);
  if (value !== null && typeof value === 'object') return scrubJson(value);
  return value;
}
