/**
 * The reviewed record kinds of the ops API, each declared in one module of this folder: its request bodies and
 * list query, its ops views, its operations (one `export const <NAME>_OPS`), and the statuses only its ops contract
 * uses. A new reviewed record kind's ops contract is its module alone: scripts/setup.mjs lists every module of this
 * folder in ../generated/ops-record-kinds.ts (gitignored, scripts/generate-sources.mjs), the kind under the module's
 * name with everything the module exports, from which the request schema registry (../schemas/requests.ts), the ops
 * response schemas (../schemas/ops-responses.ts) and OPS_ROUTES (../ops-routes.ts) take every kind's part;
 * test/ops-records.test.ts fails while the list is not what the folder makes.
 */
import type { OpsRecordKind } from '../ops-operation-spec.js';
import { OPS_RECORD_KINDS } from '../generated/ops-record-kinds.js';

// The kinds, and what services read of a kind's module beyond the tables below: statuses and choices no partner sees.
export * from '../generated/ops-record-kinds.js';

type Kind = (typeof OPS_RECORD_KINDS)[keyof typeof OPS_RECORD_KINDS];
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

/** The parts every kind has, merged into the central tables; an optional part (its `cli`, its `console`) is read kind by kind. */
type EveryKindsTable = Exclude<keyof OpsRecordKind, 'cli' | 'console'>;

/**
 * One part of every kind as a single object type, each entry keeping its literal type: FromSchema, OpsClient.call
 * and the ledger's typed handlers read the schemas and operations through the central tables.
 */
export type EveryKindsPart<P extends EveryKindsTable> =
  UnionToIntersection<Kind[P]> extends infer All ? { [K in keyof All]: All[K] } : never;

function everyKinds<P extends EveryKindsTable>(part: P): EveryKindsPart<P> {
  // One cast: the entries are the kinds' own, and EveryKindsPart is their merge (test/ops-records.test.ts checks no name repeats).
  return Object.fromEntries(Object.values(OPS_RECORD_KINDS).flatMap((kind) => Object.entries(kind[part]))) as EveryKindsPart<P>;
}

/** Every kind's request bodies and list queries, by the name operations give them. */
export const OPS_RECORD_REQUEST_SCHEMAS = everyKinds('requestSchemas');
/** Every kind's ops views, by `$id`. */
export const OPS_RECORD_RESPONSE_SCHEMAS = everyKinds('responseSchemas');
/** Every kind's operations, by operationId, kind after kind. */
export const OPS_RECORD_OPERATIONS = everyKinds('operations');
