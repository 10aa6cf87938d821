/**
 * The Kasa partner API for a partner's backend, typed from the OpenAPI document (src/generated/kasa-api.ts).
 *
 * - Creates and replays carry an Idempotency-Key: a fresh UUID per call unless you pass one, the SAME key on every
 *   retry of that call, so a retried create never makes a second record.
 * - Retries: 5xx, 429 (after its Retry-After), timeouts and network errors, with exponential backoff and full
 *   jitter, at most `maxRetries` times. Other 4xx answers are never retried. A webhook config update that rotates
 *   the secret has no Idempotency-Key in the API, so it is repeated only when the API cannot have acted on it.
 * - Errors: `KasaApiError` with the API's `code` (typed), `status` and `requestId`.
 * - Lists: `list()` gives one page; `iterate()` follows `nextCursor` through every page; `events.since()` reads
 *   the events created since a checkpoint you store.
 * - Balance: `balanceTransactions` lists the balance's movements; `balanceStatements.get(date)` fetches a signed daily
 *   statement, which `verifyBalanceStatement` checks offline.
 * - `sandbox`: with a test key (`sk_test_...`) only, the simulator moves test records as the bank and Kasa's operators
 *   would (docs/sandbox.md); a live key gets `not_found`.
 */
import { randomUUID } from 'node:crypto';
import type { components, operations } from './generated/kasa-api.js';
import { callApi, type ApiRequest, type TransportOptions } from './transport.js';
import type { BalanceStatement, BalanceStatementKeys } from './balance-statements.js';

type Schemas = components['schemas'];
type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

export type CreateDepositRequest = Schemas['CreateDepositRequest'];
export type CreateDepositResponse = Schemas['CreateDepositResponse'];
export type DepositIntent = Schemas['DepositIntent'];
export type DepositIntentListItem = Schemas['DepositIntentListItem'];
export type DepositIntentList = Schemas['DepositIntentList'];
export type CreateWithdrawalRequest = Schemas['CreateWithdrawalRequest'];
export type CreateWithdrawalResponse = Schemas['CreateWithdrawalResponse'];
export type Withdrawal = Schemas['Withdrawal'];
export type WithdrawalListItem = Schemas['WithdrawalListItem'];
export type WithdrawalList = Schemas['WithdrawalList'];
export type Event = Schemas['Event'];
export type EventWithAttempts = Schemas['EventWithAttempts'];
export type EventList = Schemas['EventList'];
export type UpdateWebhookConfigRequest = Schemas['UpdateWebhookConfigRequest'];
export type WebhookConfigResponse = Schemas['WebhookConfigResponse'];
export type WebhookConfig = Schemas['WebhookConfig'];
export type TestWebhookRequest = Schemas['TestWebhookRequest'];
export type TestWebhookResponse = Schemas['TestWebhookResponse'];
export type Balance = Schemas['Balance'];
export type BalanceTransaction = Schemas['BalanceTransaction'];
export type BalanceTransactionList = Schemas['BalanceTransactionList'];
export type RecoverEventsRequest = Schemas['RecoverEventsRequest'];
export type RecoverEventsResponse = Schemas['RecoverEventsResponse'];
export type SimulateTransferRequest = Schemas['SimulateTransferRequest'];
export type SimulatedTransfer = Schemas['SimulatedTransfer'];
export type SimulateApprovalRequest = Schemas['SimulateApprovalRequest'];
export type SimulateRejectionRequest = Schemas['SimulateRejectionRequest'];
export type SimulateReturnRequest = Schemas['SimulateReturnRequest'];
export type SimulatedIntent = Schemas['SimulatedIntent'];
export type SimulatedWithdrawal = Schemas['SimulatedWithdrawal'];
export type ListIntentsQuery = QueryOf<'listIntents'>;
export type ListWithdrawalsQuery = QueryOf<'listWithdrawals'>;
export type ListEventsQuery = QueryOf<'listEvents'>;
export type ListBalanceTransactionsQuery = QueryOf<'listBalanceTransactions'>;

/** One page of a list: `data` and the opaque cursor of the next page (null on the last). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface KasaClientOptions {
  /** The base URL Kasa gave you, without `/api/v1` (for example `https://api.kasa.example`). */
  baseUrl: string;
  /** `sk_live_...`, or `sk_test_...` for the sandbox (docs/sandbox.md): server-side only. */
  apiKey: string;
  /** Per attempt, including reading the answer; default 10 000 ms. */
  timeoutMs?: number;
  /** Retries after the first attempt; default 4. */
  maxRetries?: number;
  /** First backoff in ms (doubled each retry, full jitter, at most 8 s); default 250. */
  retryBaseMs?: number;
  /** A fetch implementation; default the global one. */
  fetch?: typeof fetch;
}

