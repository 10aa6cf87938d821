/**
 * What calling each ops operation takes and answers, derived from the route table (./ops-routes.ts) and the
 * schemas it names: the typed client (@kasa/ops-client) checks its call sites against these.
 */
import type { PathParameters } from './openapi-support.js';
import type { OPS_ROUTES, OpsOperationId } from './ops-routes.js';
import type { RequestOf } from './parse-request.js';
import type { ResponseOf } from './response-types.js';
import type { SchemaName } from './validation.js';

type ParamsOf<S extends { path: string }> = [PathParameters<S['path']>] extends [never]
  ? unknown
  : { params: Record<PathParameters<S['path']>, string> };

type BodyOf<S> = S extends { body: { schema: infer N extends SchemaName; optional: true } }
  ? { body?: RequestOf<N> }
  : S extends { body: { schema: infer N extends SchemaName } }
    ? { body: RequestOf<N> }
    : unknown;

// Query values stay text (the ledger checks them, and a filter typed by an operator is a string); the names are the schema's.
type ExtraQueryNames<S> = S extends { extraQuery: ReadonlyArray<{ name: infer Name extends string }> } ? Name : never;
type QueryOf<S> = S extends { query: infer N extends SchemaName }
  ? { query?: { [K in keyof RequestOf<N> | ExtraQueryNames<S>]?: string | undefined } }
  : unknown;

type Spec<Op extends OpsOperationId> = (typeof OPS_ROUTES)[Op];

// Computed once per operation, so a call site only looks its operation up (as parse-request.ts does for requests).
type OpsCalls = {
  [Op in OpsOperationId]: {
    input: ParamsOf<Spec<Op>> & BodyOf<Spec<Op>> & QueryOf<Spec<Op>> & { headers?: Record<string, string> };
    response: ResponseOf<Spec<Op>['response']>;
  };
};

/** What a call of the operation takes: its path parameters, body and query, each only where it has one, and headers. */
export type OpsInput<Op extends OpsOperationId> = OpsCalls[Op]['input'];
/** What the operation answers, typed from its response schema. */
export type OpsResponse<Op extends OpsOperationId> = OpsCalls[Op]['response'];
/** The input as arguments: optional when the operation needs nothing. */
export type OpsArgs<Op extends OpsOperationId> = object extends OpsInput<Op> ? [input?: OpsInput<Op>] : [input: OpsInput<Op>];

/** The operations that answer a page (`data` and `nextCursor`). */
export type OpsListOperationId = {
  [Op in OpsOperationId]: OpsResponse<Op> extends { data: unknown[]; nextCursor: string | null } ? Op : never;
}[OpsOperationId];
/** One item of a list operation's pages. */
export type OpsListItem<Op extends OpsListOperationId> = OpsResponse<Op> extends { data: Array<infer Item> } ? Item : never;
/** The query of a list operation: its schema's filter names, as text. */
export type OpsQuery<Op extends OpsOperationId> = OpsInput<Op> extends { query?: infer Q } ? NonNullable<Q> : never;

// One signature per operation (an intersection of overloads, as parse-request.ts does): a call picks its signature by
// the operation's name alone. A generic signature would let a caller's expected type drive inference back through
// every operation's response type, which the compiler cannot finish.
type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;

/** `call('approveIntent', { params: { intentId }, body })`: one operation by name, its answer typed from its schema. */
export type OpsCall = UnionToIntersection<
  { [Op in OpsOperationId]: (operationId: Op, ...input: OpsArgs<Op>) => Promise<OpsResponse<Op>> }[OpsOperationId]
>;

/** `paginate('opsListIntents', { status }, max)`: every item of a list operation, page after page. */
export type OpsPaginate = UnionToIntersection<
  {
    [Op in OpsListOperationId]: (operationId: Op, query?: OpsQuery<Op>, max?: number) => AsyncGenerator<OpsListItem<Op>>;
  }[OpsListOperationId]
>;
