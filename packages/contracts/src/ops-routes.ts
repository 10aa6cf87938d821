/**
 * The ops API (`/ops/v1` on the ledger) as one table: each operation's method, path, role, request and
 * response schemas, summary, tag and examples, declared once. The ledger's routers, the ops OpenAPI document
 * (./openapi-ops.ts), the typed client (@kasa/ops-client) and the ledger's role-guard test are derived from it.
 */
import type { Json } from './openapi-support.js';
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

/** One documented operation of the ops API. */
export interface OpsOperationSpec extends OpsRouteSpec {
  tag: OpsTag;
  summary: string;
  description: string;
  /** The success status; 200 unless given. */
  status?: '200' | '201' | '202';
  /** The answer's schema (./schemas/ops-responses.ts, or the partner API's responses). */
  response: ResponseSchemaName;
  /** The success answer's description; `Done` unless given. */
  responseDescription?: string;
  /** A second success status answered with the same schema when nothing was created (the same file or lines sent again). */
  unchangedStatus?: { status: '200'; description: string };
  /** An example answer. */
  example?: Json;
  /** The JSON body's request schema; `optional` when every field may be left out (an empty body is `{}`). */
  body?: { schema: RequestSchemaName; optional?: boolean; example?: Json };
  /** A body that is a file rather than JSON (a bank statement): the media types taken and the largest size. */
  rawBody?: { types: readonly string[]; maxBytes: number; description: string };
  /** An answer that is a file rather than JSON (a payout file): the media types it may come as. */
  fileResponse?: { types: readonly string[] };
  /** A list that also answers `Accept: text/csv` with every matching row as a CSV file (docs/operations.md, CSV export). */
  csvExport?: true;
  /** The query's request schema (list filters). */
  query?: RequestSchemaName;
  /** Query parameters the route reads beside its query schema. */
  extraQuery?: readonly Json[];
  errors: readonly OpsErrorStatus[];
}

const READ = ['401', '500', '503'] as const;
const WRITE = ['400', '401', '413', '415', '500', '503'] as const;
const LIST = ['400', ...READ] as const;
/** What every ops list's description adds: its page reads are bounded (docs/operations.md, Lists). */
const LIST_TIMEOUT = 'A page (of a CSV export too) that would take longer than OPS_READ_TIMEOUT_MS to read answers 503.';
/** Every state change of a record: a body to check, a record to find, a state that must allow it. */
const DECISION = [...WRITE, '404', '409'] as const;

