/**
 * What the ops API's request schemas share: ./ops.ts and each reviewed record kind's module (../ops-records/)
 * build their bodies and list queries from these, so a reason, an id or a page window reads the same everywhere.
 */
import { MINOR_UNITS_PATTERN } from '@kasa/money';

export const amountBound = {
  type: 'string',
  pattern: MINOR_UNITS_PATTERN,
  'x-message': 'must be a string of digits in minor units with no leading zero',
} as const;

export const reason = {
  type: 'string',
  minLength: 1,
  maxLength: 500,
  pattern: '\\S',
  'x-message': 'must be 1 to 500 characters and not only spaces',
} as const;

export const opsTimestamp = {
  type: 'string',
  format: 'date-time',
  'x-message': 'must be an ISO 8601 timestamp with a time zone, e.g. 2026-01-31T12:00:00.000Z',
} as const;

/** The bank's id of a transaction: a line recorded by hand, or the payout a bank paid out. */
export const bankTxId = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: '^[\\x21-\\x7e]+$',
  'x-message': 'must be 1 to 128 visible ASCII characters',
} as const;

export const uuid = {
  type: 'string',
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  'x-message': 'must be a UUID',
} as const;

/** A declared transfer purpose: an ISO 20022 ExternalPurpose1Code such as `SALA`, or a bank's own code of up to 35. */
export const purposeCode = {
  type: 'string',
  minLength: 1,
  maxLength: 35,
  pattern: '^[A-Za-z0-9 ./-]+$',
  'x-message': 'must be 1 to 35 of A-Z a-z 0-9 space . / - (a purpose code such as SALA)',
} as const;

// What an end user or a partner's support quotes; case and spaces are forgiven, as in bank descriptions.
export const referenceNo = {
  type: 'string',
  minLength: 1,
  maxLength: 32,
  pattern: '^[A-Za-z0-9 -]+$',
  'x-message': 'must be a reference such as KD7MX4Q2RH',
} as const;

// The page window every ops list takes: an opaque cursor and a page size of 1 to 100.
export const opsPage = {
  cursor: { type: 'string', minLength: 1, maxLength: 512, 'x-message': 'must be the nextCursor of the previous page' },
  limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$', 'x-message': 'must be a whole number from 1 to 100' },
} as const;

/** The filters every ops list of records takes: creation time, statuses (of `statuses`), order and the page window. */
export function opsListProperties(statuses: readonly string[]) {
  return {
    createdFrom: opsTimestamp,
    createdTo: opsTimestamp,
    status: {
      type: 'string',
      pattern: `^(${statuses.join('|')})(,(${statuses.join('|')}))*$`,
      'x-message': `must be a comma-separated list of ${statuses.join(', ')}`,
    },
    order: {
      type: 'string',
      enum: ['newest', 'oldest'],
      'x-message': 'must be newest or oldest',
      description: 'newest (the default) or oldest first: a queue is worked from its oldest item.',
    },
    ...opsPage,
  } as const;
}

/** Live records only, or the sandboxes' (docs/sandbox.md); both when absent. */
export const mode = {
  type: 'string',
  enum: ['live', 'test'],
  'x-message': 'must be live or test',
  description: "`live`: real money only; `test`: the sandboxes' records and simulated money only; both when absent.",
} as const;

// What a deposit or withdrawal list can narrow to besides status and time: the partner's user and an amount range (kuruş, inclusive).
export const recordFilters = {
  mode,
  externalUserId: {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9._:@-]+$',
    'x-message': 'must be 1 to 64 characters of A-Z, a-z, 0-9 and . _ : @ -',
  },
  amountMin: { ...amountBound, description: 'Smallest amount, kuruş, inclusive (deposits: the requested amount).' },
  amountMax: { ...amountBound, description: 'Largest amount, kuruş, inclusive (deposits: the requested amount).' },
} as const;
