/**
 * The shape of an ops operation and of a reviewed record kind's part of the ops contract. ./ops-routes.ts and
 * the kind modules (./ops-records/) both declare operations in it, so it sits apart from either: the kinds are
 * built before the table that lists them.
 */
import type { Json } from './openapi-support.js';
import type { OpsRecordCli } from './ops-record-cli.js';
import type { OpsRecordConsole } from './ops-record-console.js';
import type { OpsRecordDesk } from './ops-record-desk.js';
import type { OpsRecordDocs } from './ops-record-docs.js';
import type { ResponseSchemaName } from './response-types.js';
import type { RequestSchemaName } from './schemas/requests.js';

export type OpsMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * Who may call: `PUBLIC` needs no token (login, the document); `REVIEWER` any operator, a reviewer or an admin
 * (some use cases still refuse a reviewer acting on another operator's account); `ADMIN` refuses a reviewer 403;
 * `CONNECTOR_OR_ADMIN` is a bank connector's machine account or an admin (a reviewer 403). A connector's token
 * is refused (403) by every route that is not `CONNECTOR_OR_ADMIN`.
 */
export type OpsRole = 'PUBLIC' | 'REVIEWER' | 'ADMIN' | 'CONNECTOR_OR_ADMIN';

/** The error answers an operation documents (./openapi-ops.ts describes each). */
export type OpsErrorStatus = '400' | '401' | '403' | '404' | '409' | '413' | '415' | '422' | '429' | '500' | '503';

export type OpsTag =
  | 'Operators'
  | 'Sites'
  | 'Deposits'
  | 'Withdrawals'
  | 'Payouts'
  | 'Bank transfers'
  | 'Balances'
  | 'Audit'
  | 'Returns'
  | 'Desk'
  | 'Search'
  | 'Events'
  | 'Compliance';

/** A route the ledger serves under `/ops/v1`. */
export interface OpsRouteSpec {
  method: OpsMethod;
  /** Under `/ops/v1`, parameters as `:name` (Express's form; the document writes `{name}`, each a UUID). */
  path: string;
  role: OpsRole;
}

/**
 * One documented operation of the ops API. Its schema names are the registries' (the defaults); a record kind's
 * module states them as text, because the registries are built from the kinds, and OPS_ROUTES checks them.
 */
export interface OpsOperationSpec<
  Request extends string = RequestSchemaName,
  Response extends string = ResponseSchemaName,
> extends OpsRouteSpec {
  tag: OpsTag;
  summary: string;
  description: string;
  /** The success status; 200 unless given. */
  status?: '200' | '201' | '202';
  /** The answer's schema (./schemas/ops-responses.ts, or the partner API's responses). */
  response: Response;
  /** The success answer's description; `Done` unless given. */
  responseDescription?: string;
  /** A second success status answered with the same schema when nothing was created (the same file or lines sent again). */
  unchangedStatus?: { status: '200'; description: string };
  /** An example answer. */
  example?: Json;
  /** The JSON body's request schema; `optional` when every field may be left out (an empty body is `{}`). */
  body?: { schema: Request; optional?: boolean; example?: Json };
  /** A body that is a file rather than JSON (a bank statement): the media types taken and the largest size. */
  rawBody?: { types: readonly string[]; maxBytes: number; description: string };
  /** An answer that is a file rather than JSON (a payout file): the media types it may come as. */
  fileResponse?: { types: readonly string[] };
  /** A list that also answers `Accept: text/csv` with every matching row as a CSV file (docs/operations.md, CSV export). */
  csvExport?: true;
  /** The query's request schema (list filters). */
  query?: Request;
  /** Query parameters the route reads beside its query schema. */
  extraQuery?: readonly Json[];
  errors: readonly OpsErrorStatus[];
}

/** The error answers of a read, of a write with a body, and of a list with a query. */
export const READ = ['401', '500', '503'] as const;
export const WRITE = ['400', '401', '413', '415', '500', '503'] as const;
export const LIST = ['400', ...READ] as const;
/** What every ops list's description adds: its page reads are bounded (docs/operations.md, Lists). */
export const LIST_TIMEOUT = 'A page (of a CSV export too) that would take longer than OPS_READ_TIMEOUT_MS to read answers 503.';
/** Every state change of a record: a body to check, a record to find, a state that must allow it. */
export const DECISION = [...WRITE, '404', '409'] as const;

/**
 * What a reviewed record kind's module declares (./ops-records/<folder>.ts): its request bodies and list query
 * by the name operations give them, its ops views by `$id`, and its operations by operationId. The request
 * schema registry, the ops response schemas and OPS_ROUTES take each part from ./ops-records/index.ts.
 */
export interface OpsRecordKind {
  requestSchemas: Readonly<Record<string, { readonly $id: string }>>;
  responseSchemas: Readonly<Record<string, { readonly $id: string }>>;
  operations: Readonly<Record<string, OpsOperationSpec<string, string>>>;
  /** Its `kasa` commands, drawn by the CLI from this declaration (./ops-record-cli.ts). */
  cli?: OpsRecordCli;
  /** Its console pages, navigation link and words, drawn by the console from this declaration (./ops-record-console.ts). */
  console?: OpsRecordConsole;
  /** Its queue on the operators' desk: the dashboard's count, line and card (./ops-record-desk.ts). */
  desk?: OpsRecordDesk;
  /** Its words in the docs: its ledger folder's row, its console page's, its operations section (./ops-record-docs.ts). */
  docs: OpsRecordDocs;
}
