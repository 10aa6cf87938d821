/**
 * The ops API (`/ops/v1` on the ledger, for operators, the console and the kasa CLI) as its own OpenAPI 3.1
 * document, served by the ledger at `/ops/v1/openapi.json`. It is kept apart from the partner document: it
 * lives on another service and address, takes operator tokens instead of API keys, and a partner's generated
 * client must not grow operator calls. Its operations come from the route table (./ops-routes.ts).
 */
import { OPS_EXAMPLES } from './openapi-examples.js';
import { componentsOf, pathId, problem, queryParametersOf, ref, withoutUnusedSchemas, type Json } from './openapi-support.js';
import { OPS_ROUTES, pathParameterNames, type OpsErrorStatus, type OpsOperationSpec } from './ops-routes.js';
import { OPS_RESPONSE_SCHEMAS } from './schemas/ops-responses.js';
import { REQUEST_SCHEMAS } from './schemas/requests.js';
import { RESPONSE_SCHEMAS } from './schemas/responses.js';

const ERRORS = {
  '400': problem('validation_failed: the body, query or a header is not valid', OPS_EXAMPLES.validationProblem),
  '401': problem('unauthorized: no operator token, or one that is unknown, expired or revoked', OPS_EXAMPLES.unauthorizedProblem),
  '403': problem(
    "forbidden: the operator's role may not do this (provisioning and operator accounts are for ADMIN), or the operator is limited to some sites and this is house-wide (`reason` `site_scope`; docs/operations.md, Operator scopes)",
  ),
  '404': problem("not_found: no record with this id, or one of a site outside the operator's scope (the same answer)"),
  '409': problem(
    'conflict: the record is not in a state that allows this; `reason` says which case (docs/errors.md, conflict)',
    OPS_EXAMPLES.conflictProblem,
  ),
  '413': problem('payload_too_large: body over 64 KiB (a statement file: over 16 MiB)'),
  '415': problem(
    'unsupported_media_type: Content-Type must be application/json (a statement file: one of the types its request body lists)',
  ),
  '422': problem('statement_rejected: the statement is of another account, in another currency, or does not add up'),
  '429': problem('rate_limited: too many failed logins from this address or for this account; see Retry-After'),
  '500': problem('internal_error'),
  '503': problem('service_unavailable'),
} as const satisfies Record<OpsErrorStatus, Json>;

/** A list's CSV file (`Accept: text/csv`): the same filters, every matching row, no page size. */
const CSV_EXPORT = {
  schema: {
    type: 'string',
    description:
      'Asked for with `Accept: text/csv`: a header row, then every item the filters select (no `limit`, `cursor` ignored), in the ' +
      "list's order, streamed. RFC 4180; amounts as `<name>_kurus` and `<name>_try` (`1234.50`); times ISO 8601 UTC; a text cell " +
      "starting with = + - @, tab or CR is prefixed with `'`. Columns: docs/operations.md, CSV export.",
  },
  example: 'intent_id,reference_no,status,...\r\n',
};

const CSV_DISPOSITION = {
  description: 'With `Accept: text/csv`: `attachment; filename="kasa-<list>-<UTC time>.csv"`.',
  schema: { type: 'string' },
};

const pick = (statuses: readonly OpsErrorStatus[]) => Object.fromEntries(statuses.map((status) => [status, ERRORS[status]]));