/** Every ops operation by its operationId, in the order the document lists them. */
export const OPS_ROUTES = {
  login: {
    method: 'POST',
    path: '/login',
    role: 'PUBLIC',
    tag: 'Operators',
    summary: 'Log in with e-mail and password',
    description:
      "Exchanges an operator's e-mail and password (and second-factor `code`, when the account has one: 401 `otp_required` without it, `otp_invalid` when wrong) for a session token (expires). The only ops call without a bearer token; failed attempts, wrong codes included, are limited per address and per account (429).",
    status: '201',
    response: 'LoginResult',
    responseDescription: 'Logged in',
    body: { schema: 'operatorLogin', example: { email: 'ayse@kasa.example', password: 'correct horse battery staple' } },
    // 403: a bank connector's account, which never logs in.
    errors: ['400', '401', '403', '413', '415', '429', '500', '503'],
  },
  whoAmI: {
    method: 'GET',
    path: '/me',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Who the token belongs to',
    description:
      'The operator behind the bearer token, with the role that decides what they may do and the sites they are limited to (`siteIds`, test twins included; empty: every site).',
    response: 'OpsPrincipal',
    errors: READ,
  },
  enrollSecondFactor: {
    method: 'POST',
    path: '/me/2fa/enroll',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Start enrolling a second factor (TOTP)',
    description:
      'Makes a new TOTP secret for the caller and answers it, its otpauth URI and a QR code, this once; it counts only after POST /me/2fa/confirm. 409 `otp_already_enrolled` when one is on.',
    status: '201',
    response: 'SecondFactorEnrollment',
    responseDescription: 'Started',
    errors: ['401', '409', '500', '503'],
  },
  confirmSecondFactor: {
    method: 'POST',
    path: '/me/2fa/confirm',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Confirm the second factor with a first code',
    description:
      'Turns the second factor on with a first code from the app and answers ten recovery codes, this once. A wrong code answers 401 `otp_invalid` and counts against the login allowances.',
    response: 'SecondFactorConfirmed',
    responseDescription: 'Enrolled',
    body: { schema: 'secondFactorCode', example: { code: '492039' } },
    errors: [...WRITE, '409', '429'],
  },
  verifySecondFactor: {
    method: 'POST',
    path: '/me/2fa/verify',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Enter a code for step-up',
    description:
      'Checks a code and stamps the token: for ten minutes it may approve amounts above STEP_UP_ABOVE_KURUS (403 `step_up_required` otherwise). A wrong code answers 401 `otp_invalid` and counts against the login allowances.',
    response: 'SecondFactorVerified',
    responseDescription: 'Verified',
    body: { schema: 'secondFactorCode', example: { code: '492039' } },
    errors: [...WRITE, '409', '429'],
  },
  disableSecondFactor: {
    method: 'POST',
    path: '/operators/:operatorId/2fa/disable',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: "Turn off an operator's second factor",
    description:
      "Removes the TOTP secret and the recovery codes. One's own needs a current code or a recovery code; an admin may turn off anyone's without one (a lost phone).",
    response: 'OpsOperator',
    body: { schema: 'disableSecondFactor', optional: true, example: { code: '492039' } },
    errors: [...DECISION, '403', '429'],
  },
  logout: {
    method: 'POST',
    path: '/logout',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Revoke the token of this request',
    description: 'Revokes the bearer token used; the bootstrap token is configuration and answers 409.',
    response: 'OpsOperatorToken',
    responseDescription: 'Revoked',
    errors: ['401', '409', '500', '503'],
  },
  createOperator: {
    method: 'POST',
    path: '/operators',
    role: 'ADMIN',
    tag: 'Operators',
    summary: 'Create an operator account (ADMIN)',
    description:
      'Adds a REVIEWER or ADMIN, or a CONNECTOR (a bank connector: may only post lines, never logs in; give it a token); a password (12 characters or more) lets a person log in to the console. `siteIds` limits the operator to those live sites (and their test twins; docs/operations.md, Operator scopes): each must be an existing live site (400 naming it). House-wide: a scoped admin is refused 403 `site_scope`.',
    status: '201',
    response: 'OpsOperator',
    responseDescription: 'Created',
    body: { schema: 'createOperator', example: { email: 'mehmet@kasa.example', name: 'Mehmet Demir', role: 'REVIEWER' } },
    errors: [...WRITE, '403'],
  },
  listOperators: {
    method: 'GET',
    path: '/operators',
    role: 'ADMIN',
    tag: 'Operators',
    summary: 'List operator accounts (ADMIN)',
    description:
      'Every operator account, disabled ones included, each with the sites it is limited to (`siteIds`; empty: every site). House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'OpsOperatorList',
    errors: [...READ, '403'],
  },
  setOperatorScope: {
    method: 'PATCH',
    path: '/operators/:operatorId',
    role: 'ADMIN',
    tag: 'Operators',
    summary: "Set an operator's site scope (ADMIN)",
    description:
      "Limits the operator to the live sites named (and their test twins), or to none with `[]` (every site), from the operator's next request on; each must be an existing live site (400 naming it). Audited `OPERATOR.SCOPE_CHANGED` with the scope before and after. House-wide: a scoped admin is refused 403 `site_scope`.",
    response: 'OpsOperator',
    responseDescription: 'Changed',
    body: { schema: 'setOperatorScope', example: { siteIds: ['8f14e45f-ceea-467f-a9f0-5e1a4f7c2d10'] } },
    errors: [...WRITE, '403', '404'],
  },
  disableOperator: {
    method: 'POST',
    path: '/operators/:operatorId/disable',
    role: 'ADMIN',
    tag: 'Operators',
    summary: 'Disable an operator account (ADMIN)',
    description:
      'Disables the account and revokes its tokens; an operator cannot disable themselves (409). House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'OpsOperator',
    responseDescription: 'Disabled',
    errors: ['401', '403', '404', '409', '500', '503'],
  },
  issueOperatorToken: {
    method: 'POST',
    path: '/operators/:operatorId/tokens',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Issue a token for scripts',
    description: 'A bearer token for the kasa CLI or a script, shown once; without `expiresInSeconds` it lives until revoked.',
    status: '201',
    response: 'IssuedOperatorToken',
    responseDescription: 'Issued',
    body: { schema: 'issueOperatorToken', optional: true, example: { label: 'reconciliation script', expiresInSeconds: 86400 } },
    errors: [...WRITE, '403', '404'],
  },
  listOperatorTokens: {
    method: 'GET',
    path: '/operators/:operatorId/tokens',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: "List an operator's tokens",
    description: "An operator's tokens (never the tokens themselves); only an admin may list someone else's.",
    response: 'OpsOperatorTokenList',
    errors: [...READ, '403', '404'],
  },
  revokeOperatorToken: {
    method: 'DELETE',
    path: '/operator-tokens/:tokenId',
    role: 'REVIEWER',
    tag: 'Operators',
    summary: 'Revoke an operator token',
    description: "Revokes one token; only an admin may revoke someone else's.",
    response: 'OpsOperatorToken',
    responseDescription: 'Revoked',
    errors: [...READ, '403', '404'],
  },
  createSite: {
    method: 'POST',
    path: '/sites',
    role: 'ADMIN',
    tag: 'Sites',
    summary: 'Create a partner site (ADMIN)',
    description:
      'Provisions a site; a webhook URL given here gets a signing secret, returned once. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    status: '201',
    response: 'CreatedSite',
    responseDescription: 'Created',
    body: { schema: 'createSite', example: { slug: 'acme', name: 'Acme Games', rateLimitPerMinute: 600 } },
    errors: [...WRITE, '403'],
  },
  listSites: {
    method: 'GET',
    path: '/sites',
    role: 'REVIEWER',
    tag: 'Sites',
    summary: 'List sites, newest first',
    description: 'Every partner site, in pages joined by an opaque `nextCursor`.',
    query: 'listSites',
    response: 'OpsSiteList',
    errors: LIST,
  },
  getSite: {
    method: 'GET',
    path: '/sites/:siteId',
    role: 'REVIEWER',
    tag: 'Sites',
    summary: 'Read a site',
    description: "A site's settings (never its webhook secret).",
    response: 'OpsSite',
    errors: [...READ, '404'],
  },
  updateSite: {
    method: 'PATCH',
    path: '/sites/:siteId',
    role: 'ADMIN',
    tag: 'Sites',
    summary: "Change a site's settings (ADMIN)",
    description:
      'Only the settings given change, in one transaction with the audit entry `SITE.SETTINGS_CHANGED` (before and after). ' +
      'A new rate limit applies at the gateway from its next request. A webhook URL on a site that had none comes with a signing secret, returned once in `webhookSecret`.',
    response: 'CreatedSite',
    responseDescription: 'The site as it now is',
    body: { schema: 'updateSite', example: { rateLimitPerMinute: 600, maxAmount: '5000000', returnUrl: 'https://acme.example/wallet' } },
    errors: [...WRITE, '403', '404'],
  },
  listApiKeys: {
    method: 'GET',
    path: '/sites/:siteId/api-keys',
    role: 'REVIEWER',
    tag: 'Sites',
    summary: "List a site's API keys",
    description: 'Each key by id and prefix; the keys themselves are never stored.',
    response: 'OpsApiKeyList',
    errors: [...READ, '404'],
  },
  issueApiKey: {
    method: 'POST',
    path: '/sites/:siteId/api-keys',
    role: 'ADMIN',
    tag: 'Sites',
    summary: 'Issue an API key (ADMIN)',
    description:
      'A new `sk_live_` key for the site, shown this once; with `{"mode":"test"}` an `sk_test_` key of its sandbox (created with the first test key; docs/sandbox.md).',
    status: '201',
    response: 'IssuedApiKey',
    responseDescription: 'Issued',
    body: { schema: 'issueApiKey', optional: true, example: { mode: 'test' } },
    errors: [...WRITE, '403', '404'],
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/api-keys/:apiKeyId',
    role: 'ADMIN',
    tag: 'Sites',
    summary: 'Revoke an API key (ADMIN)',
    description: 'The very next request with the key is refused 401.',
    response: 'RevokedApiKey',
    responseDescription: 'Revoked',
    errors: [...READ, '403', '404'],
  },
  testSiteWebhook: {
    method: 'POST',
    path: '/sites/:siteId/test-webhook',
    role: 'REVIEWER',
    tag: 'Sites',
    summary: "Send a signed test webhook to a site's webhook URL",
    description:
      "As the partner's `POST /test/webhooks`: one signed sample of an event type (or `ping`) with `test: true`, sent now to the site's webhook URL; the answer says how the attempt went. Not retried, not written to the events ledger. 409 `webhook_not_configured` when the site has no webhook URL or secret.",
    response: 'TestWebhookResponse',
    responseDescription: 'Attempted',
    example: { delivered: false, statusCode: 500, durationMs: 41, error: null },
    body: { schema: 'testWebhook', example: { type: 'ping' } },
    errors: [...WRITE, '404', '409'],
  },
  getSiteBalance: {
    method: 'GET',
    path: '/sites/:siteId/balance',
    role: 'REVIEWER',
    tag: 'Balances',
    summary: "A site's balance",
    description: "The site's journal balances: available, reserved for approved withdrawals, received and paid out.",
    response: 'SiteBalance',
    errors: [...READ, '404'],
  },
  listBalances: {
    method: 'GET',
    path: '/balances',
    role: 'REVIEWER',
    tag: 'Balances',
    summary: "Every site's balance",
    description: 'One balance per site.',
    response: 'SiteBalanceList',
    errors: READ,
  },
  checkJournal: {
    method: 'GET',
    path: '/journal/check',
    role: 'REVIEWER',
    tag: 'Balances',
    summary: 'Check the journal invariants',
    description:
      'Checks that every journal transaction balances and every balance matches its records; `ok` false lists the problems. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'JournalCheckReport',
    errors: [...READ, '403'],
  },
  createReceivingAccount: {
    method: 'POST',
    path: '/receiving-accounts',
    role: 'ADMIN',
    tag: 'Bank transfers',
    summary: "Add one of the service's receiving bank accounts (ADMIN)",
    description:
      'A bank account end users are told to send deposits to; accounts are handed out round-robin. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    status: '201',
    response: 'ReceivingAccount',
    responseDescription: 'Created',
    body: {
      schema: 'createReceivingAccount',
      example: {
        bankName: 'Ziraat Bankası',
        holderName: 'Kasa Ödeme Hizmetleri A.Ş.',
        iban: 'TR330006100519786457841326',
        accountNumber: '786457841326',
        branchCode: '0519',
      },
    },
    errors: [...WRITE, '403'],
  },
  updateReceivingAccount: {
    method: 'PATCH',
    path: '/receiving-accounts/:accountId',
    role: 'ADMIN',
    tag: 'Bank transfers',
    summary: "Change a receiving account's names, account number or branch code (ADMIN)",
    description:
      'Only the fields given change (`null` removes an account number or branch code); the IBAN never changes. The account number and branch code let a statement that names the account by them, not by its IBAN, be imported into it (docs/statements.md, Whose statement). Audited `RECEIVING_ACCOUNT.CHANGED` with the fields before and after (numbers masked). House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'ReceivingAccount',
    responseDescription: 'The account as it now is',
    body: { schema: 'updateReceivingAccount', example: { accountNumber: '93984487', branchCode: '00763' } },
    errors: [...WRITE, '403', '404'],
  },
  listReceivingAccounts: {
    method: 'GET',
    path: '/receiving-accounts',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'List the receiving bank accounts',
    description:
      "The service's receiving accounts, oldest first. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    response: 'ReceivingAccountList',
    errors: [...READ, '403'],
  },
  importStatement: {
    method: 'POST',
    path: '/receiving-accounts/:accountId/statements',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Import a bank statement of a receiving account',
    description:
      "Reads a statement file (in a format docs/statements.md lists, such as camt.053 or MT940) of this receiving account: each credit line is recorded and matched as a bank transfer, each debit line kept. The answer counts the lines by outcome and lists the file's first 1,000 lines (`lineOutcomes`), each with its outcome (approved straight through, matched, suggested, unmatched, known, a payout, a debit) and the reasons the matching and straight-through rules gave. Lines already imported (by their line key on the account: reference, direction, amount, booking day and occurrence in the statement; docs/statements.md) are counted as duplicates and change nothing; a credit line answering a transfer recorded by hand confirms it or flags the difference instead of crediting it again. 201 when something was created, 200 with `created: 0` when everything was imported before. 422 `statement_rejected` when the statement is of another account, in another currency than TRY, or its balances do not add up; nothing is imported then. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    status: '201',
    unchangedStatus: { status: '200', description: 'Every line imported before: nothing changed (`created: 0`)' },
    response: 'StatementImport',
    responseDescription: 'Imported',
    rawBody: {
      types: ['application/xml', 'text/plain', 'text/csv'],
      maxBytes: 16 * 1024 * 1024,
      description:
        'The statement file as the bank delivered it, sent with the media type its format is read as (docs/statements.md, Which format), or a generic one; at most 16 MiB (a 100,000-line CSV is some 13 MB).',
    },
    example: {
      statementId: '5b0c3f55-8a0e-4c1e-9d7c-2f4c2b6a9e10',
      format: 'camt.053',
      statements: [{ statementId: '5b0c3f55-8a0e-4c1e-9d7c-2f4c2b6a9e10', reference: 'ZRT-20250314' }],
      lines: 3,
      created: 3,
      duplicates: 0,
      matched: 1,
      suggested: 0,
      unmatched: 1,
      autoApproved: 0,
      payoutsSent: 0,
      payoutsReturned: 0,
      handEntriesConfirmed: 0,
      bankLineDifferences: 0,
      lineOutcomes: [
        {
          lineKey: 'ZRT73000001|C|150000|2025-03-14|1',
          bankTxId: 'ZRT73000001',
          direction: 'credit',
          amount: '150000',
          bookedAt: '2025-03-14T00:00:00.000Z',
          bookingDay: '2025-03-14',
          timeKnown: false,
          counterpartyName: 'AYŞE YILMAZ',
          outcome: 'matched',
          reasons: [
            { code: 'above_max_amount', text: "amount above the site's straight-through limit" },
            { code: 'reference_exact', text: "the description carries the deposit's reference" },
            { code: 'amount_exact', text: "exactly the deposit's amount" },
          ],
          bankTransferId: '7d1e0c4a-3b2f-4e5d-8a9b-0c1d2e3f4a5b',
          deposit: {
            depositId: '3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
            referenceNo: 'KD7MX4Q2RH',
            siteId: '0b6f1c9e-2f43-4a8e-9d0e-6a1f3c2b7e55',
          },
          suggestions: [],
          payout: null,
        },
      ],
      lineOutcomesOmitted: 0,
      refusedStatements: [],
    },
    errors: ['400', '401', '403', '404', '413', '415', '422', '500', '503'],
  },
  getReconciliation: {
    method: 'GET',
    path: '/receiving-accounts/:accountId/reconciliation',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: "Reconcile a receiving account: its last statement's balance against what Kasa booked",
    description:
      "The latest imported statement's closing balance against the earliest statement's opening balance plus every credit and minus every debit Kasa recorded on the account up to the latest statement's end (statements, the bank connector, hand recording); `difference` is the first minus the second. With the lines no statement carries (`unconfirmedLines`, the usual cause of a difference) and the breaks between consecutive statements (`gaps`). An account with no statement answers 200 with the balances null, status `no_statement` and a `reason`. docs/operations.md, Reconciliation. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    response: 'AccountReconciliation',
    example: {
      accountId: '0b6f1c9e-2f43-4a8e-9d0e-6a1f3c2b7e55',
      bankName: 'Ziraat Bankası',
      iban: 'TR330006100519786457841326',
      status: 'difference',
      reason: null,
      statementClosingBalance: '12225000',
      bookedBalance: '12240000',
      difference: '-15000',
      asOf: '2025-03-14T20:59:59.000Z',
      anchorAt: '2025-03-13T21:00:00.000Z',
      statementId: '5b0c3f55-8a0e-4c1e-9d7c-2f4c2b6a9e10',
      statementRef: 'ZRT-20250314',
      statements: 1,
      counts: { statementCredits: 2, statementDebits: 1, unconfirmedCredits: 1, unconfirmedDebits: 0 },
      unconfirmedLines: [
        {
          lineId: '7d1e0c4a-3b2f-4e5d-8a9b-0c1d2e3f4a5b',
          direction: 'credit',
          bankTxId: 'FAST-2025-0000042',
          amount: '15000',
          bookedAt: '2025-03-14T10:00:00.000Z',
          timeKnown: true,
          counterpartyName: 'Ayşe Yılmaz',
          bankTransferId: '7d1e0c4a-3b2f-4e5d-8a9b-0c1d2e3f4a5b',
        },
      ],
      unconfirmedTotal: 1,
      gaps: [],
    },
    errors: [...READ, '403', '404'],
  },
  listReconciliations: {
    method: 'GET',
    path: '/reconciliation',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Reconcile every receiving account',
    description:
      'The reconciliation of each receiving account, oldest account first, as `GET /receiving-accounts/{accountId}/reconciliation` answers it. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'ReconciliationList',
    errors: [...READ, '403'],
  },
  opsListIntents: {
    method: 'GET',
    path: '/intents',
    role: 'REVIEWER',
    tag: 'Deposits',
    summary: 'The deposit review queue, newest first',
    description: "Every site's deposit intents, filtered by status, site or reference, in pages joined by `nextCursor`. " + LIST_TIMEOUT,
    query: 'opsListIntents',
    response: 'OpsIntentList',
    csvExport: true,
    errors: LIST,
  },
  opsGetIntent: {
    method: 'GET',
    path: '/intents/:intentId',
    role: 'REVIEWER',
    tag: 'Deposits',
    summary: 'Read a deposit intent with its bank transfers',
    description: 'The intent as operators see it, with every bank transfer credited to it.',
    response: 'OpsIntentDetail',
    errors: [...READ, '404'],
  },
  approveIntent: {
    method: 'POST',
    path: '/intents/:intentId/approve',
    role: 'REVIEWER',
    tag: 'Deposits',
    summary: 'Approve a deposit',
    description:
      'Approves a PENDING_REVIEW or LATE_ARRIVAL intent, crediting `amount` (default: what arrived); emits `intent.approved`. ' +
      'Crediting less than arrived says what happens to the rest in `remainder`: `return` (default; returns to the ' +
      'sender(s) enter review in the same transaction) or `set_aside` with a `reason`.',
    response: 'OpsIntentDecision',
    responseDescription: 'Approved',
    body: { schema: 'approveIntent', optional: true, example: { amount: '150000', remainder: { action: 'return' } } },
    errors: [...DECISION, '403'],
  },
  bulkApproveIntents: {
    method: 'POST',
    path: '/intents/bulk-approve',
    role: 'REVIEWER',
    tag: 'Deposits',
    summary: 'Approve several exact-match deposits',
    description:
      'Approves each intent in `intentIds` in order, each exactly as `POST /intents/{intentId}/approve` with no amount would ' +
      '(its own transaction, audit entry and `intent.approved`), and only when the money received equals the amount requested ' +
      '(else `not_exact_match`). Each item passes the step-up rule on its own. An item that fails is reported in its result ' +
      'with its reason and the others go on: the answer is 200 even when every item failed.',
    response: 'BulkApproveResult',
    responseDescription: 'One result per intent, in order',
    body: { schema: 'bulkApproveIntents', example: { intentIds: ['7d1e0c4a-3b2f-4e5d-8a9b-0c1d2e3f4a5b'] } },
    errors: [...WRITE, '403'],
  },
  rejectIntent: {
    method: 'POST',
    path: '/intents/:intentId/reject',
    role: 'REVIEWER',
    tag: 'Deposits',
    summary: 'Reject a deposit',
    description:
      'Rejects a PENDING_REVIEW or LATE_ARRIVAL intent with a reason the partner sees; emits `intent.rejected`. ' +
      "`userReason` picks what the end user's hosted page says.",
    response: 'OpsIntentDecision',
    responseDescription: 'Rejected',
    body: {
      schema: 'rejectIntent',
      example: { reason: 'Sender name does not match the account holder.', userReason: 'SENDER_NOT_ACCOUNT_HOLDER' },
    },
    errors: DECISION,
  },
  waitForRest: {
    method: 'POST',
    path: '/intents/:intentId/wait-for-rest',
    role: 'REVIEWER',
    tag: 'Deposits',
    summary: 'Wait for the rest of a short payment',
    description:
      'Takes a PENDING_REVIEW or LATE_ARRIVAL intent that received less than requested out of the review queue until more money ' +
      'arrives (it then returns to the queue with the sum received); it can still be approved or rejected meanwhile. No webhook. ' +
      'Asking again changes nothing.',
    response: 'OpsIntent',
    responseDescription: 'Waiting',
    errors: ['401', '404', '409', '500', '503'],
  },
  opsListWithdrawals: {
    method: 'GET',
    path: '/withdrawals',
    role: 'REVIEWER',
    tag: 'Withdrawals',
    summary: 'The withdrawal review queue, newest first',
    description: "Every site's withdrawals, filtered by status, site or reference, in pages joined by `nextCursor`. " + LIST_TIMEOUT,
    query: 'opsListWithdrawals',
    response: 'OpsWithdrawalList',
    csvExport: true,
    errors: LIST,
  },
  opsGetWithdrawal: {
    method: 'GET',
    path: '/withdrawals/:withdrawalId',
    role: 'REVIEWER',
    tag: 'Withdrawals',
    summary: "Read a withdrawal with the site's balance",
    description: 'The withdrawal with the full target IBAN and the balance the reviewer decides against.',
    response: 'OpsWithdrawalDetail',
    errors: [...READ, '404'],
  },
  approveWithdrawal: {
    method: 'POST',
    path: '/withdrawals/:withdrawalId/approve',
    role: 'REVIEWER',
    tag: 'Withdrawals',
    summary: 'Approve a withdrawal',
    description:
      "Approves a PENDING_REVIEW withdrawal and reserves its amount on the site's balance (409 when the balance is short); no webhook. " +
      "Above the site's four-eyes threshold (`dualApprovalAbove`, else DUAL_APPROVAL_ABOVE_KURUS) the first approval is only recorded (`approvals`, still PENDING_REVIEW) and a different person's approval moves it; the same operator again, the bootstrap token, or an operator tied to the first approver (the admin who created or last changed the other's account) is 409 `second_approver_required`, and a first approval whose operator was disabled since no longer counts. " +
      'Above STEP_UP_ABOVE_KURUS it needs a fresh second-factor code (403 `step_up_required`).',
    response: 'OpsWithdrawalDecision',
    body: { schema: 'approveWithdrawal', optional: true },
    errors: [...DECISION, '403'],
  },
  rejectWithdrawal: {
    method: 'POST',
    path: '/withdrawals/:withdrawalId/reject',
    role: 'REVIEWER',
    tag: 'Withdrawals',
    summary: 'Reject a withdrawal',
    description: 'Rejects a PENDING_REVIEW or APPROVED withdrawal, releasing any reservation; emits `withdrawal.rejected`.',
    response: 'OpsWithdrawalDecision',
    body: { schema: 'reject', example: { reason: 'Target IBAN is closed.' } },
    errors: DECISION,
  },
  markWithdrawalSent: {
    method: 'POST',
    path: '/withdrawals/:withdrawalId/mark-sent',
    role: 'REVIEWER',
    tag: 'Withdrawals',
    summary: 'Record that the money was sent',
    description: 'Marks an APPROVED withdrawal SENT, settling the payout; emits `withdrawal.sent`.',
    response: 'OpsWithdrawalDecision',
    body: { schema: 'markSent', optional: true, example: { bankTxId: 'EFT-2026-000123' } },
    errors: DECISION,
  },
  markWithdrawalReturned: {
    method: 'POST',
    path: '/withdrawals/:withdrawalId/mark-returned',
    role: 'REVIEWER',
    tag: 'Withdrawals',
    summary: 'Record that the bank returned the money',
    description: "Marks a SENT withdrawal RETURNED, crediting the site's balance back; emits `withdrawal.returned`.",
    response: 'OpsWithdrawalDecision',
    body: { schema: 'markReturned', example: { reason: 'Returned by the receiving bank: account closed.' } },
    errors: DECISION,
  },
  importScreeningList: {
    method: 'POST',
    path: '/screening/lists',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Import a sanctions or asset-freeze list (ADMIN)',
    description:
      "Reads a list file as published: `source=un` the UN Security Council consolidated list XML, `source=csv` a national list in Kasa's CSV layout (`list` names it, e.g. `tr-masak-6415`; docs/compliance.md). It becomes its list's current version: every ledger screens against it from its next screening, and every withdrawal still open (and, where a site screens them, every deposit sender still open) is screened again by the re-screening worker. The same bytes imported again change nothing (200, `created: false`). A file that cannot be read is 400 `validation_failed` naming the line or entry; nothing is imported then. Audited `SCREENING_LIST.IMPORTED`. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    status: '201',
    response: 'ScreeningListImport',
    responseDescription: 'Imported',
    unchangedStatus: { status: '200', description: 'Imported before: nothing changed (`created: false`)' },
    query: 'importScreeningList',
    rawBody: {
      types: ['application/xml', 'text/xml', 'text/csv'],
      maxBytes: 64 * 1024 * 1024,
      description:
        'The list file as published: the UN consolidated XML (`application/xml`) or a national list CSV (`text/csv`); at most 64 MiB.',
    },
    example: {
      version: {
        versionId: '7d1c2a4e-3b5f-4e8a-9c0d-1e2f3a4b5c6d',
        source: 'un-sc-consolidated',
        format: 'un',
        generated: '2020-06-19T17:00:04.015Z',
        sha256: '9f2c5e0b8a7d6c5b4a3928170605f4e3d2c1b0a9f8e7d6c5b4a3928170605f4e',
        entries: 1003,
        importedAt: '2026-12-26T09:30:00.000Z',
        importedBy: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        current: true,
      },
      created: true,
    },
    errors: [...WRITE, '403'],
  },
  listScreeningLists: {
    method: 'GET',
    path: '/screening/lists',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Imported sanctions list versions, newest first (ADMIN)',
    description:
      'Every imported version of every list, newest first, `current` marking the version each list is screened against. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'ScreeningListVersionList',
    errors: [...READ, '403'],
  },
  listScreeningHits: {
    method: 'GET',
    path: '/screening/hits',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Screening hits: the compliance queue (ADMIN)',
    description:
      'Names that matched a sanctions or asset-freeze list entry (score 0.82 or above), each holding its withdrawal (or deposit) until decided: the OPEN ones oldest first (the queue), or the decided ones newest first; at most 200. Only admins see them: a hit is never shown to the partner, nor to a reviewer (docs/compliance.md). House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    query: 'listScreeningHits',
    response: 'ScreeningHitList',
    errors: [...LIST, '403'],
  },
  decideScreeningHit: {
    method: 'POST',
    path: '/screening/hits/:hitId/decision',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Decide a screening hit: clear or confirm (ADMIN, four-eyes)',
    description:
      "`clear`: the name is not the listed person or entity, the hold lifts and the payout continues; `confirm`: it is, and the record stays frozen (never paid; an operator may still reject it). Always four-eyes: the first decision is recorded (`status` stays OPEN) and a second admin's same decision settles it; the same operator, an operator tied to the first (the admin who created or last changed the other account) or the bootstrap token is refused 409 `second_approver_required` (audited FOUR_EYES.REFUSED). A second admin deciding the other way replaces the first decision, which then needs a second again. 409 `invalid_transition` when the hit is decided already. Audited `SCREENING.FIRST_DECISION`, `SCREENING.CLEARED` or `SCREENING.CONFIRMED`. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    response: 'ScreeningHit',
    body: {
      schema: 'decideScreeningHit',
      example: { decision: 'clear', note: 'Different birth date and nationality; customer ID checked.' },
    },
    errors: [...DECISION, '403'],
  },
  listRiskFlags: {
    method: 'GET',
    path: '/risk-flags',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Risk flags: the review queue (ADMIN)',
    description:
      "What the risk rules flagged for a compliance officer (docs/compliance.md, Risk flags and reports): a sender whose name differs from the user's (`name_mismatch`), credits just under the site's per-deposit maximum within 24 hours (`just_under_limit`), money from an IBAN Kasa returned money to (`returned_and_resent`), a credit naming a payout from an account that is not its beneficiary's (`stranger_credit`), many credits for one user in a short window (`velocity`). OPEN (the default): due soonest first; CLOSED: newest review first; at most 200. A flag never holds money, and is never shown to partners nor sent in a webhook. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    query: 'listRiskFlags',
    response: 'RiskFlagList',
    errors: [...LIST, '403'],
  },
  riskReport: {
    method: 'GET',
    path: '/risk-flags/report',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Export the flags reported to the authority, as CSV (ADMIN)',
    description:
      "The flags reviewed `reported` on the Istanbul days `from` to `to` (both included, at most 366 days), oldest review first, one row each with its bank line: the columns of docs/compliance.md, the sender's full IBAN among them (the file is for the authority; it is never logged). Audited `RISK.REPORT_EXPORTED` with the period and the row count. 400 for a day that is not a calendar day or a period that is not valid. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    query: 'riskReport',
    response: 'RiskReportFile',
    responseDescription: 'The report',
    fileResponse: { types: ['text/csv'] },
    errors: [...LIST, '403'],
  },
  getRiskFlag: {
    method: 'GET',
    path: '/risk-flags/:flagId',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'One risk flag (ADMIN)',
    description:
      'The flag with what its rule saw (`facts`), its deadline and, once reviewed, its outcome. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'RiskFlag',
    errors: [...READ, '404', '403'],
  },
  reviewRiskFlag: {
    method: 'POST',
    path: '/risk-flags/:flagId/review',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Review a risk flag: no action, or reported to the authority (ADMIN)',
    description:
      '`no_action`: looked at, nothing to report; `reported`: reported to the authority (MASAK), and the flag goes into the report export. The note says why. The flag is CLOSED; 409 `invalid_transition` when it was reviewed already (read under its lock). Audited `RISK.REVIEWED`. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'RiskFlag',
    body: {
      schema: 'reviewRiskFlag',
      example: { outcome: 'no_action', note: "The sender is the user's spouse; the account holder confirmed by phone." },
    },
    errors: [...DECISION, '403'],
  },
  createPayoutBatch: {
    method: 'POST',
    path: '/payout-batches',
    role: 'REVIEWER',
    tag: 'Payouts',
    summary: 'Batch approved payouts into a file for the bank',
    description:
      'Gathers the withdrawals named in `withdrawalIds`, or every APPROVED withdrawal and APPROVED return to a sender no batch holds yet, into one batch paid from `accountId` (default: the oldest active receiving account). Statuses do not change: a payout is SENT when a statement line confirms it. A payout sits in one batch only, also when two batches are created at the same moment. 409 `nothing_to_batch` when nothing is left to batch, or a withdrawal named is not APPROVED or is batched already (nothing is batched then). House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    status: '201',
    response: 'CreatedPayoutBatch',
    responseDescription: 'Batched',
    example: { batchId: '0b6f5a3e-8c1d-4c1e-9f61-0d1b8f4a2c7e', count: 2, total: '350000' },
    body: { schema: 'createPayoutBatch', optional: true, example: {} },
    errors: [...DECISION, '403'],
  },
  listPayoutBatches: {
    method: 'GET',
    path: '/payout-batches',
    role: 'REVIEWER',
    tag: 'Payouts',
    summary: 'Payout batches, newest first (the last 100)',
    description:
      'Each batch with its paying account, count and total. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    response: 'OpsPayoutBatchList',
    errors: [...READ, '403'],
  },
  getPayoutBatch: {
    method: 'GET',
    path: '/payout-batches/:batchId',
    role: 'REVIEWER',
    tag: 'Payouts',
    summary: 'Read a payout batch with its items',
    description:
      "Each item's withdrawal or return, its reference (the file's EndToEndId), amount and creditor. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    response: 'OpsPayoutBatchDetail',
    errors: [...READ, '404', '403'],
  },
  getPayoutBatchFile: {
    method: 'GET',
    path: '/payout-batches/:batchId/file',
    role: 'REVIEWER',
    tag: 'Payouts',
    summary: "Download a payout batch's file for the bank",
    description:
      "An ISO 20022 `pain.001.001.03` credit transfer initiation (one payment per item, EndToEndId = the item's reference, debtor = the paying account), or with `format=csv` the CSV layout of docs/operations.md for banks without pain.001. Downloading changes nothing. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    response: 'PayoutFile',
    responseDescription: 'The file',
    fileResponse: { types: ['application/xml', 'text/csv'] },
    extraQuery: [
      {
        name: 'format',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['pain.001', 'csv'] },
        description: 'pain.001 unless `csv`.',
      },
    ],
    errors: ['400', ...READ, '404', '403'],
  },
  recordBankLines: {
    method: 'POST',
    path: '/receiving-accounts/:accountId/lines',
    role: 'CONNECTOR_OR_ADMIN',
    tag: 'Bank transfers',
    summary: "Post a receiving account's lines as the bank delivers them (CONNECTOR or ADMIN)",
    description:
      "For a bank connector's real-time feed: 1 to 500 lines of this receiving account, recorded exactly as a statement import's (credits matched by reference and straight-through approved by the site's rule, debits kept). Each line needs its own `bankTxId` within a request (400 otherwise). A line is known by its line key on this account (its `bankTxId`, direction, amount and booking day, Istanbul; docs/statements.md): posting it again, also at the same moment, or a statement carrying it later, is counted as a duplicate and changes nothing; a credit answering a transfer recorded by hand confirms it or flags the difference instead of crediting it again. 201 when something was created, 200 with `created: 0` when every line was known. The body may be up to 1 MiB. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    status: '201',
    unchangedStatus: { status: '200', description: 'Every line known before: nothing changed (`created: 0`)' },
    response: 'RecordedBankLines',
    responseDescription: 'Recorded',
    body: {
      schema: 'recordBankLines',
      example: {
        lines: [
          {
            bankTxId: 'FAST-2026-0000042',
            direction: 'credit',
            amount: '150000',
            currency: 'TRY',
            receivedAt: '2026-01-31T12:00:00.000Z',
            senderName: 'Ayşe Yılmaz',
            senderIban: 'TR330006100519786457841326',
            description: 'KD7MX4Q2RH',
          },
        ],
      },
    },
    example: {
      lines: 1,
      created: 1,
      duplicates: 0,
      matched: 1,
      suggested: 0,
      unmatched: 0,
      autoApproved: 0,
      payoutsSent: 0,
      payoutsReturned: 0,
      handEntriesConfirmed: 0,
      bankLineDifferences: 0,
    },
    errors: [...WRITE, '403', '404'],
  },
  recordBankTransfer: {
    method: 'POST',
    path: '/bank-transfers',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Record an incoming bank transfer',
    description:
      "Records money an operator saw arrive on a receiving account (a hand entry) and matches it to an intent by the reference in its description. `receivingAccountId` names the account; it may be left out only while exactly one receiving account is active (400 naming it otherwise). 201 when recorded, 200 with `Idempotent-Replayed: true` when the account already has this `bankTxId` with the same details, 409 `bank_tx_id_reused` with other details. The bank's own line arriving later confirms the hand entry (`bankConfirmedAt`) or, disagreeing, is kept as its `bankLineDifference`; it is never credited a second time. House-wide: an operator limited to some sites is refused 403 `site_scope`.",
    status: '201',
    response: 'RecordedBankTransfer',
    responseDescription: 'Recorded',
    body: {
      schema: 'recordBankTransfer',
      example: {
        bankTxId: 'FAST-2026-0000042',
        amount: '150000',
        senderName: 'Ayşe Yılmaz',
        senderIban: 'TR330006100519786457841326',
        description: 'KD7MX4Q2RH',
        receivedAt: '2026-01-31T12:00:00.000Z',
        receivingAccountId: '0b8f6c1e-5d2a-4c7b-9e31-2f4a6d8c0e15',
      },
    },
    errors: [...WRITE, '403'],
  },
  listBankTransfers: {
    method: 'GET',
    path: '/bank-transfers',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'List bank transfers, newest first',
    description: 'Incoming transfers, for example the UNMATCHED queue, in pages joined by `nextCursor`. ' + LIST_TIMEOUT,
    query: 'opsListBankTransfers',
    response: 'OpsBankTransferList',
    csvExport: true,
    errors: LIST,
  },
  getBankTransfer: {
    method: 'GET',
    path: '/bank-transfers/:bankTransferId',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Read a bank transfer',
    description:
      'One incoming transfer, with why it went to its deposit (`matchReasons`) and, when no exact reference matched, the deposits a near reference names (`suggestions`, best first).',
    response: 'OpsBankTransferDetail',
    errors: [...READ, '404'],
  },
  assignBankTransfer: {
    method: 'POST',
    path: '/bank-transfers/:bankTransferId/assign',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Assign an unmatched transfer to an intent',
    description:
      'Credits an UNMATCHED or SET_ASIDE transfer to the intent an operator identified (its reference was missing or wrong); ' +
      'several transfers may fund one intent.',
    response: 'AssignedBankTransfer',
    responseDescription: 'Assigned',
    body: { schema: 'assignBankTransfer', example: { intentId: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11' } },
    errors: DECISION,
  },
  topUpBankTransfer: {
    method: 'POST',
    path: '/bank-transfers/:bankTransferId/top-up',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Credit a transfer to an approved deposit as a top-up',
    description:
      'For money that arrived after its deposit was approved (unmatched reason `intent_closed`): credits an UNMATCHED or SET_ASIDE transfer ' +
      "to the APPROVED intent, adding it to the intent's credited `amount` and the site's balance, and emits `intent.topped_up` with " +
      '`topUp.amount`. Money for a REJECTED intent goes back to the sender instead.',
    response: 'ToppedUpBankTransfer',
    responseDescription: 'Credited',
    body: { schema: 'assignBankTransfer', example: { intentId: '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11' } },
    errors: DECISION,
  },
  setBankTransferAside: {
    method: 'POST',
    path: '/bank-transfers/:bankTransferId/set-aside',
    role: 'REVIEWER',
    tag: 'Bank transfers',
    summary: 'Set an unmatched transfer aside with a reason',
    description:
      'Moves an UNMATCHED transfer out of the unmatched queue (`SET_ASIDE`, audited with the reason); no money moves, and it can still be assigned.',
    response: 'OpsBankTransfer',
    responseDescription: 'Set aside',
    body: { schema: 'reject', example: { reason: 'Sender asked us to hold it; waiting for their deposit reference.' } },
    errors: DECISION,
  },
  requestSenderReturn: {
    method: 'POST',
    path: '/bank-transfers/:bankTransferId/return',
    role: 'REVIEWER',
    tag: 'Returns',
    summary: "Ask to send a transfer's money back to its sender",
    description:
      'For money no deposit kept (UNMATCHED, SET_ASIDE, or paid for a REJECTED deposit): a return PENDING_REVIEW for the whole ' +
      'amount; the transfer becomes RETURNING. No money moves until the return is approved and sent.',
    status: '201',
    response: 'OpsSenderReturn',
    responseDescription: 'Return asked for',
    body: { schema: 'reject', example: { reason: "Sent from an account not in the user's name; returning it." } },
    errors: DECISION,
  },
  listSenderReturns: {
    method: 'GET',
    path: '/sender-returns',
    role: 'REVIEWER',
    tag: 'Returns',
    summary: 'Returns to senders, newest first',
    description:
      'Filtered by status (PENDING_REVIEW, APPROVED, SENT, REJECTED), in pages joined by `nextCursor`; `order=oldest` for a queue. ' +
      LIST_TIMEOUT,
    query: 'opsListSenderReturns',
    response: 'OpsSenderReturnList',
    csvExport: true,
    errors: LIST,
  },
  getSenderReturn: {
    method: 'GET',
    path: '/sender-returns/:returnId',
    role: 'REVIEWER',
    tag: 'Returns',
    summary: 'Read a return to a sender',
    description: "With the sender's full IBAN, which the money goes back to.",
    response: 'OpsSenderReturn',
    errors: [...READ, '404'],
  },
  approveSenderReturn: {
    method: 'POST',
    path: '/sender-returns/:returnId/approve',
    role: 'REVIEWER',
    tag: 'Returns',
    summary: 'Approve a return',
    description:
      "PENDING_REVIEW -> APPROVED; books the money as owed back to the sender. Above the four-eyes threshold (its deposit site's `dualApprovalAbove`, else DUAL_APPROVAL_ABOVE_KURUS) the first approval is only recorded and a different person's approval moves it (the same operator again, the bootstrap token, or an operator tied to the first approver: 409 `second_approver_required`; a first approval whose operator was disabled since no longer counts); above STEP_UP_ABOVE_KURUS a fresh second-factor code is needed (403 `step_up_required`).",
    response: 'OpsSenderReturn',
    responseDescription: 'Changed',
    errors: [...DECISION, '403'],
  },
  rejectSenderReturn: {
    method: 'POST',
    path: '/sender-returns/:returnId/reject',
    role: 'REVIEWER',
    tag: 'Returns',
    summary: 'Reject a return',
    description: 'PENDING_REVIEW or APPROVED -> REJECTED (an approval is reversed); the transfer goes back to where it was.',
    response: 'OpsSenderReturn',
    responseDescription: 'Changed',
    body: { schema: 'reject', example: { reason: 'The sender asked to keep it for a new deposit.' } },
    errors: DECISION,
  },
  markSenderReturnSent: {
    method: 'POST',
    path: '/sender-returns/:returnId/mark-sent',
    role: 'REVIEWER',
    tag: 'Returns',
    summary: 'Record that the money went back',
    description: 'APPROVED -> SENT; the transfer becomes RETURNED.',
    response: 'OpsSenderReturn',
    responseDescription: 'Changed',
    body: { schema: 'markSent', optional: true, example: { bankTxId: 'EFT-2026-000777' } },
    errors: DECISION,
  },
  listAudit: {
    method: 'GET',
    path: '/audit',
    role: 'REVIEWER',
    tag: 'Audit',
    summary: 'The audit log, newest first',
    description: 'Who did what, filtered by site, actor, action or entity, in pages joined by `nextCursor`. ' + LIST_TIMEOUT,
    query: 'listAudit',
    response: 'AuditList',
    csvExport: true,
    errors: LIST,
  },
  listSeals: {
    method: 'GET',
    path: '/seals',
    role: 'REVIEWER',
    tag: 'Audit',
    summary: 'The signed daily seals of the history chains, newest day first',
    description:
      'One seal per Istanbul calendar day (docs/compliance.md, Tamper-evident history): the heads of the audit and journal ' +
      'chains and the journal balances they cover, signed with ed25519; each with its public key and whether it verifies now. ' +
      'In pages joined by `nextCursor`. House-wide: an operator limited to some sites is refused 403 `site_scope`.',
    query: 'listSeals',
    response: 'HistorySealList',
    errors: [...LIST, '403'],
  },
  opsDashboard: {
    method: 'GET',
    path: '/dashboard',
    role: 'REVIEWER',
    tag: 'Desk',
    summary: 'What needs an operator now',
    description:
      'Counts of deposits to review, late arrivals, unmatched transfers, withdrawals to review and to send, DEAD events and ' +
      'failing partners, each with the item that has waited longest. Counts that would take longer than OPS_READ_TIMEOUT_MS ' +
      'to read answer 503.',
    response: 'OpsDashboard',
    errors: READ,
  },
  deliveryHealth: {
    method: 'GET',
    path: '/delivery-health',
    role: 'REVIEWER',
    tag: 'Desk',
    summary: "Each partner's webhook deliveries",
    description:
      'Per site: attempts and successes in the window, success rate, failing since, the last failure, DEAD and PENDING events. ' +
      'A read that would take longer than OPS_READ_TIMEOUT_MS answers 503.',
    query: 'deliveryHealth',
    response: 'DeliveryHealthList',
    errors: LIST,
  },
  opsSearch: {
    method: 'GET',
    path: '/search',
    role: 'REVIEWER',
    tag: 'Search',
    summary: 'Find deposits, withdrawals, bank transfers and events',
    description:
      "One box for everything: a reference (any case, spaces and dashes ignored), a record's or event's id, the partner's user id, " +
      "a sender's, holder's or user's name (3 letters or digits in a row; `%` and `_` are plain text), or an IBAN's last digits. " +
      'Each kind newest first, at most `limit` (20). A search that would take longer than OPS_READ_TIMEOUT_MS answers 503.',
    query: 'opsSearch',
    response: 'OpsSearchResult',
    errors: LIST,
  },
  opsListEvents: {
    method: 'GET',
    path: '/events',
    role: 'REVIEWER',
    tag: 'Events',
    summary: "Every site's webhook events, newest first",
    description: 'The delivery ledger across sites (or one, with `siteId`), in pages joined by `nextCursor`. ' + LIST_TIMEOUT,
    query: 'listEvents',
    extraQuery: [
      { name: 'siteId', in: 'query', required: false, description: "Only this site's events.", schema: { type: 'string', format: 'uuid' } },
    ],
    response: 'OpsEventList',
    csvExport: true,
    errors: LIST,
  },
  opsGetEvent: {
    method: 'GET',
    path: '/events/:eventId',
    role: 'REVIEWER',
    tag: 'Events',
    summary: 'Read an event with its delivery attempts',
    description: 'One event, its site and every delivery attempt, oldest first.',
    response: 'OpsEventDetail',
    errors: [...READ, '404'],
  },
  opsReplayEvent: {
    method: 'POST',
    path: '/events/:eventId/replay',
    role: 'REVIEWER',
    tag: 'Events',
    summary: 'Deliver an event again',
    description: 'Starts a new delivery cycle of a DELIVERED or DEAD event with the same eventId; audited with the operator.',
    status: '202',
    response: 'Event',
    responseDescription: 'Accepted',
    errors: ['401', '404', '409', '413', '415', '500', '503'],
  },
  opsRetryEventNow: {
    method: 'POST',
    path: '/events/:eventId/retry-now',
    role: 'REVIEWER',
    tag: 'Events',
    summary: "Bring a pending event's next attempt forward to now",
    description:
      'A PENDING event waiting out its retry delay is attempted at once, as the attempt it was waiting for: no attempt is added, and ' +
      'the eighth still ends the cycle (DEAD). A DELIVERED or DEAD event answers 409 `invalid_transition`: replay it instead. ' +
      'Audited (`EVENT.RETRY_NOW`) with the operator. The answer is the event, its `nextAttemptAt` now.',
    status: '202',
    response: 'OpsEvent',
    responseDescription: 'Accepted',
    errors: ['401', '404', '409', '413', '415', '500', '503'],
  },
  opsReplayDeadEvents: {
    method: 'POST',
    path: '/sites/:siteId/events/replay-dead',
    role: 'REVIEWER',
    tag: 'Events',
    summary: 'Deliver every DEAD event of a site again',
    description:
      "Starts a new delivery cycle of each of the site's DEAD events, oldest first, each audited (`EVENT.REPLAYED`) with the operator, " +
      "as the partner's `POST /events/recover` does for a window. `replayed` counts them; `eventIds` lists the first 1000.",
    response: 'RecoverEventsResponse',
    errors: ['401', '404', '413', '415', '500', '503'],
  },
  createErasureRequest: {
    method: 'POST',
    path: '/erasure-requests',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: "File a KVKK erasure request for a partner's end user (ADMIN)",
    description:
      'Records the request (due 30 days after it is received) and answers it at once: every record of the user (by site and ' +
      '`externalUserId`) that no hold covers is anonymised, and what is held is listed with the date its hold ends (ANSWERED), ' +
      'or nothing waits (COMPLETED). The destruction job anonymises the rest when its holds end. An unknown site answers 400. ' +
      'Audited (`ERASURE.REQUESTED`) with the request id only.',
    status: '201',
    response: 'ErasureRequest',
    responseDescription: 'Filed',
    body: {
      schema: 'createErasureRequest',
      example: { siteId: '3f9a2b1c-4d5e-4f60-8a7b-9c0d1e2f3a4b', externalUserId: 'user-123', reason: 'Ticket KVKK-2026-0042' },
    },
    errors: [...WRITE, '403'],
  },
  listErasureRequests: {
    method: 'GET',
    path: '/erasure-requests',
    role: 'REVIEWER',
    tag: 'Compliance',
    summary: 'Erasure requests, newest first',
    description: 'Filtered by site, status, or `overdue=true` (still OPEN past the due date), in pages joined by `nextCursor`.',
    query: 'listErasureRequests',
    response: 'ErasureRequestList',
    errors: LIST,
  },
  getErasureRequest: {
    method: 'GET',
    path: '/erasure-requests/:erasureRequestId',
    role: 'REVIEWER',
    tag: 'Compliance',
    summary: 'Read an erasure request',
    description: 'The request, what its passes anonymised, and what still waits for which hold.',
    response: 'ErasureRequest',
    errors: [...READ, '404'],
  },
  placeLegalHold: {
    method: 'POST',
    path: '/legal-holds',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Place a legal hold (ADMIN)',
    description:
      "Keeps a user's records (`siteId` + `externalUserId`) or one record (`recordType` + `recordId`, with its payout lines, " +
      'events and audit entries) past their retention and out of every erasure until released. Audited (`LEGAL_HOLD.PLACED`).',
    status: '201',
    response: 'LegalHold',
    responseDescription: 'Placed',
    body: {
      schema: 'placeLegalHold',
      example: { siteId: '3f9a2b1c-4d5e-4f60-8a7b-9c0d1e2f3a4b', externalUserId: 'user-123', reason: 'Court order 2026/118' },
    },
    errors: [...WRITE, '403'],
  },
  releaseLegalHold: {
    method: 'POST',
    path: '/legal-holds/:legalHoldId/release',
    role: 'ADMIN',
    tag: 'Compliance',
    summary: 'Release a legal hold (ADMIN)',
    description:
      'The records it kept are anonymised by the next erasure pass or destruction job when nothing else holds them. Audited (`LEGAL_HOLD.RELEASED`); a hold already released answers 409 `invalid_transition`.',
    response: 'LegalHold',
    errors: [...DECISION, '403'],
  },
  listDestructionLog: {
    method: 'GET',
    path: '/destruction-log',
    role: 'REVIEWER',
    tag: 'Compliance',
    summary: 'The destruction log, newest first',
    description:
      'What was anonymised, which fields, when and why (an erasure request, or retention expired), and by whom. Append-only; rows are kept three years.',
    query: 'listDestructionLog',
    response: 'DestructionLogList',
    errors: LIST,
  },
} as const satisfies Record<string, OpsOperationSpec>;

/** The name of an ops operation (its operationId). */
export type OpsOperationId = keyof typeof OPS_ROUTES;

/** The ops API's own OpenAPI document: public, served beside the operations and not described among them. */
export const OPS_DOCUMENT_ROUTE = { method: 'GET', path: '/openapi.json', role: 'PUBLIC' } as const satisfies OpsRouteSpec;

/** Every route the ledger serves under `/ops/v1`, by name: each operation, and the document (`null`). */
export function opsRouteList(): Array<OpsRouteSpec & { operationId: OpsOperationId | null }> {
  return [
    { ...OPS_DOCUMENT_ROUTE, operationId: null },
    ...Object.entries(OPS_ROUTES).map(([operationId, spec]) => ({
      method: spec.method,
      path: spec.path,
      role: spec.role,
      operationId: operationId as OpsOperationId,
    })),
  ];
}

/** The names of a path's parameters, in order (`/a/:x/b/:y` -> `['x', 'y']`). */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
}
