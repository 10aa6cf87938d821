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
import type { OpsRecordDesk } from '../ops-record-desk.js';
import { OPS_RECORD_KINDS } from '../generated/ops-record-kinds.js';

// The kinds, and what services read of a kind's module beyond the tables below: statuses and choices no partner sees.
export * from '../generated/ops-record-kinds.js';

type Kind = (typeof OPS_RECORD_KINDS)[keyof typeof OPS_RECORD_KINDS];
type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;

/**
 * The parts every kind has, merged into the central tables; an optional part (its `cli`, its `console`, its `desk`) is
 * read kind by kind, and so is its `docs` part (by scripts/record-kind-docs.ts).
 */
type EveryKindsTable = Exclude<keyof OpsRecordKind, 'cli' | 'console' | 'desk' | 'docs'>;

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

/** A kind with a queue on the desk, with the literal types of its declaration. */
type DeskKind = Extract<Kind, { desk: OpsRecordDesk }>;
export type OpsRecordDeskQueue = DeskKind['desk'];

/**
 * Every declared queue on the desk, in the kinds' order: the dashboard's answer, the ledger, the CLI and the console
 * read them here.
 */
export const OPS_RECORD_DESK_QUEUES: readonly OpsRecordDeskQueue[] = Object.values(OPS_RECORD_KINDS).flatMap((kind) =>
  'desk' in kind ? [kind.desk] : [],
);

/** Each declared queue's property of the dashboard's answer (`OpsDashboard`): a QueueHead, described by its kind. */
export type DeskQueueProperties = {
  [Q in OpsRecordDeskQueue as Q['queue']]: { readonly $ref: 'QueueHead'; readonly description: Q['description'] };
};

/**
 * The declared queues' properties, for the dashboard's schema to place among its own. A queue name another property
 * of the answer (`taken`) or a second kind uses stops the contract from loading: one queue would hide the other.
 */
export function deskQueueProperties(taken: readonly string[]): DeskQueueProperties {
  const properties: Record<string, { $ref: 'QueueHead'; description: string }> = {};
  for (const { queue, description } of OPS_RECORD_DESK_QUEUES) {
    if (taken.includes(queue) || queue in properties)
      throw new Error(`The dashboard's answer has ${queue} twice: a declared desk queue repeats it.`);
    properties[queue] = { $ref: 'QueueHead', description };
  }
  // One cast: the entries are the declared queues', each once (above), and DeskQueueProperties is read off the same.
  return properties as DeskQueueProperties;
}
