/**
 * Typed configuration, parsed and validated once at start-up from environment variables.
 * Nothing else in the project reads `process.env`; a bad value stops the process with a message
 * naming the variable.
 */

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Everything a Kasa process can be configured with. Services read only the fields they need. */
export interface KasaConfig {
  nodeEnv: string;
  databaseUrl: string;
  redisUrl: string;
  /** Prefix for every Redis key and BullMQ queue, so several suites can share one Redis. */
  redisPrefix: string;
  gatewayPort: number;
  ledgerPort: number;
  workerPort: number;
  consolePort: number;
  /** Where operators reach the console; an https URL makes its session cookie Secure (and `__Host-` prefixed). */
  consolePublicUrl: string;
  ledgerUrl: string;
  internalToken: string;
  publicBaseUrl: string;
  opsBootstrapToken: string;
  depositIntentTtlSeconds: number;
  webhookRetryDelayMs: number;
  webhookMaxAttempts: number;
  webhookTimeoutMs: number;
  webhookAllowedHosts: string[];
  webhookAllowHttp: boolean;
  /** Ports a webhook URL may name (`WEBHOOK_ALLOWED_PORTS`), as inclusive ranges; no port means 443. */
  webhookAllowedPorts: PortRange[];
  webhookConcurrency: number;
  webhookPreviousSecretTtlSeconds: number;
  /** Most deliveries one worker process runs at once to a single site, so one slow partner cannot take every slot. */
  webhookSiteConcurrency: number;
  /** BullMQ job lock: a worker that dies (kill -9) loses its jobs to another worker after about this long. */
  webhookLockDurationMs: number;
  /** How often BullMQ looks for jobs whose worker died. */
  webhookStalledIntervalMs: number;
  /** PEM file of extra certificate authorities the worker trusts for webhook receivers (local/test CAs), besides the system ones. */
  webhookCaFile: string | null;
  /** How often the ledger's outbox relay looks for events that are not in the queue. */
  outboxRelayIntervalMs: number;
  /** An un-enqueued event younger than this is left to the publisher that is about to enqueue it. */
  outboxRelayGraceMs: number;
  /** A PENDING event enqueued longer ago than this is checked for a job Redis may have lost. */
  outboxRelayLostJobAfterMs: number;
  /** 32-byte key (base64) that encrypts webhook secrets at rest. */
  secretEncryptionKey: Buffer;
  /** Secret that binds list cursors to their filters (HMAC). */
  cursorSigningKey: string;
  logLevel: string;
  /** How often the ledger sweeps RESERVED intents past expiresAt into AUTO_CANCELLED. */
  expirySweepIntervalMs: number;
  /** Failed API-key attempts one client address may make per minute before the gateway answers 429. */
  invalidKeyAttemptsPerMinute: number;
  /** The fixed window of every operator-login allowance below (from a key's first attempt). */
  opsLoginWindowSeconds: number;
  /** Login attempts per window for one e-mail from one client address; a successful login gives them back. */
  opsLoginAttemptsPerAccountAddress: number;
  /** Login attempts per window from one client address, whatever the e-mail. */
  opsLoginAttemptsPerAddress: number;
  /** Login attempts per window for one e-mail from addresses it has never logged in from. */
  opsLoginAttemptsPerAccount: number;
  /** How far past `expiresAt` a transfer's bank `receivedAt` still counts as on time (the bank's clock and ours differ). */
  arrivalClockSkewMs: number;
  /** Lifetime of an operator token issued by console login. */
  operatorSessionTtlSeconds: number;
}

/** An inclusive range of TCP ports; a single port is a range of one. */
export interface PortRange {
  from: number;
  to: number;
}

const DEV_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/kasa';
const DEV_REDIS_URL = 'redis://127.0.0.1:6379';