/** Options of {@link KasaClient.events}`.since()`. */
export interface EventsSinceOptions {
  /** Filters of the list besides its window (`status`, `type`, `limit` per page). */
  query?: Omit<ListEventsQuery, 'cursor' | 'createdFrom' | 'createdTo'>;
  /**
   * How far before the checkpoint to start reading again, in ms; default 60 000. An event is stamped when its
   * transaction starts and listed once it commits, so one can appear a little behind a newer one; the overlap
   * reads those again. Events inside it come twice: deduplicate on `eventId`, as for webhooks.
   */
  overlapMs?: number;
}

/**
 * The events created since a checkpoint: iterate it, then store `checkpoint` and pass it to the next `since()`.
 * The checkpoint moves to the newest `createdAt` read only once every page has been read, so a run stopped early
 * (a `break`, an error) leaves it where it was and the next run reads those events again.
 */
export interface EventFeed extends AsyncIterable<Event> {
  readonly checkpoint: string | undefined;
}

export interface CreateOptions {
  /** Your own key for this operation (reuse it to retry it later yourself); default a fresh UUID. */
  idempotencyKey?: string;
}

export class KasaClient {
  private readonly transport: TransportOptions;

  readonly deposits = {
    /** Creates a deposit intent and its hosted page URL; a retry of the same call answers the same intent. */
    create: (body: CreateDepositRequest, options: CreateOptions = {}): Promise<CreateDepositResponse> =>
      this.call({ method: 'POST', path: '/api/v1/external/deposits', body, idempotencyKey: options.idempotencyKey ?? randomUUID() }),
  };

  readonly intents = {
    get: (intentId: string): Promise<DepositIntent> => this.call({ method: 'GET', path: `/api/v1/external/intents/${segment(intentId)}` }),
    list: (query: ListIntentsQuery = {}): Promise<DepositIntentList> =>
      this.call({ method: 'GET', path: '/api/v1/external/intents', query }),
    iterate: (query: ListIntentsQuery = {}): AsyncGenerator<DepositIntentListItem> => pages((q) => this.intents.list(q), query),
  };

  readonly withdrawals = {
    /** Records a payout request; a retry of the same call answers the same withdrawal. */
    create: (body: CreateWithdrawalRequest, options: CreateOptions = {}): Promise<CreateWithdrawalResponse> =>
      this.call({ method: 'POST', path: '/api/v1/external/withdrawals', body, idempotencyKey: options.idempotencyKey ?? randomUUID() }),
    get: (withdrawalId: string): Promise<Withdrawal> =>
      this.call({ method: 'GET', path: `/api/v1/external/withdrawals/${segment(withdrawalId)}` }),
    list: (query: ListWithdrawalsQuery = {}): Promise<WithdrawalList> =>
      this.call({ method: 'GET', path: '/api/v1/external/withdrawals', query }),
    iterate: (query: ListWithdrawalsQuery = {}): AsyncGenerator<WithdrawalListItem> => pages((q) => this.withdrawals.list(q), query),
  };

  readonly events = {
    get: (eventId: string): Promise<EventWithAttempts> => this.call({ method: 'GET', path: `/api/v1/external/events/${segment(eventId)}` }),
    list: (query: ListEventsQuery = {}): Promise<EventList> => this.call({ method: 'GET', path: '/api/v1/external/events', query }),
    iterate: (query: ListEventsQuery = {}): AsyncGenerator<Event> => pages((q) => this.events.list(q), query),
    /** Every event created since `checkpoint` (undefined: all of them), newest first page by page; see {@link EventFeed}. */
    since: (checkpoint?: string, options: EventsSinceOptions = {}): EventFeed => eventFeed((q) => this.events.list(q), checkpoint, options),
    /**
     * Replays every DEAD event created in `[since, until)` (until: default now; at most 31 days), each as `replay`
     * would. `eventIds` lists the first 1000; `replayed` counts all. A retry of the same call answers the same.
     */
    recover: (body: RecoverEventsRequest, options: CreateOptions = {}): Promise<RecoverEventsResponse> =>
      this.call({ method: 'POST', path: '/api/v1/external/events/recover', body, idempotencyKey: options.idempotencyKey ?? randomUUID() }),
    /** A new delivery cycle of a DELIVERED or DEAD event, with the same eventId (`conflict` while PENDING). */
    replay: (eventId: string, options: CreateOptions = {}): Promise<Event> =>
      this.call({
        method: 'POST',
        path: `/api/v1/external/events/${segment(eventId)}/replay`,
        idempotencyKey: options.idempotencyKey ?? randomUUID(),
      }),
  };

