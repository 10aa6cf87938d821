import { PayoutBatchRepository } from './payouts/payout-batch.repository.js';
import { kindRepositories, recordKindsOwnedBySites, type KindRepositories } from './record-kinds.js';
import { hkdfSync } from 'node:crypto';
import { createCommandRedis, type RedisClient } from '@kasa/redis';
import type { KasaConfig } from '@kasa/config';
import { createDatabase, createPool, ReplicaReads, type PrismaClient } from '@kasa/db';
import type pg from 'pg';
import { createLogger, repeatLimited, type Logger } from '@kasa/logger';
import type { Queue } from 'bullmq';
import { createQueueConnection, createWebhookQueue, type DeliverEventJob } from '@kasa/queue';
import { CursorCodec } from './shared/cursor.js';
import { OutboxPublisher } from './outbox/outbox.publisher.js';
import { OutboxRelay } from './outbox/outbox.relay.js';
import { FollowUpRepository } from './follow-ups/follow-up.repository.js';
import { IdempotencyRecordRepository } from './shared/idempotency-record.repository.js';
import { EventRepository } from './events/event.repository.js';
import { WebhookUrlGuard } from '@kasa/net-guard';
import { totpSecretBox, webhookSecretBox, type SecretBox } from '@kasa/secret-box';
import { trustedAuthorities, WebhookSender } from '@kasa/webhook-sender';
import { ApiKeyRepository } from './sites/api-key.repository.js';
import { ReceivingAccountRepository } from './sites/receiving-account.repository.js';
import { ReconciliationRepository } from './reconciliation/reconciliation.repository.js';
import { SiteRepository } from './sites/site.repository.js';
import { BankTransferRepository } from './bank-transfers/bank-transfer.repository.js';
import { createExpiryQueue, ExpiryScheduler, type ExpiryJob } from './expiry/expiry.queue.js';
import { ExpiryRepository } from './expiry/expiry.repository.js';
import { JournalRepository } from './journal/journal.repository.js';
import { BalanceMovementRepository } from './journal/balance-movements.repository.js';
import { StatementSigner } from './journal/statement-signer.js';
import { AuditQueryRepository } from './operators/audit-query.repository.js';
import { HistoryRepository } from './history/history.repository.js';
import { HistorySealRepository } from './history/history-seal.repository.js';
import { sealKeys, type SealKeys } from './history/history-seal.js';
import { LoginThrottle } from './operators/login-throttle.js';
import { OperatorRepository } from './operators/operator.repository.js';
import { DepositReviewRepository } from './deposits/deposit-review.repository.js';
import { WithdrawalReviewRepository } from './withdrawals/withdrawal-review.repository.js';
import { systemClock, type Clock } from './shared/clock.js';
import { ScreeningListRepository } from './screening/screening-list.repository.js';
import { RiskRepository } from './risk/risk.repository.js';
import { ScreeningRepository } from './screening/screening.repository.js';
import { ListIndex } from './screening/list-index.js';
import { ErasureRepository } from './erasure/erasure.repository.js';
import type { CheckedElsewhere } from './journal/journal-problem.js';
import { reconcileAll } from './reconciliation/reconcile-account.use-case.js';
import { verifyHistory } from './history/verify-history.use-case.js';
import type { RemainderReturns } from './deposits/review-deposit.use-case.js';
import { requestRemainderReturns } from './returns/sender-return.use-case.js';
import type { FollowUpRunner } from './follow-ups/follow-up-work.js';
import type { DepositTransfers } from './deposits/deposits-ops.routes.js';
import { toOpsBankTransfer } from './bank-transfers/bank-transfer.views.js';
import { runFollowUps } from './follow-ups/run-follow-ups.use-case.js';
import type { SiteOwnedRecord } from './operators/site-scope.guard.js';

/**
 * Everything the ledger's routes and use cases need, wired once by hand; the repositories a record kind's folder alone
 * uses (`deposits`, `withdrawals`, `statements`, `senderReturns`, `balanceAdjustments`) come from the kinds'
 * descriptors (KindRepositories, record-kinds.ts).
 */