function str(env: Env, name: string, fallback?: string): string {
  const value = env[name];
  if (value === undefined || value === '') {
    if (fallback === undefined) throw new ConfigError(name, 'is required');
    return fallback;
  }
  return value;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

/** A comma list of ports and inclusive ranges such as `443,1024-65535`, each within 1-65535. */
function portRanges(env: Env, name: string, fallback: string): PortRange[] {
  const raw = str(env, name, fallback);
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const problem = () =>
    new ConfigError(name, `must be a comma-separated list of ports and ranges within 1-65535 such as "443,1024-65535", got "${raw}"`);
  if (entries.length === 0) throw problem();
  return entries.map((entry) => {
    const match = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(entry);
    if (!match) throw problem();
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > 65535 || from > to) throw problem();
    return { from, to };
  });
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string {
  const value = str(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be a URL');
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  }
  return value.replace(/\/+$/, '');
}

function secret(env: Env, name: string, production: boolean, devFallback: string): string {
  const value = production ? str(env, name) : str(env, name, devFallback);
  if (value.length < 16) throw new ConfigError(name, 'must be at least 16 characters');
  return value;
}

function encryptionKey(env: Env, production: boolean): Buffer {
  const name = 'SECRET_ENCRYPTION_KEY';
  // The development key is fixed and public: it only protects local demo data.
  const raw = production ? str(env, name) : str(env, name, Buffer.alloc(32, 7).toString('base64'));
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(name, 'must be 32 bytes, base64-encoded');
  return key;
}

/** Parses and validates the whole configuration; throws {@link ConfigError} naming the first bad variable. */
export function loadConfig(env: Env = process.env): KasaConfig {
  const nodeEnv = str(env, 'NODE_ENV', 'development');
  const production = nodeEnv === 'production';
  const ledgerPort = int(env, 'LEDGER_PORT', 8081, 0, 65535);
  const gatewayPort = int(env, 'GATEWAY_PORT', 8080, 0, 65535);
  const consolePort = int(env, 'CONSOLE_PORT', 8083, 0, 65535);
  return {
    nodeEnv,
    databaseUrl: url(env, 'DATABASE_URL', production ? undefined : DEV_DATABASE_URL, ['postgresql:', 'postgres:']),
    redisUrl: url(env, 'REDIS_URL', production ? undefined : DEV_REDIS_URL, ['redis:', 'rediss:']),
    redisPrefix: str(env, 'REDIS_PREFIX', 'kasa'),
    gatewayPort,
    ledgerPort,
    workerPort: int(env, 'WORKER_PORT', 8082, 0, 65535),
    consolePort,
    consolePublicUrl: url(env, 'CONSOLE_PUBLIC_URL', `http://127.0.0.1:${consolePort}`, ['http:', 'https:']),
    ledgerUrl: url(env, 'LEDGER_URL', `http://127.0.0.1:${ledgerPort}`, ['http:', 'https:']),
    internalToken: secret(env, 'INTERNAL_TOKEN', production, 'dev-internal-token-change-me'),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', `http://127.0.0.1:${gatewayPort}`, ['http:', 'https:']),
    opsBootstrapToken: secret(env, 'OPS_BOOTSTRAP_TOKEN', production, 'dev-ops-bootstrap-token-change-me'),
    depositIntentTtlSeconds: int(env, 'DEPOSIT_INTENT_TTL_SECONDS', 1800, 1, 604800),
    webhookRetryDelayMs: int(env, 'WEBHOOK_RETRY_DELAY_MS', 300000, 0, 86400000),
    webhookMaxAttempts: int(env, 'WEBHOOK_MAX_ATTEMPTS', 8, 1, 100),
    webhookTimeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10000, 100, 120000),
    webhookAllowedHosts: str(env, 'WEBHOOK_ALLOWED_HOSTS', '')
      .split(',')
      .map((host) => host.trim())
      .filter((host) => host.length > 0),
    webhookAllowHttp: bool(env, 'WEBHOOK_ALLOW_HTTP', false),
    webhookAllowedPorts: portRanges(env, 'WEBHOOK_ALLOWED_PORTS', '443,1024-65535'),
    webhookConcurrency: int(env, 'WEBHOOK_CONCURRENCY', 50, 1, 1000),
    webhookPreviousSecretTtlSeconds: int(env, 'WEBHOOK_PREVIOUS_SECRET_TTL_SECONDS', 86400, 0, 2592000),
    webhookSiteConcurrency: int(env, 'WEBHOOK_SITE_CONCURRENCY', 10, 1, 1000),
    webhookLockDurationMs: int(env, 'WEBHOOK_LOCK_DURATION_MS', 30000, 1000, 600000),
    webhookStalledIntervalMs: int(env, 'WEBHOOK_STALLED_INTERVAL_MS', 30000, 500, 600000),
    webhookCaFile: env.WEBHOOK_CA_FILE ? env.WEBHOOK_CA_FILE : null,
    outboxRelayIntervalMs: int(env, 'OUTBOX_RELAY_INTERVAL_MS', 3000, 100, 600000),
    outboxRelayGraceMs: int(env, 'OUTBOX_RELAY_GRACE_MS', 5000, 0, 3600000),
    outboxRelayLostJobAfterMs: int(env, 'OUTBOX_RELAY_LOST_JOB_AFTER_MS', 60000, 1000, 86400000),
    secretEncryptionKey: encryptionKey(env, production),
    cursorSigningKey: secret(env, 'CURSOR_SIGNING_KEY', production, 'dev-cursor-signing-key-change-me'),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    expirySweepIntervalMs: int(env, 'EXPIRY_SWEEP_INTERVAL_MS', 5000, 100, 3600000),
    invalidKeyAttemptsPerMinute: int(env, 'INVALID_KEY_ATTEMPTS_PER_MINUTE', 30, 1, 100000),
    opsLoginWindowSeconds: int(env, 'OPS_LOGIN_WINDOW_SECONDS', 900, 1, 86400),
    opsLoginAttemptsPerAccountAddress: int(env, 'OPS_LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS', 5, 1, 1000),
    opsLoginAttemptsPerAddress: int(env, 'OPS_LOGIN_ATTEMPTS_PER_ADDRESS', 30, 1, 100000),
    opsLoginAttemptsPerAccount: int(env, 'OPS_LOGIN_ATTEMPTS_PER_ACCOUNT', 50, 1, 100000),
    arrivalClockSkewMs: int(env, 'ARRIVAL_CLOCK_SKEW_SECONDS', 60, 0, 900) * 1000,
    operatorSessionTtlSeconds: int(env, 'OPERATOR_SESSION_TTL_SECONDS', 43200, 60, 2592000),
  };
}