  readonly balance = {
    /** The site's balance in minor units: `available` to pay out, `reserved` for approved withdrawals not sent yet. */
    get: (): Promise<Balance> => this.call({ method: 'GET', path: '/api/v1/external/balance' }),
  };

  /** Every movement of the `available` and `reserved` balances, newest first: one leg of a posting each, with its cause. */
  readonly balanceTransactions = {
    list: (query: ListBalanceTransactionsQuery = {}): Promise<BalanceTransactionList> =>
      this.call({ method: 'GET', path: '/api/v1/external/balance-transactions', query }),
    iterate: (query: ListBalanceTransactionsQuery = {}): AsyncGenerator<BalanceTransaction> =>
      pages((q) => this.balanceTransactions.list(q), query),
  };

  /**
   * Signed daily statements: `get('2026-01-31')` answers one finished day in Europe/Istanbul (`conflict` with reason
   * `statement_not_final` before it is); check it with `verifyBalanceStatement` and a key from `keys()` or
   * docs/api.md, and keep the statement as it came.
   */
  readonly balanceStatements = {
    get: (date: string): Promise<BalanceStatement> =>
      this.call({ method: 'GET', path: `/api/v1/external/balance-statements/${segment(date)}` }),
    keys: (): Promise<BalanceStatementKeys> => this.call({ method: 'GET', path: '/api/v1/external/balance-statements/keys' }),
  };

  readonly webhookConfig = {
    /** The webhook URL and when it last changed; never the secret (rotate to get a new one). */
    get: (): Promise<WebhookConfig> => this.call({ method: 'GET', path: '/api/v1/external/site/webhook-config' }),
    /**
     * Sets the webhook URL; unless `rotateSecret` is false, also a new secret, returned in this answer only.
     * A rotating update is not idempotent (a repeat would rotate again, and the secret you hold would stop being
     * the "previous" one that keeps verifying), so it is retried only when the API cannot have acted on it: after
     * a 429 or a refused connection. With `rotateSecret: false` it is retried like any other call.
     */
    update: (body: UpdateWebhookConfigRequest): Promise<WebhookConfigResponse> =>
      this.call({
        method: 'PUT',
        path: '/api/v1/external/site/webhook-config',
        body,
        retry: body.rotateSecret === false ? 'any' : 'unprocessed',
      }),
    /**
     * Sends a signed sample of an event type (or `ping`) with `test: true` to the webhook URL now and says how the
     * attempt went (`delivered`, `statusCode`, `error`). Changes nothing, so it takes no idempotency key.
     */
    test: (body: TestWebhookRequest): Promise<TestWebhookResponse> =>
      this.call({ method: 'POST', path: '/api/v1/external/test/webhooks', body }),
  };

  /**
   * The simulator of the sandbox (docs/sandbox.md), for a test key only (a live key gets `not_found`): the money
   * and the operators' decisions a test deposit or withdrawal waits for, through the same matching, transitions and
   * signed webhooks as live ones. Each call sends an Idempotency-Key (a fresh UUID unless you pass one) kept through
   * its retries; a step answers the record as it now is and the `eventId` of the webhook it wrote (null when none).
   */
  readonly sandbox = {
    /**
     * Simulated money for a test deposit, matched as a bank statement line would be: the requested amount with the
     * deposit's reference and the user's name unless `amount`, `reference`, `senderName` or `late` say otherwise.
     */
    simulateTransfer: (intentId: string, body: SimulateTransferRequest = {}, options: CreateOptions = {}): Promise<SimulatedTransfer> =>
      this.simulate(`/deposits/${segment(intentId)}/transfers`, body, options),
    /** The operators' approval (default: credit everything that arrived); `conflict` unless money arrived for it. */
    approveDeposit: (intentId: string, body: SimulateApprovalRequest = {}, options: CreateOptions = {}): Promise<SimulatedIntent> =>
      this.simulate(`/deposits/${segment(intentId)}/approve`, body, options),
    /** The operators' rejection, with `intent.rejected`; `conflict` unless money arrived for it. */
    rejectDeposit: (intentId: string, body: SimulateRejectionRequest = {}, options: CreateOptions = {}): Promise<SimulatedIntent> =>
      this.simulate(`/deposits/${segment(intentId)}/reject`, body, options),
    /** Expires a RESERVED deposit (no money) now: AUTO_CANCELLED. */
    expireDeposit: (intentId: string, options: CreateOptions = {}): Promise<SimulatedIntent> =>
      this.simulate(`/deposits/${segment(intentId)}/expire`, {}, options),
    /** Reserves the amount on the sandbox's balance (`conflict` when it does not cover it); no webhook yet. */
    approveWithdrawal: (withdrawalId: string, options: CreateOptions = {}): Promise<SimulatedWithdrawal> =>
      this.simulate(`/withdrawals/${segment(withdrawalId)}/approve`, {}, options),
    /** The operators' rejection, with `withdrawal.rejected`. */
    rejectWithdrawal: (
      withdrawalId: string,
      body: SimulateRejectionRequest = {},
      options: CreateOptions = {},
    ): Promise<SimulatedWithdrawal> => this.simulate(`/withdrawals/${segment(withdrawalId)}/reject`, body, options),
    /** The bank pays an APPROVED withdrawal out: SENT, with `withdrawal.sent`. */
    sendWithdrawal: (withdrawalId: string, options: CreateOptions = {}): Promise<SimulatedWithdrawal> =>
      this.simulate(`/withdrawals/${segment(withdrawalId)}/send`, {}, options),
    /** The bank returns a SENT withdrawal with an ISO 20022 reason (default AC04): RETURNED, with `withdrawal.returned`. */
    returnWithdrawal: (withdrawalId: string, body: SimulateReturnRequest = {}, options: CreateOptions = {}): Promise<SimulatedWithdrawal> =>
      this.simulate(`/withdrawals/${segment(withdrawalId)}/return`, body, options),
  };