/** An operation of the table as the document describes it. */
function operation(operationId: string, spec: OpsOperationSpec): Json {
  const parameters = [
    ...pathParameterNames(spec.path).map(pathId),
    ...(spec.query ? queryParametersOf(REQUEST_SCHEMAS[spec.query], [...(spec.extraQuery ?? [])]) : []),
  ];
  const body = spec.body;
  return {
    operationId,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.role === 'PUBLIC' ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: !body.optional,
            content: {
              'application/json': { schema: ref(REQUEST_SCHEMAS[body.schema].$id), ...(body.example ? { example: body.example } : {}) },
            },
          },
        }
      : {}),
    ...(spec.rawBody
      ? {
          requestBody: {
            required: true,
            description: spec.rawBody.description,
            content: Object.fromEntries(
              spec.rawBody.types.map((type) => [type, { schema: { type: 'string', maxLength: spec.rawBody!.maxBytes } }]),
            ),
          },
        }
      : {}),
    responses: {
      [spec.status ?? '200']: {
        description: spec.responseDescription ?? 'Done',
        content: spec.fileResponse
          ? Object.fromEntries(spec.fileResponse.types.map((type) => [type, { schema: ref(spec.response) }]))
          : {
              'application/json': { schema: ref(spec.response), ...(spec.example ? { example: spec.example } : {}) },
              ...(spec.csvExport ? { 'text/csv': CSV_EXPORT } : {}),
            },
        ...(spec.csvExport ? { headers: { 'Content-Disposition': CSV_DISPOSITION } } : {}),
      },
      ...(spec.unchangedStatus
        ? {
            [spec.unchangedStatus.status]: {
              description: spec.unchangedStatus.description,
              content: { 'application/json': { schema: ref(spec.response) } },
            },
          }
        : {}),
      ...pick(spec.errors),
    },
  };
}

/** The document's paths: every operation of the table, under its path in the document's `{name}` form. */
function opsPaths(): Json {
  const paths: Record<string, Json> = {};
  for (const [operationId, spec] of Object.entries(OPS_ROUTES) as Array<[string, OpsOperationSpec]>) {
    const path = `/ops/v1${spec.path.replace(/:(\w+)/g, '{$1}')}`;
    paths[path] = { ...paths[path], [spec.method.toLowerCase()]: operation(operationId, spec) };
  }
  return paths;
}

/** Builds the ops document; `serverUrl` is where the ledger's ops API is reached (LEDGER_URL). */
export function buildOpsOpenApiDocument(serverUrl = 'http://127.0.0.1:8081') {
  return withoutUnusedSchemas({
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Kasa ops API',
      version: '1.0.0',
      description:
        'For operators, the console and the kasa CLI: provisioning, review of deposits and withdrawals, incoming bank transfers, ' +
        'balances, the audit log and the webhook delivery ledger. Served by the ledger on the internal network, not by the partner gateway. ' +
        'Every call but login takes an operator token (or the bootstrap token) as a bearer token. Errors are RFC 9457 problem details.',
      contact: { name: 'Kasa operations', url: 'https://kasa.example/ops', email: 'ops@kasa.example' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Kasa-Internal' },
    },
    servers: [{ url: serverUrl, description: 'The ledger (LEDGER_URL); not reachable from partners.' }],
    security: [{ operatorToken: [] }],
    tags: [
      { name: 'Operators', description: 'Login, operator accounts and their tokens.' },
      { name: 'Sites', description: 'Partner sites and their API keys.' },
      { name: 'Deposits', description: 'The deposit review queue and decisions.' },
      { name: 'Withdrawals', description: 'The withdrawal review queue, decisions and payout steps.' },
      { name: 'Payouts', description: 'Approved payouts batched into files for the bank (pain.001 or CSV); statements confirm them.' },
      { name: 'Bank transfers', description: "Incoming money and the service's receiving accounts." },
      { name: 'Balances', description: 'Site balances and the journal check.' },
      { name: 'Audit', description: 'Who did what.' },
      { name: 'Returns', description: 'Money sent back to the sender of a transfer no deposit kept.' },
      { name: 'Desk', description: "The dashboard and the partners' delivery health." },
      { name: 'Search', description: 'One box that finds any record by reference, id, user, name or IBAN tail.' },
      { name: 'Events', description: "Every site's webhook events, and replay." },
      {
        name: 'Compliance',
        description:
          'Sanctions and asset-freeze lists and the screening hits awaiting a decision; KVKK erasure requests, legal holds and the destruction log; the daily seals of the history.',
      },
    ],
    components: {
      securitySchemes: {
        operatorToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'An operator token from login or issued for scripts, or OPS_BOOTSTRAP_TOKEN (acts as an ADMIN).',
        },
      },
      schemas: componentsOf(REQUEST_SCHEMAS, [RESPONSE_SCHEMAS, OPS_RESPONSE_SCHEMAS]),
    },
    paths: opsPaths(),
  });
}