export interface LedgerDeps extends KindRepositories {
  config: KasaConfig;
  logger: Logger;
  /** "Now" for every decision by time; a test passes one it controls. */
  clock: Clock;
  db: PrismaClient;
  /** The pool under `db`, for the partner API's hot statements. */
  pool: pg.Pool;
  /** A read replica's pool (DATABASE_READ_URL) for partner lists; null without one. */
  readPool: pg.Pool | null;
  redis: RedisClient;
  redisPrefix: string;
  sites: SiteRepository;
  apiKeys: ApiKeyRepository;
  accounts: ReceivingAccountRepository;
  cursors: CursorCodec;
  depositTokenKey: Buffer;
  publicBaseUrl: string;
  /** BullMQ's own Redis connection (blocking-safe settings), separate from the command client above. */
  queueConnection: RedisClient;
  webhookQueue: Queue<DeliverEventJob>;
  outbox: OutboxPublisher;
  /** Enqueues events the publisher could not (started and stopped with the ledger). */
  outboxRelay: OutboxRelay;
  /** The delivery ledger: outbox events and their attempts. */
  events: EventRepository;
  /** Stored answers to partner requests that create no record of their own (event replays). */
  idempotencyRecords: IdempotencyRecordRepository;
  /** The private-address guard applied when a webhook URL is configured. */
  webhookUrlGuard: WebhookUrlGuard;
  /** Seals webhook signing secrets at rest (AES-256-GCM, bound to the site id). */
  webhookSecrets: SecretBox;
  /** Sends test webhooks as the worker sends deliveries (@kasa/webhook-sender), with a short timeout. */
  webhookSender: WebhookSender;
  /** Operator accounts and tokens (ops API auth). */
  operators: OperatorRepository;
  /** Operator login allowances in Redis (OPS_LOGIN_*), second-factor codes included. */
  loginThrottle: LoginThrottle;
  /** Seals operators' TOTP secrets at rest (AES-256-GCM, bound to the operator id). */
  totpSecrets: SecretBox;
  /**
   * Locks and conditional updates of intents under review, and the operators' deposit lists; built here rather than by
   * their kind: bank transfers, returns, screening and the sandbox read them too.
   */
  depositReview: DepositReviewRepository;
  /**
   * Locks and conditional updates of withdrawals under review, and the operators' withdrawal lists; built here rather
   * than by their kind: screening and the sandbox read them too.
   */
  withdrawalReview: WithdrawalReviewRepository;
  /** The sites' double-entry journal and its balances. */
  journal: JournalRepository;
  /** A site's balance movements: the partner's list and signed daily statements, and their journal check. */
  balanceMovements: BalanceMovementRepository;
  /** Signs the daily balance statements (`STATEMENT_SIGNING_KEY`). */
  statementSigner: StatementSigner;
  /** Bank transfers, built here rather than by their kind: deposits and returns read them too. */
  bankTransfers: BankTransferRepository;
  /** Payout batches: approved payouts gathered into files for the bank. */
  payoutBatches: PayoutBatchRepository;
  /** Work commits promised (straight-through approvals, payouts confirmed by bank lines), until it is done. */
  followUps: FollowUpRepository;
  /** Each receiving account's statements against the lines recorded on it (reconciliation). */
  reconciliation: ReconciliationRepository;
  expiries: ExpiryRepository;
  /** The repeatable expiry sweep (BullMQ `deposit-expiry`). */
  expiryQueue: Queue<ExpiryJob>;
  expiryScheduler: ExpiryScheduler;
  auditLog: AuditQueryRepository;
  /** The hash chains over the audit log and the journal (docs/compliance.md, Tamper-evident history). */
  history: HistoryRepository;
  /** The imported sanctions and asset-freeze lists (docs/compliance.md, Sanctions and asset-freeze screening). */
  screeningLists: ScreeningListRepository;
  /** This ledger's screening index over the lists' current versions, rebuilt when a version changes. */
  listIndex: ListIndex;
  /** Screenings of names and the holds their hits put on withdrawals and deposits. */
  screenings: ScreeningRepository;
  /** The daily signed seals of the chains (docs/compliance.md, Tamper-evident history). */
  historySeals: HistorySealRepository;
  /** HISTORY_SEAL_KEY (signs) and the public keys seals are verified with. */
  sealKeys: SealKeys;
  /** Erasure requests, legal holds and the destruction log (docs/compliance.md, Retention and erasure). */
  erasure: ErasureRepository;
  /** The reconciliation and the history walk, as the journal check reports them (wired here: the journal does not import them). */
  checkedElsewhere: CheckedElsewhere;
  /** A deposit's bank transfers as the ops API shows them (bank-transfers/), for the deposit's detail. */
  depositTransfers: DepositTransfers;
  /** Carries out follow-ups at once, for the batch of lines that promised them (follow-ups/). */
  followUpRunner: FollowUpRunner;
  /** A partial approval's remainder returned to its senders (returns/), as deposit review asks for it. */
  remainderReturns: RemainderReturns;
  /**
   * Each kind of record a site owns, by the path parameter that names it, its 404 detail and its repository's answer to
   * "which site?", for the operator-scope guard (operators/site-scope.guard.ts): a reviewed record kind's comes from
   * its descriptor (record-kinds.ts), any other kind's is added in `siteOwnedRecordsOf` below.
   */
  siteOwnedRecords: readonly SiteOwnedRecord[];
  /** Risk flags and the bank lines still to evaluate (docs/compliance.md, Risk flags and reports). */
  risk: RiskRepository;
}

