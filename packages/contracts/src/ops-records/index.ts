/**
 * The reviewed record kinds of the ops API, each declared in one module of this folder: its request bodies and
 * list query, its ops views, its operations, and the statuses only its ops contract uses. A new reviewed record
 * kind's ops contract is its module plus its lines here (its import, its entry, and the re-export of statuses services
 * read as values): the request schema registry (../schemas/requests.ts), the ops response schemas
 * (../schemas/ops-responses.ts) and OPS_ROUTES (../ops-routes.ts) take every kind's part from this list, and
 * test/ops-records.test.ts fails while a module of this folder is missing from it.
 */
import type { OpsRecordKind } from '../ops-operation-spec.js';
import { BALANCE_ADJUSTMENT_OPS } from './balance-adjustments.js';
import { BANK_TRANSFER_OPS } from './bank-transfers.js';
import { DEPOSIT_OPS } from './deposits.js';
import { SENDER_RETURN_OPS } from './returns.js';
import { WITHDRAWAL_OPS } from './withdrawals.js';

// What services read of a kind's module beyond the tables below: statuses and choices no partner sees.
export { ADJUSTMENT_DIRECTIONS, BALANCE_ADJUSTMENT_STATUSES } from './balance-adjustments.js';
export { BANK_TRANSFER_STATUSES } from './bank-transfers.js';
export { REMAINDER_ACTIONS, type RemainderAction } from './deposits.js';
export { SENDER_RETURN_STATUSES } from './returns.js';

/** Every kind by its module's name, in the order the ops document lists their operations. */
export const OPS_RECORD_KINDS = {
  deposits: DEPOSIT_OPS,
  withdrawals: WITHDRAWAL_OPS,
  'bank-transfers': BANK_TRANSFER_OPS,
  returns: SENDER_RETURN_OPS,
  'balance-adjustments': BALANCE_ADJUSTMENT_OPS,
} as const satisfies Record<string, OpsRecordKind>;

type Kind = (typeof OPS_RECORD_KINDS)[keyof typeof OPS_RECORD_KINDS];
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

/**
 * One part of every kind as a single object type, each entry keeping its literal type: FromSchema, OpsClient.call
 * and the ledger's typed handlers read the schemas and operations through the central tables.
 */
export type EveryKindsPart<P extends keyof OpsRecordKind> =
  UnionToIntersection<Kind[P]> extends infer All ? { [K in keyof All]: All[K] } : never;

function everyKinds<P extends keyof OpsRecordKind>(part: P): EveryKindsPart<P> {
  // One cast: the entries are the kinds' own, and EveryKindsPart is their merge (test/ops-records.test.ts checks no name repeats).
  return Object.fromEntries(Object.values(OPS_RECORD_KINDS).flatMap((kind) => Object.entries(kind[part]))) as EveryKindsPart<P>;
}

/** Every kind's request bodies and list queries, by the name operations give them. */
export const OPS_RECORD_REQUEST_SCHEMAS = everyKinds('requestSchemas');
/** Every kind's ops views, by `$id`. */
export const OPS_RECORD_RESPONSE_SCHEMAS = everyKinds('responseSchemas');
/** Every kind's operations, by operationId, kind after kind. */
export const OPS_RECORD_OPERATIONS = everyKinds('operations');
