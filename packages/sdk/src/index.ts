/**
 * `@kasa/sdk`: the Kasa partner API for a partner's backend. See packages/sdk/README.md and docs/sdk.md.
 *
 * @packageDocumentation
 */
export { KasaClient, type CreateOptions, type EventFeed, type EventsSinceOptions, type KasaClientOptions, type Page } from './client.js';
export type {
  Balance,
  BalanceTransaction,
  BalanceTransactionList,
  ListBalanceTransactionsQuery,
  CreateDepositRequest,
  CreateDepositResponse,
  CreateWithdrawalRequest,
  CreateWithdrawalResponse,
  DepositIntent,
  DepositIntentList,
  DepositIntentListItem,
  Event,
  EventList,
  EventWithAttempts,
  ListEventsQuery,
  ListIntentsQuery,
  ListWithdrawalsQuery,
  RecoverEventsRequest,
  RecoverEventsResponse,
  SimulateApprovalRequest,
  SimulatedIntent,
  SimulatedTransfer,
  SimulatedWithdrawal,
  SimulateRejectionRequest,
  SimulateReturnRequest,
  SimulateTransferRequest,
  TestWebhookRequest,
  TestWebhookResponse,
  UpdateWebhookConfigRequest,
  WebhookConfig,
  WebhookConfigResponse,
  Withdrawal,
  WithdrawalList,
  WithdrawalListItem,
} from './client.js';
export {
  BALANCE_STATEMENT_FORMAT,
  BalanceStatementVerificationError,
  verifyBalanceStatement,
  type BalanceStatement,
  type BalanceStatementFailure,
  type BalanceStatementKey,
  type BalanceStatementKeys,
  type BalanceStatementMovement,
  type BalanceStatementPublicKey,
} from './balance-statements.js';
export { KasaApiError, KasaNetworkError, type KasaErrorCode, type Problem } from './errors.js';
export {
  toStandardWebhooksSecret,
  verifyWebhook,
  WebhookVerificationError,
  type PingWebhookEvent,
  type VerifyWebhookInput,
  type WebhookEvent,
} from './webhooks.js';
export type { components, operations, paths } from './generated/kasa-api.js';
