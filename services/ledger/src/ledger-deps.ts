import { hkdfSync } from 'node:crypto';
import { Redis } from 'ioredis';
import type { KasaConfig } from '@kasa/config';
import { createPrismaClient, type PrismaClient } from '@kasa/db';
import { createLogger, type Logger } from '@kasa/logger';
import type { Queue } from 'bullmq';
import { createQueueConnection, createWebhookQueue, type DeliverEventJob } from '@kasa/queue';
import { CursorCodec } from './domain/cursor.js';
import { OutboxPublisher } from './outbox/outbox.publisher.js';
import { ApiKeyRepository } from './repositories/api-key.repository.js';
import { DepositRepository } from './repositories/deposit.repository.js';
import { ReceivingAccountRepository } from './repositories/receiving-account.repository.js';
import { SiteRepository } from './repositories/site.repository.js';
import { WithdrawalRepository } from './repositories/withdrawal.repository.js';

/** Everything the ledger's routes and use cases need, wired once by hand. */
export interface LedgerDeps {
  config: KasaConfig;
  logger: Logger;
  db: PrismaClient;
  redis: Redis;
  redisPrefix: string;
  sites: SiteRepository;
  apiKeys: ApiKeyRepository;
  deposits: DepositRepository;
  withdrawals: WithdrawalRepository;
  accounts: ReceivingAccountRepository;
  cursors: CursorCodec;
  depositTokenKey: Buffer;
  publicBaseUrl: string;
  /** BullMQ's own Redis connection (blocking-safe settings), separate from the command client above. */
  queueConnection: Redis;
  webhookQueue: Queue<DeliverEventJob>;
  outbox: OutboxPublisher;
}

export function createLedgerDeps(config: KasaConfig, overrides: Partial<LedgerDeps> = {}): LedgerDeps {
  const db = overrides.db ?? createPrismaClient({ connectionString: config.databaseUrl, max: 20 });
  const redis = overrides.redis ?? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true });
  const logger = overrides.logger ?? createLogger({ service: 'ledger', level: config.logLevel });
  const queueConnection = overrides.queueConnection ?? createQueueConnection(config.redisUrl);
  const webhookQueue = overrides.webhookQueue ?? createWebhookQueue(queueConnection, config.redisPrefix);
  const policy = { maxAttempts: config.webhookMaxAttempts, retryDelayMs: config.webhookRetryDelayMs };
  return {
    config,
    logger,
    db,
    redis,
    redisPrefix: config.redisPrefix,
    sites: new SiteRepository(db),
    apiKeys: new ApiKeyRepository(db),
    deposits: new DepositRepository(db),
    withdrawals: new WithdrawalRepository(db),
    accounts: new ReceivingAccountRepository(db),
    cursors: new CursorCodec(config.cursorSigningKey),
    // A key of its own for deposit tokens, derived so one configured secret serves both purposes safely.
    depositTokenKey: Buffer.from(hkdfSync('sha256', config.secretEncryptionKey, 'kasa', 'deposit-page-token', 32)),
    publicBaseUrl: config.publicBaseUrl,
    queueConnection,
    webhookQueue,
    outbox: new OutboxPublisher(db, webhookQueue, policy, logger),
    ...overrides,
  };
}
