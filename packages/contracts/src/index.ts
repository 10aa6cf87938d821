/**
 * The contracts between the services and their clients: JSON Schemas, validators, error codes, the partner
 * and ops API record shapes and route tables, the API-key cache shared by ledger and gateway, and the OpenAPI document.
 */
export * from './errors.js';
export * from './statuses.js';
// The reviewed record kinds' ops contracts, with the statuses and choices only one kind's ops contract uses.
export * from './ops-records/index.js';
export {
  EVENT_TYPE_REGISTRY,
  eventTypeEntry,
  eventTypesOf,
  type AlwaysSentEventType,
  type EventRecord,
  type EventTypeEntry,
  type EventTypeOf,
} from './event-types.js';
export * from './records.js';
export * from './response-types.js';
export * from './ops-routes.js';
export { opsBodyField, type OpsBodyField } from './ops-body-field.js';
export * from './partner-routes.js';
export * from './internal-routes.js';
export type { OpsCliColumn, OpsCliOption, OpsCliStep, OpsRecordCli } from './ops-record-cli.js';
export type {
  ConsoleCreate,
  ConsoleFact,
  ConsoleInput,
  ConsoleShow,
  ConsoleStep,
  ConsoleWords,
  OpsRecordConsole,
} from './ops-record-console.js';
export type { OpsRecordDesk } from './ops-record-desk.js';
export type { OpsDocsBlock, OpsRecordDocs, OpsRecordOperationsDocs } from './ops-record-docs.js';
export type { OpsArgs, OpsCall, OpsInput, OpsListItem, OpsListOperationId, OpsPaginate, OpsQuery, OpsResponse } from './ops-calls.js';
export * from './auth-cache.js';
export * from './iban.js';
export * from './canonical-json.js';
export * from './balance-statement.js';
export { validateRequest, type SchemaName } from './validation.js';
export { checkRequest, LIST_FILTERS_INVALID, parseRequest, RequestValidationError, type RequestOf } from './parse-request.js';
export { RECOVER_WINDOW_MAX_DAYS, REQUEST_SCHEMAS, type RequestSchemaName } from './schemas/requests.js';
export { buildOpenApiDocument } from './openapi.js';
export { buildOpsOpenApiDocument } from './openapi-ops.js';
export { OPS_RESPONSE_SCHEMAS } from './schemas/ops-responses.js';
export { STATEMENT_FILE_FORMATS, STATEMENT_FORMAT_NAMES, type StatementFileFormat } from './generated/statement-formats.js';
export { RESPONSE_SCHEMAS } from './schemas/responses.js';
