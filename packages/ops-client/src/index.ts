/** The typed client of the ledger's ops API (`/ops/v1`), shared by the console and the kasa CLI. */
export {
  OpsClient,
  type ClientAddress,
  type FetchLike,
  type Method,
  type OpsClientOptions,
  type OpsCsvFile,
  type OpsCsvFileOperationId,
  type OpsCsvOperationId,
  type OpsFile,
  type OpsFileOperationId,
  type RequestOptions,
} from './ops-client.js';
export { OpsApiError, type OpsApiErrorOptions, type OpsProblem } from './ops-api-error.js';
export { seg, withQuery, type Query } from './query.js';
export { waitedFor, waitedLongerThan, waitedParts } from './waited.js';
