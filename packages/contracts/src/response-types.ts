import type { FromSchema } from 'json-schema-to-ts';
import type { OPS_RESPONSE_SCHEMAS } from './schemas/ops-responses.js';
import type { RESPONSE_SCHEMAS } from './schemas/responses.js';

type Schemas = typeof OPS_RESPONSE_SCHEMAS & typeof RESPONSE_SCHEMAS;
/** The name of a response schema, partner or ops (its `$id`). */
export type ResponseSchemaName = keyof Schemas;
// Every schema may `$ref` another by its `$id`; FromSchema resolves them among these.
type References = Array<Schemas[ResponseSchemaName]>;
// Computed once for every schema, as parse-request.ts does for requests, so a caller only looks a name up.
type ResponseTypes = { [N in ResponseSchemaName]: FromSchema<Schemas[N], { references: References }> };

/** The TypeScript type of what a response schema describes, derived from the schema itself. */
export type ResponseOf<N extends ResponseSchemaName> = ResponseTypes[N];

// The ops API's answers by name, for code that holds one (a page rendering a withdrawal, say); each is its schema's type.
export type OpsOperator = ResponseOf<'OpsOperator'>;
export type ScreeningListVersion = ResponseOf<'ScreeningListVersion'>;
export type ScreeningListImport = ResponseOf<'ScreeningListImport'>;
export type ScreeningHit = ResponseOf<'ScreeningHit'>;
export type OperatorRole = OpsOperator['role'];
export type OpsPrincipal = ResponseOf<'OpsPrincipal'>;
export type LoginResult = ResponseOf<'LoginResult'>;
export type OpsOperatorToken = ResponseOf<'OpsOperatorToken'>;
export type IssuedOperatorToken = ResponseOf<'IssuedOperatorToken'>;
export type SecondFactorEnrollment = ResponseOf<'SecondFactorEnrollment'>;
export type SecondFactorConfirmed = ResponseOf<'SecondFactorConfirmed'>;
export type SecondFactorVerified = ResponseOf<'SecondFactorVerified'>;
export type OpsSite = ResponseOf<'OpsSite'>;
export type CreatedSite = ResponseOf<'CreatedSite'>;
export type OpsApiKey = ResponseOf<'OpsApiKey'>;
export type IssuedApiKey = ResponseOf<'IssuedApiKey'>;
export type RevokedApiKey = ResponseOf<'RevokedApiKey'>;
export type ReceivingAccount = ResponseOf<'ReceivingAccount'>;
export type OpsIntent = ResponseOf<'OpsIntent'>;
export type OpsIntentDetail = ResponseOf<'OpsIntentDetail'>;
export type OpsIntentDecision = ResponseOf<'OpsIntentDecision'>;
export type BulkApproveResult = ResponseOf<'BulkApproveResult'>;
export type OpsWithdrawal = ResponseOf<'OpsWithdrawal'>;
export type OpsWithdrawalDetail = ResponseOf<'OpsWithdrawalDetail'>;
export type OpsWithdrawalDecision = ResponseOf<'OpsWithdrawalDecision'>;
export type OpsBankTransfer = ResponseOf<'OpsBankTransfer'>;
export type OpsBankTransferDetail = ResponseOf<'OpsBankTransferDetail'>;
export type RecordedBankTransfer = ResponseOf<'RecordedBankTransfer'>;
export type AssignedBankTransfer = ResponseOf<'AssignedBankTransfer'>;
export type ToppedUpBankTransfer = ResponseOf<'ToppedUpBankTransfer'>;
export type OpsSenderReturn = ResponseOf<'OpsSenderReturn'>;
export type OpsPayoutBatch = ResponseOf<'OpsPayoutBatch'>;
export type OpsPayoutBatchDetail = ResponseOf<'OpsPayoutBatchDetail'>;
export type CreatedPayoutBatch = ResponseOf<'CreatedPayoutBatch'>;
export type OpsBalance = ResponseOf<'OpsBalance'>;
export type SiteBalance = ResponseOf<'SiteBalance'>;
export type JournalCheckReport = ResponseOf<'JournalCheckReport'>;
export type AuditEntry = ResponseOf<'AuditEntry'>;
export type HistorySeal = ResponseOf<'HistorySeal'>;
export type OpsEvent = ResponseOf<'OpsEvent'>;
export type OpsEventDetail = ResponseOf<'OpsEventDetail'>;
export type OpsSearchResult = ResponseOf<'OpsSearchResult'>;
export type QueueHead = ResponseOf<'QueueHead'>;
export type OpsDashboard = ResponseOf<'OpsDashboard'>;
export type SiteDeliveryHealth = ResponseOf<'SiteDeliveryHealth'>;
export type DeliveryHealthList = ResponseOf<'DeliveryHealthList'>;