/** How long a list waits to connect to the read replica, and for its answer, before it reads the primary instead. */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
const REPLICA_QUERY_TIMEOUT_MS = 2_000;
/**
 * A test webhook answers the person who asked while they wait: at most this long (or WEBHOOK_TIMEOUT_MS if shorter),
 * under the gateway's default LEDGER_TIMEOUT_MS of 10 s, so a slow receiver is reported rather than a 503.
 */
const TEST_WEBHOOK_TIMEOUT_MS = 8_000;

/** Connections of the primary's pool (Prisma's and the hot statements'); the postings bench sizes its floor's pool by it. */
export const PRIMARY_POOL_MAX = 20;

/**
 * Each kind of record a site owns, by the path parameter that names it, its 404 detail and its repository's answer to
 * "which site?", for the operator-scope guard: sites, API keys and events here, the reviewed records from their kinds
 * (record-kinds.ts). `repos` is read only when a lookup runs, so the list is built with the deps it belongs to (and a
 * test can build it without them).
 */
export function siteOwnedRecordsOf(repos: () => LedgerDeps): SiteOwnedRecord[] {
  return [
    { param: 'siteId', notFound: 'No site with this id.', siteOf: (id) => repos().sites.siteOfRecord(id) },
    { param: 'apiKeyId', notFound: 'No API key with this id.', siteOf: (id) => repos().apiKeys.siteOfRecord(id) },
    ...recordKindsOwnedBySites(repos),
    { param: 'eventId', notFound: 'No event with this id.', siteOf: (id) => repos().events.siteOfRecord(id) },
  ];
}

