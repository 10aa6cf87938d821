/**
 * The ops API (`/ops/v1` on the ledger, for operators, the console and the kasa CLI) as its own OpenAPI 3.1
 * document, served by the ledger at `/ops/v1/openapi.json`. It is kept apart from the partner document: it
 * lives on another service and address, takes operator tokens instead of API keys, and a partner's generated
 * client must not grow operator calls.
 */
import { OPS_EXAMPLES } from './openapi-examples.js';
import { componentsOf, pathId, problem, queryParametersOf, ref, withoutUnusedSchemas, type Json } from './openapi-support.js';
import { OPS_RESPONSE_SCHEMAS } from './schemas/ops-responses.js';
import { REQUEST_SCHEMAS } from './schemas/requests.js';
import { RESPONSE_SCHEMAS } from './schemas/responses.js';

const ERRORS = {
  '400': problem('validation_failed: the body, query or a header is not valid', OPS_EXAMPLES.validationProblem),
  '401': problem('unauthorized: no operator token, or one that is unknown, expired or revoked', OPS_EXAMPLES.unauthorizedProblem),
  '403': problem("forbidden: the operator's role may not do this (provisioning and operator accounts are for ADMIN)"),
  '404': problem('not_found: no record with this id'),
  '409': problem(
    'conflict: the record is not in a state that allows this; `reason` says which case (docs/errors.md, conflict)',
    OPS_EXAMPLES.conflictProblem,
  ),
  '413': problem('payload_too_large: body over 64 KiB'),
  '415': problem('unsupported_media_type: Content-Type must be application/json'),
  '429': problem('rate_limited: too many failed logins from this address or for this account; see Retry-After'),
  '500': problem('internal_error'),
  '503': problem('service_unavailable'),
} as const;
type ErrorStatus = keyof typeof ERRORS;

const pick = (statuses: ErrorStatus[]) => Object.fromEntries(statuses.map((status) => [status, ERRORS[status]]));
const READ_ERRORS: ErrorStatus[] = ['401', '500', '503'];
const WRITE_ERRORS: ErrorStatus[] = ['400', '401', '413', '415', '500', '503'];

interface OpSpec {
  id: string;
  tag: string;
  summary: string;
  description: string;
  status?: string;
  response: string;
  responseDescription?: string;
  params?: Json[];
  /** The request body's schema; `optional` when every field may be left out (an empty body is `{}`). */
  body?: { schema: string; optional?: boolean; example?: Json };
  errors: ErrorStatus[];
  example?: unknown;
  security?: Json[];
}

function op(spec: OpSpec): Json {
  return {
    operationId: spec.id,
    tags: [spec.tag],
    summary: spec.summary,
    description: spec.description,
    ...(spec.security ? { security: spec.security } : {}),
    ...(spec.params ? { parameters: spec.params } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.body.optional,
            content: {
              'application/json': { schema: ref(spec.body.schema), ...(spec.body.example ? { example: spec.body.example } : {}) },
            },
          },
        }
      : {}),
    responses: {
      [spec.status ?? '200']: {
        description: spec.responseDescription ?? 'Done',
        content: { 'application/json': { schema: ref(spec.response), ...(spec.example ? { example: spec.example } : {}) } },
      },
      ...pick(spec.errors),
    },
  };
}

const id = pathId;
const listParams = (
  schemaName: 'opsListIntents' | 'opsListWithdrawals' | 'opsListBankTransfers' | 'opsListSenderReturns' | 'listAudit' | 'listSites',
) => queryParametersOf(REQUEST_SCHEMAS[schemaName]);
const eventListParams = queryParametersOf(REQUEST_SCHEMAS.listEvents, [
  { name: 'siteId', in: 'query', required: false, description: "Only this site's events.", schema: { type: 'string', format: 'uuid' } },
]);

