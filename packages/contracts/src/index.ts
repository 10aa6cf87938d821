/** The partner API's contracts: JSON Schemas, validators, error codes, record shapes and the OpenAPI document. */
export * from './errors.js';
export * from './statuses.js';
export * from './records.js';
export * from './iban.js';
export * from './canonical-json.js';
export { validateRequest } from './validation.js';
export { REQUEST_SCHEMAS, type RequestSchemaName } from './schemas/requests.js';
export { buildOpenApiDocument } from './openapi.js';
export { RESPONSE_SCHEMAS } from './schemas/responses.js';