export function createLedgerDeps(config: KasaConfig, overrides: Partial<LedgerDeps> = {}): LedgerDeps {
  const database = overrides.db && overrides.pool ? null : createDatabase({ connectionString: config.databaseUrl, max: PRIMARY_POOL_MAX });
  const db = overrides.db ?? (database as NonNullable<typeof database>).prisma;
  const pool = overrides.pool ?? (database as NonNullable<typeof database>).pool;
  const readPool =
    overrides.readPool !== undefined
      ? overrides.readPool
      : config.databaseReadUrl
        ? createPool({
            connectionString: config.databaseReadUrl,
            max: 20,
            // A dead or hung replica must cost a list a moment, not seconds: its error sends the read to the primary.
            connectionTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
            queryTimeoutMs: REPLICA_QUERY_TIMEOUT_MS,
          })
        : null;
  const logger = overrides.logger ?? createLogger({ service: 'ledger', level: config.logLevel });
  // A reconnect loop repeats its error: one line, then at most one per 5 s.
  const redisErrors = repeatLimited(logger);
  const redis =
    overrides.redis ?? createCommandRedis(config, (error) => redisErrors('warn', 'redis connection error', { error: error.message }));
  const clock = overrides.clock ?? systemClock;
  const queueConnection = overrides.queueConnection ?? createQueueConnection(config);
  // Logged as JSON (ioredis prints raw lines without a listener), held back when repeated; the command client
  // above warns about the same outage already.
  const queueErrors = repeatLimited(logger);
  if (!overrides.queueConnection)
    queueConnection.on('error', (error: Error) => queueErrors('debug', 'queue connection error', { error: error.message }));
  const webhookQueue = overrides.webhookQueue ?? createWebhookQueue(queueConnection, config.redisPrefix);
  const outbox = overrides.outbox ?? new OutboxPublisher(db, webhookQueue, logger);
  const events = overrides.events ?? new EventRepository(db);
  const expiryQueue = overrides.expiryQueue ?? createExpiryQueue(queueConnection, config.redisPrefix);
  const relayOptions = {
    intervalMs: config.outboxRelayIntervalMs,
    graceMs: config.outboxRelayGraceMs,
    lostJobAfterMs: config.outboxRelayLostJobAfterMs,
  };
  // Lists may lag, so they read the replica; a failing replica is skipped for a few seconds (ReplicaReads).
  const lists = new ReplicaReads(pool, readPool, {
    onReplicaError: (error) => logger.warn('read replica failed; lists read the primary for a few seconds', { error: error.message }),
  });
  // Named statements live on one server connection: only where each client keeps its own (session mode).
  const recordAccess = { lists, namedStatements: config.databasePoolMode === 'session' };
  const webhookUrlGuard =
    overrides.webhookUrlGuard ??
    new WebhookUrlGuard({
      allowedHosts: config.webhookAllowedHosts,
      allowHttp: config.webhookAllowHttp,
      allowedPorts: config.webhookAllowedPorts,
    });
  const ca = trustedAuthorities(config.webhookCaFile);
  const screeningLists = new ScreeningListRepository(db);
  const deps: LedgerDeps = {
    config,
    logger,
    clock,
    db,
    pool,
    redis,
    redisPrefix: config.redisPrefix,
    sites: new SiteRepository(db),
    apiKeys: new ApiKeyRepository(db),
    // Each record kind's own repositories (review/record-kind.ts); the ones other folders share are built below.
    ...kindRepositories({ db, pool, siteScoped: recordAccess }),
    readPool,
    accounts: new ReceivingAccountRepository(db),
    cursors: new CursorCodec(config.cursorSigningKey),
    // A key of its own for deposit tokens, derived so one configured secret serves both purposes safely.
    depositTokenKey: Buffer.from(hkdfSync('sha256', config.secretEncryptionKey, 'kasa', 'deposit-page-token', 32)),
    publicBaseUrl: config.publicBaseUrl,
    queueConnection,
    webhookQueue,
    outbox,
    outboxRelay: new OutboxRelay(events, webhookQueue, outbox, relayOptions, logger),
    events,
    idempotencyRecords: new IdempotencyRecordRepository(db),
    webhookUrlGuard,
    webhookSecrets: webhookSecretBox(config.secretEncryptionKey),
    webhookSender:
      overrides.webhookSender ??
      new WebhookSender({
        timeoutMs: Math.min(config.webhookTimeoutMs, TEST_WEBHOOK_TIMEOUT_MS),
        guard: webhookUrlGuard,
        ...(ca ? { ca } : {}),
        maxSocketsPerHost: 4,
      }),
    operators: new OperatorRepository(db, { pool, namedStatements: recordAccess.namedStatements }),
    loginThrottle: new LoginThrottle(redis, config.redisPrefix, config),
    totpSecrets: totpSecretBox(config.secretEncryptionKey),
    depositReview: new DepositReviewRepository(db),
    withdrawalReview: new WithdrawalReviewRepository(db),
    journal: new JournalRepository(db),
    balanceMovements: new BalanceMovementRepository(db),
    statementSigner: new StatementSigner(config.statementSigningKey),
    bankTransfers: new BankTransferRepository(db),
    payoutBatches: new PayoutBatchRepository(db),
    followUps: new FollowUpRepository(db),
    reconciliation: new ReconciliationRepository(db),
    expiries: new ExpiryRepository(db, clock),
    expiryQueue,
    expiryScheduler: new ExpiryScheduler(expiryQueue, logger),
    auditLog: new AuditQueryRepository(db),
    history: new HistoryRepository(),
    screeningLists,
    listIndex: new ListIndex(screeningLists),
    screenings: new ScreeningRepository(db),
    historySeals: new HistorySealRepository(),
    sealKeys: sealKeys(config.historySealKey.privateKey, config.historySealPublicKeys),
    erasure: new ErasureRepository(db),
    risk: new RiskRepository(db),
    depositTransfers: {
      ofDeposit: async (intentId) => (await deps.bankTransfers.listForDeposit(intentId)).map(toOpsBankTransfer),
    },
    followUpRunner: {
      run: (requestId, selection) => runFollowUps(deps, requestId, selection),
    },
    remainderReturns: {
      request: (tx, request, remainder) => requestRemainderReturns(deps, tx, request, remainder),
    },
    checkedElsewhere: {
      reconcileAll: () => reconcileAll(deps),
      verifyHistory: () => verifyHistory(deps),
    },
    siteOwnedRecords: siteOwnedRecordsOf(() => deps),
    ...overrides,
  };
  return deps;
}