function opsPaths(): Json {
  return {
    '/ops/v1/login': {
      post: op({
        id: 'login',
        tag: 'Operators',
        summary: 'Log in with e-mail and password',
        description:
          "Exchanges an operator's e-mail and password for a session token (expires). The only ops call without a bearer token; failed attempts are limited per address and per account (429).",
        security: [],
        status: '201',
        response: 'LoginResult',
        responseDescription: 'Logged in',
        body: { schema: 'OperatorLoginRequest', example: { email: 'ayse@kasa.example', password: 'correct horse battery staple' } },
        errors: ['400', '401', '413', '415', '429', '500', '503'],
      }),
    },
    '/ops/v1/me': {
      get: op({
        id: 'whoAmI',
        tag: 'Operators',
        summary: 'Who the token belongs to',
        description: 'The operator behind the bearer token, with the role that decides what they may do.',
        response: 'OpsPrincipal',
        errors: READ_ERRORS,
      }),
    },
    '/ops/v1/logout': {
      post: op({
        id: 'logout',
        tag: 'Operators',
        summary: 'Revoke the token of this request',
        description: 'Revokes the bearer token used; the bootstrap token is configuration and answers 409.',
        response: 'OpsOperatorToken',
        responseDescription: 'Revoked',
        errors: ['401', '409', '500', '503'],
      }),
    },
    '/ops/v1/operators': {
      post: op({
        id: 'createOperator',
        tag: 'Operators',
        summary: 'Create an operator account (ADMIN)',
        description: 'Adds a REVIEWER or ADMIN; a password (12 characters or more) lets them log in to the console.',
        status: '201',
        response: 'OpsOperator',
        responseDescription: 'Created',
        body: { schema: 'CreateOperatorRequest', example: { email: 'mehmet@kasa.example', name: 'Mehmet Demir', role: 'REVIEWER' } },
        errors: [...WRITE_ERRORS, '403'],
      }),
      get: op({
        id: 'listOperators',
        tag: 'Operators',
        summary: 'List operator accounts (ADMIN)',
        description: 'Every operator account, disabled ones included.',
        response: 'OpsOperatorList',
        errors: [...READ_ERRORS, '403'],
      }),
    },
    '/ops/v1/operators/{operatorId}/disable': {
      post: op({
        id: 'disableOperator',
        tag: 'Operators',
        summary: 'Disable an operator account (ADMIN)',
        description: 'Disables the account and revokes its tokens; an operator cannot disable themselves (409).',
        params: [id('operatorId')],
        response: 'OpsOperator',
        responseDescription: 'Disabled',
        errors: ['401', '403', '404', '409', '500', '503'],
      }),
    },
    '/ops/v1/operators/{operatorId}/tokens': {
      post: op({
        id: 'issueOperatorToken',
        tag: 'Operators',
        summary: 'Issue a token for scripts',
        description: 'A bearer token for the kasa CLI or a script, shown once; without `expiresInSeconds` it lives until revoked.',
        params: [id('operatorId')],
        status: '201',
        response: 'IssuedOperatorToken',
        responseDescription: 'Issued',
        body: { schema: 'IssueOperatorTokenRequest', optional: true, example: { label: 'reconciliation script', expiresInSeconds: 86400 } },
        errors: [...WRITE_ERRORS, '403', '404'],
      }),
      get: op({
        id: 'listOperatorTokens',
        tag: 'Operators',
        summary: "List an operator's tokens",
        description: "An operator's tokens (never the tokens themselves); only an admin may list someone else's.",
        params: [id('operatorId')],
        response: 'OpsOperatorTokenList',
        errors: [...READ_ERRORS, '403', '404'],
      }),
    },
    '/ops/v1/operator-tokens/{tokenId}': {
      delete: op({
        id: 'revokeOperatorToken',
        tag: 'Operators',
        summary: 'Revoke an operator token',
        description: "Revokes one token; only an admin may revoke someone else's.",
        params: [id('tokenId')],
        response: 'OpsOperatorToken',
        responseDescription: 'Revoked',
        errors: [...READ_ERRORS, '403', '404'],
      }),
    },
    '/ops/v1/sites': {
      post: op({
        id: 'createSite',
        tag: 'Sites',
        summary: 'Create a partner site (ADMIN)',
        description: 'Provisions a site; a webhook URL given here gets a signing secret, returned once.',
        status: '201',
        response: 'CreatedSite',
        responseDescription: 'Created',
        body: { schema: 'CreateSiteRequest', example: { slug: 'acme', name: 'Acme Games', rateLimitPerMinute: 600 } },
        errors: [...WRITE_ERRORS, '403'],
      }),
      get: op({
        id: 'listSites',
        tag: 'Sites',
        summary: 'List sites, newest first',
        description: 'Every partner site, in pages joined by an opaque `nextCursor`.',
        params: listParams('listSites'),
        response: 'OpsSiteList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/sites/{siteId}': {
      get: op({
        id: 'getSite',
        tag: 'Sites',
        summary: 'Read a site',
        description: "A site's settings (never its webhook secret).",
        params: [id('siteId')],
        response: 'OpsSite',
        errors: [...READ_ERRORS, '404'],
      }),
      patch: op({
        id: 'updateSite',
        tag: 'Sites',
        summary: "Change a site's settings (ADMIN)",
        description:
          'Only the settings given change, in one transaction with the audit entry `SITE.SETTINGS_CHANGED` (before and after). ' +
          'A new rate limit applies at the gateway from its next request. A webhook URL on a site that had none comes with a signing secret, returned once in `webhookSecret`.',
        params: [id('siteId')],
        response: 'CreatedSite',
        responseDescription: 'The site as it now is',
        body: {
          schema: 'UpdateSiteRequest',
          example: { rateLimitPerMinute: 600, maxAmount: '5000000', returnUrl: 'https://acme.example/wallet' },
        },
        errors: [...WRITE_ERRORS, '403', '404'],
      }),
    },
    '/ops/v1/sites/{siteId}/api-keys': {
      get: op({
        id: 'listApiKeys',
        tag: 'Sites',
        summary: "List a site's API keys",
        description: 'Each key by id and prefix; the keys themselves are never stored.',
        params: [id('siteId')],
        response: 'OpsApiKeyList',
        errors: [...READ_ERRORS, '404'],
      }),
      post: op({
        id: 'issueApiKey',
        tag: 'Sites',
        summary: 'Issue an API key (ADMIN)',
        description: 'A new `sk_live_` key for the site, shown this once.',
        params: [id('siteId')],
        status: '201',
        response: 'IssuedApiKey',
        responseDescription: 'Issued',
        body: { schema: 'IssueApiKeyRequest', optional: true },
        errors: [...WRITE_ERRORS, '403', '404'],
      }),
    },
    '/ops/v1/api-keys/{apiKeyId}': {
      delete: op({
        id: 'revokeApiKey',
        tag: 'Sites',
        summary: 'Revoke an API key (ADMIN)',
        description: 'The very next request with the key is refused 401.',
        params: [id('apiKeyId')],
        response: 'RevokedApiKey',
        responseDescription: 'Revoked',
        errors: [...READ_ERRORS, '403', '404'],
      }),
    },
    '/ops/v1/sites/{siteId}/balance': {
      get: op({
        id: 'getSiteBalance',
        tag: 'Balances',
        summary: "A site's balance",
        description: "The site's journal balances: available, reserved for approved withdrawals, received and paid out.",
        params: [id('siteId')],
        response: 'SiteBalance',
        errors: [...READ_ERRORS, '404'],
      }),
    },
    '/ops/v1/balances': {
      get: op({
        id: 'listBalances',
        tag: 'Balances',
        summary: "Every site's balance",
        description: 'One balance per site.',
        response: 'SiteBalanceList',
        errors: READ_ERRORS,
      }),
    },
    '/ops/v1/journal/check': {
      get: op({
        id: 'checkJournal',
        tag: 'Balances',
        summary: 'Check the journal invariants',
        description: 'Checks that every journal transaction balances and every balance matches its records; `ok` false lists the problems.',
        response: 'JournalCheckReport',
        errors: READ_ERRORS,
      }),
    },
    '/ops/v1/receiving-accounts': {
      post: op({
        id: 'createReceivingAccount',
        tag: 'Bank transfers',
        summary: "Add one of the service's receiving bank accounts (ADMIN)",
        description: 'A bank account end users are told to send deposits to; accounts are handed out round-robin.',
        status: '201',
        response: 'ReceivingAccount',
        responseDescription: 'Created',
        body: {
          schema: 'CreateReceivingAccountRequest',
          example: { bankName: 'Ziraat Bankası', holderName: 'Kasa Ödeme Hizmetleri A.Ş.', iban: 'TR330006100519786457841326' },
        },
        errors: [...WRITE_ERRORS, '403'],
      }),
      get: op({
        id: 'listReceivingAccounts',
        tag: 'Bank transfers',
        summary: 'List the receiving bank accounts',
        description: "The service's receiving accounts, oldest first.",
        response: 'ReceivingAccountList',
        errors: READ_ERRORS,
      }),
    },
    '/ops/v1/intents': {
      get: op({
        id: 'opsListIntents',
        tag: 'Deposits',
        summary: 'The deposit review queue, newest first',
        description: "Every site's deposit intents, filtered by status, site or reference, in pages joined by `nextCursor`.",
        params: listParams('opsListIntents'),
        response: 'OpsIntentList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/intents/{intentId}': {
      get: op({
        id: 'opsGetIntent',
        tag: 'Deposits',
        summary: 'Read a deposit intent with its bank transfers',
        description: 'The intent as operators see it, with every bank transfer credited to it.',
        params: [id('intentId')],
        response: 'OpsIntentDetail',
        errors: [...READ_ERRORS, '404'],
      }),
    },
    '/ops/v1/intents/{intentId}/approve': {
      post: op({
        id: 'approveIntent',
        tag: 'Deposits',
        summary: 'Approve a deposit',
        description:
          'Approves a PENDING_REVIEW or LATE_ARRIVAL intent, crediting `amount` (default: what arrived); emits `intent.approved`.',
        params: [id('intentId')],
        response: 'OpsIntentDecision',
        responseDescription: 'Approved',
        body: { schema: 'ApproveIntentRequest', optional: true, example: { amount: '150000' } },
        errors: [...WRITE_ERRORS, '404', '409'],
      }),
    },
    '/ops/v1/intents/{intentId}/reject': {
      post: op({
        id: 'rejectIntent',
        tag: 'Deposits',
        summary: 'Reject a deposit',
        description:
          'Rejects a PENDING_REVIEW or LATE_ARRIVAL intent with a reason the partner sees; emits `intent.rejected`. ' +
          "`userReason` picks what the end user's hosted page says.",
        params: [id('intentId')],
        response: 'OpsIntentDecision',
        responseDescription: 'Rejected',
        body: {
          schema: 'RejectIntentRequest',
          example: { reason: 'Sender name does not match the account holder.', userReason: 'SENDER_NOT_ACCOUNT_HOLDER' },
        },
        errors: [...WRITE_ERRORS, '404', '409'],
      }),
    },
    '/ops/v1/withdrawals': {
      get: op({
        id: 'opsListWithdrawals',
        tag: 'Withdrawals',
        summary: 'The withdrawal review queue, newest first',
        description: "Every site's withdrawals, filtered by status, site or reference, in pages joined by `nextCursor`.",
        params: listParams('opsListWithdrawals'),
        response: 'OpsWithdrawalList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/withdrawals/{withdrawalId}': {
      get: op({
        id: 'opsGetWithdrawal',
        tag: 'Withdrawals',
        summary: "Read a withdrawal with the site's balance",
        description: 'The withdrawal with the full target IBAN and the balance the reviewer decides against.',
        params: [id('withdrawalId')],
        response: 'OpsWithdrawalDetail',
        errors: [...READ_ERRORS, '404'],
      }),
    },
    ...withdrawalStep(
      'approve',
      'approveWithdrawal',
      'Approve a withdrawal',
      'ApproveWithdrawalRequest',
      true,
      undefined,
      "Approves a PENDING_REVIEW withdrawal and reserves its amount on the site's balance (409 when the balance is short); no webhook.",
    ),
    ...withdrawalStep(
      'reject',
      'rejectWithdrawal',
      'Reject a withdrawal',
      'RejectRequest',
      false,
      { reason: 'Target IBAN is closed.' },
      'Rejects a PENDING_REVIEW or APPROVED withdrawal, releasing any reservation; emits `withdrawal.rejected`.',
    ),
    ...withdrawalStep(
      'mark-sent',
      'markWithdrawalSent',
      'Record that the money was sent',
      'MarkSentRequest',
      true,
      { bankTxId: 'EFT-2026-000123' },
      'Marks an APPROVED withdrawal SENT, settling the payout; emits `withdrawal.sent`.',
    ),
    ...withdrawalStep(
      'mark-returned',
      'markWithdrawalReturned',
      'Record that the bank returned the money',
      'RejectRequest',
      false,
      { reason: 'Returned by the receiving bank: account closed.' },
      "Marks a SENT withdrawal RETURNED, crediting the site's balance back; emits `withdrawal.returned`.",
    ),
    '/ops/v1/bank-transfers': {
      post: op({
        id: 'recordBankTransfer',
        tag: 'Bank transfers',
        summary: 'Record an incoming bank transfer',
        description:
          'Records money that arrived on a receiving account and matches it to an intent by the reference in its description. 201 when recorded, 200 with `Idempotent-Replayed: true` when this `bankTxId` was already recorded.',
        status: '201',
        response: 'RecordedBankTransfer',
        responseDescription: 'Recorded',
        body: {
          schema: 'RecordBankTransferRequest',
          example: {
            bankTxId: 'FAST-2026-0000042',
            amount: '150000',
            senderName: 'Ayşe Yılmaz',
            senderIban: 'TR330006100519786457841326',
            description: 'KD7MX4Q2RH',
            receivedAt: '2026-01-31T12:00:00.000Z',
          },
        },
        errors: WRITE_ERRORS,
      }),
      get: op({
        id: 'listBankTransfers',
        tag: 'Bank transfers',
        summary: 'List bank transfers, newest first',
        description: 'Incoming transfers, for example the UNMATCHED queue, in pages joined by `nextCursor`.',
        params: listParams('opsListBankTransfers'),
        response: 'OpsBankTransferList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/bank-transfers/{bankTransferId}': {
      get: op({
        id: 'getBankTransfer',
        tag: 'Bank transfers',
        summary: 'Read a bank transfer',
        description: 'One incoming transfer.',
        params: [id('bankTransferId')],
        response: 'OpsBankTransfer',
        errors: [...READ_ERRORS, '404'],
      }),
    },
    '/ops/v1/bank-transfers/{bankTransferId}/assign': {
      post: op({
        id: 'assignBankTransfer',
        tag: 'Bank transfers',
        summary: 'Assign an unmatched transfer to an intent',
        description:
          'Credits an UNMATCHED or SET_ASIDE transfer to the intent an operator identified (its reference was missing or wrong); ' +
          'several transfers may fund one intent.',
        params: [id('bankTransferId')],
        response: 'AssignedBankTransfer',
        responseDescription: 'Assigned',
        body: { schema: 'AssignBankTransferRequest', example: { intentId: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11' } },
        errors: [...WRITE_ERRORS, '404', '409'],
      }),
    },
    '/ops/v1/bank-transfers/{bankTransferId}/set-aside': {
      post: op({
        id: 'setBankTransferAside',
        tag: 'Bank transfers',
        summary: 'Set an unmatched transfer aside with a reason',
        description:
          'Moves an UNMATCHED transfer out of the unmatched queue (`SET_ASIDE`, audited with the reason); no money moves, and it can still be assigned.',
        params: [id('bankTransferId')],
        response: 'OpsBankTransfer',
        responseDescription: 'Set aside',
        body: { schema: 'RejectRequest', example: { reason: 'Sender asked us to hold it; waiting for their deposit reference.' } },
        errors: [...WRITE_ERRORS, '404', '409'],
      }),
    },
    '/ops/v1/bank-transfers/{bankTransferId}/return': {
      post: op({
        id: 'requestSenderReturn',
        tag: 'Returns',
        status: '201',
        summary: "Ask to send a transfer's money back to its sender",
        description:
          'For money no deposit kept (UNMATCHED, SET_ASIDE, or paid for a REJECTED deposit): a return PENDING_REVIEW for the whole ' +
          'amount; the transfer becomes RETURNING. No money moves until the return is approved and sent.',
        params: [id('bankTransferId')],
        response: 'OpsSenderReturn',
        responseDescription: 'Return asked for',
        body: { schema: 'RejectRequest', example: { reason: "Sent from an account not in the user's name; returning it." } },
        errors: [...WRITE_ERRORS, '404', '409'],
      }),
    },
    '/ops/v1/sender-returns': {
      get: op({
        id: 'listSenderReturns',
        tag: 'Returns',
        summary: 'Returns to senders, newest first',
        description:
          'Filtered by status (PENDING_REVIEW, APPROVED, SENT, REJECTED), in pages joined by `nextCursor`; `order=oldest` for a queue.',
        params: listParams('opsListSenderReturns'),
        response: 'OpsSenderReturnList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/sender-returns/{returnId}': {
      get: op({
        id: 'getSenderReturn',
        tag: 'Returns',
        summary: 'Read a return to a sender',
        description: "With the sender's full IBAN, which the money goes back to.",
        params: [id('returnId')],
        response: 'OpsSenderReturn',
        errors: [...READ_ERRORS, '404'],
      }),
    },
    ...Object.fromEntries(
      (
        [
          [
            'approve',
            'approveSenderReturn',
            'Approve a return',
            undefined,
            'PENDING_REVIEW -> APPROVED; books the money as owed back to the sender.',
          ],
          [
            'reject',
            'rejectSenderReturn',
            'Reject a return',
            'RejectRequest',
            'PENDING_REVIEW or APPROVED -> REJECTED (an approval is reversed); the transfer goes back to where it was.',
          ],
          [
            'mark-sent',
            'markSenderReturnSent',
            'Record that the money went back',
            'MarkSentRequest',
            'APPROVED -> SENT; the transfer becomes RETURNED.',
          ],
        ] as const
      ).map(([step, operationId, summary, schema, description]) => [
        `/ops/v1/sender-returns/{returnId}/${step}`,
        {
          post: op({
            id: operationId,
            tag: 'Returns',
            summary,
            description,
            params: [id('returnId')],
            response: 'OpsSenderReturn',
            responseDescription: 'Changed',
            ...(schema
              ? {
                  body: {
                    schema,
                    ...(schema === 'RejectRequest'
                      ? { example: { reason: 'The sender asked to keep it for a new deposit.' } }
                      : { optional: true, example: { bankTxId: 'EFT-2026-000777' } }),
                  },
                }
              : {}),
            errors: [...WRITE_ERRORS, '404', '409'],
          }),
        },
      ]),
    ),
    '/ops/v1/audit': {
      get: op({
        id: 'listAudit',
        tag: 'Audit',
        summary: 'The audit log, newest first',
        description: 'Who did what, filtered by site, actor, action or entity, in pages joined by `nextCursor`.',
        params: listParams('listAudit'),
        response: 'AuditList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/dashboard': {
      get: op({
        id: 'opsDashboard',
        tag: 'Desk',
        summary: 'What needs an operator now',
        description:
          'Counts of deposits to review, late arrivals, unmatched transfers, withdrawals to review and to send, DEAD events and ' +
          'failing partners, each with the item that has waited longest.',
        response: 'OpsDashboard',
        errors: [...READ_ERRORS],
      }),
    },
    '/ops/v1/delivery-health': {
      get: op({
        id: 'deliveryHealth',
        tag: 'Desk',
        summary: "Each partner's webhook deliveries",
        description:
          'Per site: attempts and successes in the window, success rate, failing since, the last failure, DEAD and PENDING events.',
        params: queryParametersOf(REQUEST_SCHEMAS.deliveryHealth),
        response: 'DeliveryHealthList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/search': {
      get: op({
        id: 'opsSearch',
        tag: 'Search',
        summary: 'Find deposits, withdrawals, bank transfers and events',
        description:
          "One box for everything: a reference (any case, spaces and dashes ignored), a record's or event's id, the partner's user id, " +
          "a sender's, holder's or user's name (3 characters or more), or an IBAN's last digits. Each kind newest first, at most `limit` (20).",
        params: queryParametersOf(REQUEST_SCHEMAS.opsSearch),
        response: 'OpsSearchResult',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/events': {
      get: op({
        id: 'opsListEvents',
        tag: 'Events',
        summary: "Every site's webhook events, newest first",
        description: 'The delivery ledger across sites (or one, with `siteId`), in pages joined by `nextCursor`.',
        params: eventListParams,
        response: 'OpsEventList',
        errors: ['400', ...READ_ERRORS],
      }),
    },
    '/ops/v1/events/{eventId}': {
      get: op({
        id: 'opsGetEvent',
        tag: 'Events',
        summary: 'Read an event with its delivery attempts',
        description: 'One event, its site and every delivery attempt, oldest first.',
        params: [id('eventId')],
        response: 'OpsEventDetail',
        errors: [...READ_ERRORS, '404'],
      }),
    },
    '/ops/v1/events/{eventId}/replay': {
      post: op({
        id: 'opsReplayEvent',
        tag: 'Events',
        summary: 'Deliver an event again',
        description: 'Starts a new delivery cycle of a DELIVERED or DEAD event with the same eventId; audited with the operator.',
        params: [id('eventId')],
        status: '202',
        response: 'Event',
        responseDescription: 'Accepted',
        errors: ['401', '404', '409', '413', '415', '500', '503'],
      }),
    },
  };
}

function withdrawalStep(
  step: string,
  operationId: string,
  summary: string,
  schema: string,
  optional: boolean,
  example: Json | undefined,
  description: string,
): Json {
  return {
    [`/ops/v1/withdrawals/{withdrawalId}/${step}`]: {
      post: op({
        id: operationId,
        tag: 'Withdrawals',
        summary,
        description,
        params: [id('withdrawalId')],
        response: 'OpsWithdrawalDecision',
        body: { schema, optional, ...(example ? { example } : {}) },
        errors: [...WRITE_ERRORS, '404', '409'],
      }),
    },
  };
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
      { name: 'Bank transfers', description: "Incoming money and the service's receiving accounts." },
      { name: 'Balances', description: 'Site balances and the journal check.' },
      { name: 'Audit', description: 'Who did what.' },
      { name: 'Returns', description: 'Money sent back to the sender of a transfer no deposit kept.' },
      { name: 'Desk', description: "The dashboard and the partners' delivery health." },
      { name: 'Search', description: 'One box that finds any record by reference, id, user, name or IBAN tail.' },
      { name: 'Events', description: "Every site's webhook events, and replay." },
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
