import { createCommandRedis, subscribeChannel, type ChannelSubscription, type RedisClient } from '@kasa/redis';
import { authChangesChannel } from '@kasa/contracts';
import type { KasaConfig } from '@kasa/config';
import { createLogger, repeatLimited, type Logger } from '@kasa/logger';
import { LedgerClient } from './ledger-client.js';
import { IdempotencyStore } from './idempotency/idempotency.js';
import { InvalidKeyLimiter, RequestCounter, UNKNOWN_PAGE_TOKEN_POLICY } from './rate-limit/rate-limit.js';
import { LocalPrincipalCache } from './auth/principal-cache.js';
import { KnownKeys } from './auth/known-keys.js';

/** Everything the gateway needs, wired once by hand. */
export interface GatewayDeps {
  config: KasaConfig;
  logger: Logger;
  redis: RedisClient;
  redisPrefix: string;
  ledger: LedgerClient;
  idempotency: IdempotencyStore;
  requestCounter: RequestCounter;
  /** Failed API-key attempts per client address. */
  invalidKeys: InvalidKeyLimiter;
  /** Deposit-page links naming no deposit, per client address (UNKNOWN_PAGE_TOKEN_ATTEMPTS_PER_MINUTE). */
  unknownPageTokens: InvalidKeyLimiter;
  /** API keys this process resolved while Redis could not answer (auth/principal-cache.ts). */
  localPrincipals: LocalPrincipalCache;
  /** Active API keys read from the shared cache, kept while the ledger's auth changes are received (auth/known-keys.ts). */
  knownKeys: KnownKeys;
  /** The subscription to the ledger's auth changes that keeps {@link knownKeys} trusted; closed on stop. */
  authChanges: ChannelSubscription;
}

export function createGatewayDeps(config: KasaConfig, overrides: Partial<GatewayDeps> = {}): GatewayDeps {
  const logger = overrides.logger ?? createLogger({ service: 'gateway', level: config.logLevel });
  // A reconnect loop repeats its error: one line, then at most one per 5 s.
  const redisErrors = repeatLimited(logger);
  const redis =
    overrides.redis ??
    createCommandRedis(config, (error) => redisErrors('warn', 'redis connection error', { error: error.message }), {
      autoPipelining: true,
    });
  const knownKeys = overrides.knownKeys ?? new KnownKeys();
  return {
    config,
    logger,
    redis,
    redisPrefix: config.redisPrefix,
    ledger: overrides.ledger ?? new LedgerClient(config.ledgerUrl, config.internalToken, config.ledgerTimeoutMs),
    idempotency: overrides.idempotency ?? new IdempotencyStore(redis, config.redisPrefix),
    requestCounter: overrides.requestCounter ?? new RequestCounter(redis, config.redisPrefix),
    invalidKeys: overrides.invalidKeys ?? new InvalidKeyLimiter(redis, config.redisPrefix, config.invalidKeyAttemptsPerMinute),
    unknownPageTokens:
      overrides.unknownPageTokens ??
      new InvalidKeyLimiter(redis, config.redisPrefix, config.unknownPageTokenAttemptsPerMinute, UNKNOWN_PAGE_TOKEN_POLICY),
    localPrincipals: overrides.localPrincipals ?? new LocalPrincipalCache(),
    knownKeys,
    authChanges:
      overrides.authChanges ??
      subscribeChannel(
        config,
        authChangesChannel(config.redisPrefix),
        {
          message: (keyHash) => knownKeys.forget(keyHash),
          subscribed: () => knownKeys.trust(),
          lost: () => knownKeys.distrust(),
          error: (error) => redisErrors('warn', 'redis subscriber connection error', { error: error.message }),
        },
        `${config.redisPrefix}:gateway-auth-changes`,
      ),
    ...overrides,
  };
}