  constructor(options: KasaClientOptions) {
    if (!/^https?:\/\/[^/]/.test(options.baseUrl)) throw new TypeError('baseUrl must be an http(s) URL');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    const count = (value: number | undefined, fallback: number, name: string, min: number) => {
      const result = value ?? fallback;
      if (!Number.isInteger(result) || result < min) throw new RangeError(`${name} must be a whole number >= ${min}`);
      return result;
    };
    this.transport = {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      apiKey: options.apiKey,
      fetch: options.fetch ?? fetch,
      timeoutMs: count(options.timeoutMs, 10_000, 'timeoutMs', 1),
      maxRetries: count(options.maxRetries, 4, 'maxRetries', 0),
      retryBaseMs: count(options.retryBaseMs, 250, 'retryBaseMs', 0),
    };
  }

  private call<T>(request: ApiRequest): Promise<T> {
    return callApi<T>(this.transport, request);
  }

  /** A simulator step: POST under `/api/v1/external/test`, with its Idempotency-Key. */
  private simulate<T>(path: string, body: object, options: CreateOptions): Promise<T> {
    return this.call({
      method: 'POST',
      path: `/api/v1/external/test${path}`,
      body,
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
    });
  }
}

/** Every item of every page, fetching the next page (same filters, its `nextCursor`) only when needed. */
async function* pages<T, Q extends { cursor?: string }>(list: (query: Q) => Promise<Page<T>>, query: Q): AsyncGenerator<T> {
  let cursor = query.cursor;
  do {
    const page = await list(cursor === undefined ? query : { ...query, cursor });
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** The feed behind `events.since()`: pages of the window from the checkpoint (less the overlap) to now. */
function eventFeed(
  list: (query: ListEventsQuery) => Promise<EventList>,
  checkpoint: string | undefined,
  options: EventsSinceOptions,
): EventFeed {
  const overlapMs = options.overlapMs ?? 60_000;
  if (!Number.isInteger(overlapMs) || overlapMs < 0) throw new RangeError('overlapMs must be a whole number >= 0');
  const from = checkpoint === undefined ? undefined : Date.parse(checkpoint);
  if (from !== undefined && Number.isNaN(from)) throw new TypeError('checkpoint must be an ISO 8601 timestamp');
  const state = { checkpoint };
  return {
    get checkpoint() {
      return state.checkpoint;
    },
    async *[Symbol.asyncIterator]() {
      const createdFrom = from === undefined ? undefined : new Date(from - overlapMs).toISOString();
      let newest = state.checkpoint;
      for await (const event of pages(list, { ...options.query, ...(createdFrom ? { createdFrom } : {}) })) {
        // ISO 8601 UTC timestamps of one format sort as strings.
        if (newest === undefined || event.createdAt > newest) newest = event.createdAt;
        yield event;
      }
      state.checkpoint = newest;
    },
  };
}

/** A path segment; an id with `/` or `?` cannot reach another route. */
const segment = (id: string) => encodeURIComponent(id);
