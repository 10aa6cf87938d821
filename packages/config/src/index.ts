/**
 * Typed configuration, parsed and validated once at start-up from environment variables.
 * Nothing else in the project reads `process.env`; a bad value stops the process with a message
 * naming the variable.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';

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
  /**
   * Optional read replica (`DATABASE_READ_URL`) for the partner API's lists, which may lag by the replica's
   * delay; null sends every query to `databaseUrl`. Lookups, writes, reviews and anything read inside a
   * transaction always use the primary, and a list the replica fails to answer is read from the primary.
   */
  databaseReadUrl: string | null;
  /**
   * What stands between Kasa and PostgreSQL (`DATABASE_POOL_MODE`): `session` (PostgreSQL itself, or a pooler
   * that gives each client a server connection for its whole session) or `transaction` (PgBouncer, RDS Proxy or
   * Supavisor in transaction mode, where consecutive statements of one client may run on different server
   * connections). Under `transaction` Kasa uses no named prepared statement and no session state.
   */
  databasePoolMode: DatabasePoolMode;
  /**
   * Which proxies in front of the gateway and console are trusted to report the client's address
   * (`TRUST_PROXY`): false (none, the default), a hop count, or addresses, CIDRs and Express's names
   * `loopback`, `linklocal`, `uniquelocal`. Per-address limits (invalid API keys, operator logins) use it.
   */
  trustProxy: false | number | string[];
  /** One Redis (`REDIS_URL`); with `redisClusterNodes` set, only its username, password and `rediss:` (TLS) are used. */
  redisUrl: string;
  /**
   * A Redis Cluster's seed nodes (`REDIS_CLUSTER_NODES=host:port,...`): when set, every Redis connection is a
   * cluster client that follows the cluster's slots, in place of the single Redis of `redisUrl`. Null without it.
   */
  redisClusterNodes: RedisNode[] | null;
  /** Prefix for every Redis key and BullMQ queue, so several suites can share one Redis. */
  redisPrefix: string;
  /**
   * BIND_ADDRESS: the address every service listens on. 127.0.0.1 by default, so a local run is not reachable from
   * the network (the ledger's ops API with a published dev token); containers set 0.0.0.0 (compose, k8s).
   */
  bindAddress: string;
  gatewayPort: number;
  ledgerPort: number;
  workerPort: number;
  consolePort: number;
  /** Where operators reach the console; an https URL makes its session cookie Secure (and `__Host-` prefixed). */
  consolePublicUrl: string;
  /** CONSOLE_TIME_ZONE: the IANA zone the console shows times in (Europe/Istanbul by default, where the desk works). */
  consoleTimeZone: string;
  /** REVIEW_WAIT_WARN_MINUTES: the console marks a queue item that has waited longer, and the dashboard counts them. */
  reviewWaitWarnMinutes: number;
  /**
   * OPS_READ_TIMEOUT_MS: the statement timeout of the ledger's ops search, ops list pages (CSV exports' too),
   * dashboard counts and delivery health; past it the read is cancelled and answers 503.
   */
  opsReadTimeoutMs: number;
  ledgerUrl: string;
  /** LEDGER_TIMEOUT_MS: how long the gateway waits for the ledger's answer before answering 503. */
  ledgerTimeoutMs: number;
  /**
   * IDEMPOTENCY_LOST_RECORD_GUARD: for a write database that fails over to ASYNCHRONOUS replicas. The gateway then
   * remembers each create's key in Redis (a claim before, the answer after), so a retry of a create the failover lost
   * is refused with 409 `idempotency_record_lost` instead of created again. Off by default: with a synchronous
   * standby (docs/scaling.md) no committed create is lost, and the ledger's record alone decides a create's key.
   */
  idempotencyLostRecordGuard: boolean;
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
  /**
   * Of `webhookConcurrency`, the most attempts in flight to failing or unanswering sites (the failing lane,
   * ADR 0017): `WEBHOOK_FAILING_CONCURRENCY`, by default a quarter.
   */
  webhookFailingConcurrency: number;
  /** BullMQ job lock: a worker that dies (kill -9) loses its jobs to another worker after about this long. */
  webhookLockDurationMs: number;
  /** How often BullMQ looks for jobs whose worker died. */
  webhookStalledIntervalMs: number;
  /** PEM file of extra certificate authorities the worker trusts for webhook receivers (local/test CAs), besides the system ones. */
  webhookCaFile: string | null;
  /** Retry jitter in percent of WEBHOOK_RETRY_DELAY_MS (`WEBHOOK_RETRY_JITTER_PERCENT`, default 10): each retry waits the delay +/- this much. */
  webhookRetryJitterPercent: number;
  /** DEAD events created this many hours back or less are replayed by themselves once their site answers again (0 turns it off). */
  webhookAutoReplayWindowHours: number;
  /** How often the worker probes the endpoints of sites that have DEAD events and no recent successful delivery. */
  webhookProbeIntervalMs: number;
  /** How often the ledger's outbox relay looks for events that are not in the queue. */
  outboxRelayIntervalMs: number;
  /** An un-enqueued event younger than this is left to the publisher that is about to enqueue it. */
  outboxRelayGraceMs: number;
  /** A PENDING event enqueued longer ago than this is checked for a job Redis may have lost. */
  outboxRelayLostJobAfterMs: number;
  /** How often the ledger's follow-up worker looks for work a commit promised and nobody finished (a crash after commit). */
  followUpIntervalMs: number;
  /** Follow-ups younger than this are left to the request that wrote them, which does them at once. */
  followUpGraceMs: number;
  /** How often the ledger's history worker links newly committed audit and journal entries into their hash chains. */
  historyChainIntervalMs: number;
  /** How often the ledger's re-screening worker screens open records again after a sanctions list import. */
  screeningRescreenIntervalMs: number;
  /**
   * Retention classes (docs/compliance.md, Retention and erasure): how many years after its end user's last transaction
   * on the site (a bank line with no user: after its own booking) each kind of record is kept before it is anonymised.
   */
  retentionYears: RetentionYears;
  /** How often the ledger's destruction job anonymises records whose retention ended (KVKK: at least every 6 months). */
  destructionIntervalMs: number;
  /** Risk flags (docs/compliance.md, Risk flags and reports): the rules' thresholds, the review deadline and the worker's pace. */
  risk: RiskSettings;
  /** 32-byte key (base64) that encrypts webhook secrets at rest. */
  secretEncryptionKey: Buffer;
  /** Secret that binds list cursors to their filters (HMAC). */
  cursorSigningKey: string;
  /** The 32-byte ed25519 private key (seed) that signs partners' daily balance statements (docs/api.md). */
  statementSigningKey: Buffer;
  /** HISTORY_SEAL_KEY: the ed25519 key that signs each Istanbul day's seal of the history chains (docs/compliance.md). */
  historySealKey: HistorySealKey;
  /** HISTORY_SEAL_PUBLIC_KEYS: earlier seal keys' public keys, so seals signed before a rotation still verify. */
  historySealPublicKeys: KeyObject[];
  logLevel: string;
  /** How often the ledger sweeps RESERVED intents past expiresAt into AUTO_CANCELLED. */
  expirySweepIntervalMs: number;
  /** Failed API-key attempts one client address may make per minute before the gateway answers 429. */
  invalidKeyAttemptsPerMinute: number;
  /** Deposit-page links naming no deposit one client address may open per minute before the gateway answers 429. */
  unknownPageTokenAttemptsPerMinute: number;
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
  /** Roles whose operators must use a second factor (TOTP) to log in and act; `ADMIN` in production by default. */
  operator2faRequired: SecondFactorRole[];
  /** Approving more than this (kuruş) needs a second-factor code entered on the token in the last ten minutes. */
  stepUpAboveKurus: bigint;
  /** Four-eyes: a withdrawal or sender return above this (kuruş) needs two operators' approvals; a site may set its own. */
  dualApprovalAboveKurus: bigint;
  /** How long a lone first approval stands before it expires and the payout needs two approvals again. */
  dualApprovalWindowSeconds: number;
  /** On SIGTERM, how long a service finishes in-flight work before it drops what is left and exits (non-zero). */
  shutdownGraceMs: number;
}

/** The seal key: its private half, and whether it is the published development key (never in production). */
export interface HistorySealKey {
  privateKey: KeyObject;
  development: boolean;
}

/** The roles `OPERATOR_2FA_REQUIRED` may name: the people who log in (a bank connector never does). */
export type SecondFactorRole = 'ADMIN' | 'REVIEWER';

/** `DATABASE_POOL_MODE`: how long a server connection belongs to one of Kasa's connections (see KasaConfig). */
export type DatabasePoolMode = 'session' | 'transaction';

/** An inclusive range of TCP ports; a single port is a range of one. */
export interface PortRange {
  from: number;
  to: number;
}

/** One seed node of a Redis Cluster (`REDIS_CLUSTER_NODES`). */
export interface RedisNode {
  host: string;
  port: number;
}

const DEV_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/kasa';
const DEV_REDIS_URL = 'redis://127.0.0.1:6379';
// The development fallbacks of the secrets below (used outside production only).
const DEV_INTERNAL_TOKEN = 'dev-internal-token-change-me';
const DEV_OPS_BOOTSTRAP_TOKEN = 'dev-ops-bootstrap-token-change-me';
const DEV_CURSOR_SIGNING_KEY = 'dev-cursor-signing-key-change-me';
const DEV_SECRET_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');
// A public ed25519 seed (base64 of the 32 ASCII bytes "kasa-statement-dev-key-change-me"): development statements
// verify against its published public key (docs/api.md), and prove nothing.
const DEV_STATEMENT_SIGNING_KEY = Buffer.from('kasa-statement-dev-key-change-me').toString('base64');
// The development seal key's 32-byte ed25519 seed: base64 of the ASCII bytes "kasa-dev-seal-key-change-me-32b!".
const DEV_HISTORY_SEAL_KEY = 'a2FzYS1kZXYtc2VhbC1rZXktY2hhbmdlLW1lLTMyYiE=';

/**
 * Every development secret Kasa publishes: the fallbacks above, the defaults of docker-compose.yml (its
 * tokens, its encryption key, the PostgreSQL password in its DATABASE_URL) and the examples in the docs.
 * Anyone can read them, so a production process (NODE_ENV=production) refuses to start with any of them
 * in INTERNAL_TOKEN, OPS_BOOTSTRAP_TOKEN, CURSOR_SIGNING_KEY, SECRET_ENCRYPTION_KEY, STATEMENT_SIGNING_KEY or the password of
 * DATABASE_URL. test/deploy checks that every development default in docker-compose.yml is listed here.
 */
export const PUBLISHED_DEV_SECRETS: readonly string[] = Object.freeze([
  DEV_INTERNAL_TOKEN,
  DEV_OPS_BOOTSTRAP_TOKEN,
  DEV_CURSOR_SIGNING_KEY,
  DEV_SECRET_ENCRYPTION_KEY,
  DEV_STATEMENT_SIGNING_KEY,
  DEV_HISTORY_SEAL_KEY,
  // docker-compose.yml: base64 of the 32 ASCII bytes "kasa-dev-key-change-me-32-bytes!"
  'a2FzYS1kZXYta2V5LWNoYW5nZS1tZS0zMi1ieXRlcyE=',
  // docker-compose.yml: POSTGRES_PASSWORD, also the password in its DATABASE_URL
  'kasa-dev-password-change-me',
]);

/** The error for a published development secret; it names the variable and never repeats the value. */
function publishedSecret(name: string, what = 'is'): ConfigError {
  return new ConfigError(name, `${what} a published development value (docker-compose.yml, docs); production needs a secret of its own`);
}

/** Whether `key` (decoded bytes) is one of the published base64 development keys, however it is spelt. */
function isPublishedKey(key: Buffer): boolean {
  return PUBLISHED_DEV_SECRETS.some((value) => {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
    const published = Buffer.from(value, 'base64');
    return published.length === key.length && published.equals(key);
  });
}

/** BIND_ADDRESS: an IPv4 or IPv6 address literal (`0.0.0.0`, `::` for every interface); 127.0.0.1 by default. */
function bindAddress(env: Env): string {
  const raw = env.BIND_ADDRESS;
  if (raw === undefined || raw === '') return '127.0.0.1';
  if (isIP(raw) === 0) throw new ConfigError('BIND_ADDRESS', `must be an IP address such as 127.0.0.1 or 0.0.0.0, got "${raw}"`);
  return raw;
}

/** An IANA time zone name that this Node's Intl knows, such as Europe/Istanbul. */
function timeZone(env: Env, name: string, fallback: string): string {
  const raw = str(env, name, fallback);
  try {
    new Intl.DateTimeFormat('en', { timeZone: raw });
  } catch {
    throw new ConfigError(name, `must be an IANA time zone such as Europe/Istanbul, got "${raw}"`);
  }
  return raw;
}

function str(env: Env, name: string, fallback?: string): string {
  const value = env[name];
  if (value === undefined || value === '') {
    if (fallback === undefined) throw new ConfigError(name, 'is required');
    return fallback;
  }
  return value;
}

/** Years each retention class is kept (docs/compliance.md, Retention and erasure). */
/** The risk rules' thresholds (docs/compliance.md, Risk flags and reports). */
export interface RiskSettings {
  /** How often the ledger's risk worker evaluates the bank lines committed since its last pass. */
  intervalMs: number;
  /** Days an officer has to review a flag before the journal check names it overdue. */
  reviewDays: number;
  /** `name_mismatch` below this similarity (percent) of the sender's name to the user's. */
  nameMatchMinPercent: number;
  /** `just_under_limit`: a credit at or above this share (percent) of the site's per-deposit maximum... */
  nearLimitPercent: number;
  /** ...this many or more for one user within 24 hours. */
  nearLimitCount: number;
  /** `returned_and_resent`: money from an IBAN that Kasa sent a return to within this many days. */
  resentDays: number;
  /** `velocity`: this many credits or more for one user... */
  velocityCount: number;
  /** ...within this many minutes. */
  velocityWindowMinutes: number;
}

export interface RetentionYears {
  deposits: number;
  withdrawals: number;
  /** Bank lines (bank_transfers). */
  bankTransfers: number;
  /** Returns to senders. */
  returns: number;
  /** Audit entries about a user's records. */
  audit: number;
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

/** A whole amount of kuruş, as a bigint (money never goes through a float). */
function kurus(env: Env, name: string, fallback: bigint): bigint {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,18}$/.test(raw)) throw new ConfigError(name, `must be a whole number of kuruş, got "${raw}"`);
  return BigInt(raw);
}

/** `OPERATOR_2FA_REQUIRED`: a comma list of roles, or `none`; `ADMIN` in production and none elsewhere by default. */
function secondFactorRoles(env: Env, production: boolean): SecondFactorRole[] {
  const name = 'OPERATOR_2FA_REQUIRED';
  const raw = env[name];
  if (raw === undefined || raw === '') return production ? ['ADMIN'] : [];
  if (raw.trim().toLowerCase() === 'none') return [];
  const roles = raw.split(',').map((role) => role.trim().toUpperCase());
  for (const role of roles) {
    if (role === 'CONNECTOR') throw new ConfigError(name, 'cannot name CONNECTOR: a bank connector never logs in, it uses issued tokens');
    if (role !== 'ADMIN' && role !== 'REVIEWER')
      throw new ConfigError(name, `must be a comma list of ADMIN and REVIEWER, or none; got "${raw}"`);
  }
  return [...new Set(roles as SecondFactorRole[])];
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
  if (production && PUBLISHED_DEV_SECRETS.includes(value)) throw publishedSecret(name);
  return value;
}

function encryptionKey(env: Env, production: boolean, name = 'SECRET_ENCRYPTION_KEY', devKey = DEV_SECRET_ENCRYPTION_KEY): Buffer {
  // The development key is fixed and public: it only protects local demo data.
  const raw = production ? str(env, name) : str(env, name, devKey);
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(name, 'must be 32 bytes, base64-encoded');
  if (production && (PUBLISHED_DEV_SECRETS.includes(raw) || isPublishedKey(key))) throw publishedSecret(name);
  return key;
}

/** PKCS#8 DER of an ed25519 private key is this prefix and the 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** SPKI DER of an ed25519 public key is this prefix and the 32 raw bytes (RFC 8410). */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * `HISTORY_SEAL_KEY`: an ed25519 private key as PKCS#8 PEM (`openssl genpkey -algorithm ed25519`) or as its 32-byte
 * seed in base64. Required in production, where the published development key is refused; elsewhere that key is used
 * when the variable is unset, and the ledger says so in its log.
 */
function historySealKey(env: Env, production: boolean): HistorySealKey {
  const name = 'HISTORY_SEAL_KEY';
  const raw = (production ? str(env, name) : str(env, name, DEV_HISTORY_SEAL_KEY)).trim();
  let privateKey: KeyObject;
  if (raw.startsWith('-----BEGIN')) {
    try {
      privateKey = createPrivateKey({ key: raw.replace(/\\n/g, '\n'), format: 'pem' });
    } catch {
      throw new ConfigError(name, 'is not a readable PEM private key');
    }
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new ConfigError(name, 'must be an ed25519 key');
  } else {
    const seed = /^[A-Za-z0-9+/]+={0,2}$/.test(raw) ? Buffer.from(raw, 'base64') : Buffer.alloc(0);
    if (seed.length !== 32) throw new ConfigError(name, 'must be an ed25519 PKCS#8 PEM key or a 32-byte seed, base64-encoded');
    privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  }
  const development = rawSeed(privateKey).equals(Buffer.from(DEV_HISTORY_SEAL_KEY, 'base64'));
  if (production && (development || PUBLISHED_DEV_SECRETS.includes(raw) || isPublishedKey(rawSeed(privateKey)))) {
    throw publishedSecret(name);
  }
  return { privateKey, development };
}

/** An ed25519 private key's 32-byte seed. */
function rawSeed(privateKey: KeyObject): Buffer {
  return privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(ED25519_PKCS8_PREFIX.length);
}

/** `HISTORY_SEAL_PUBLIC_KEYS`: a comma list of earlier seal keys' ed25519 public keys, each its 32 raw bytes in base64. */
function historySealPublicKeys(env: Env): KeyObject[] {
  const name = 'HISTORY_SEAL_PUBLIC_KEYS';
  return str(env, name, '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0)
    .map((item) => {
      const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(item) ? Buffer.from(item, 'base64') : Buffer.alloc(0);
      if (bytes.length !== 32) throw new ConfigError(name, 'must be a comma list of ed25519 public keys, each 32 bytes in base64');
      return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, bytes]), format: 'der', type: 'spki' });
    });
}

/** libpq's `target_session_attrs` values, which @kasa/db's multi-host connections honour. */
const TARGET_SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'];

/**
 * A PostgreSQL URL with libpq's multi-host form (`postgresql://u@h1:5432,h2:5432/db`) written as one URL per host,
 * which the URL parser can check (it takes one host only); a plain URL is its own single form.
 */
function perHostUrls(value: string): string[] {
  const match = /^(postgres(?:ql)?:\/\/(?:[^/?#]*@)?)([^/?#]*)(.*)$/i.exec(value);
  if (!match || !match[2]?.includes(',')) return [value];
  const [, head = '', hosts = '', rest = ''] = match;
  return hosts.split(',').map((host) => `${head}${host}${rest}`);
}

/** DATABASE_URL or DATABASE_READ_URL: a postgresql: URL, or libpq's multi-host form of one. */
function postgresUrl(env: Env, name: string, fallback: string | undefined): string {
  const value = str(env, name, fallback);
  for (const single of perHostUrls(value)) url({ [name]: single }, name, undefined, ['postgresql:', 'postgres:']);
  const attrs = new URL(perHostUrls(value)[0] ?? value).searchParams.get('target_session_attrs');
  if (attrs !== null && !TARGET_SESSION_ATTRS.includes(attrs)) {
    throw new ConfigError(name, `target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')}, got "${attrs}"`);
  }
  return value.replace(/\/+$/, '');
}

/** DATABASE_URL; in production its password must not be a published development one. */
function databaseUrl(env: Env, production: boolean): string {
  const value = postgresUrl(env, 'DATABASE_URL', production ? undefined : DEV_DATABASE_URL);
  if (production) {
    const first = new URL(perHostUrls(value)[0] ?? value);
    let password: string;
    try {
      password = decodeURIComponent(first.password);
    } catch {
      password = first.password;
    }
    if (password !== '' && PUBLISHED_DEV_SECRETS.includes(password)) throw publishedSecret('DATABASE_URL', 'its password is');
  }
  return value;
}

/**
 * The URL query parameters node-postgres sends as startup parameters that set session state. A transaction
 * pooler refuses them (PgBouncer: "unsupported startup parameter") or would keep them on one server
 * connection only; set them on the database role instead (`ALTER ROLE kasa SET statement_timeout = ...`).
 */
const SESSION_STARTUP_PARAMETERS = ['options', 'statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout'];

/** DATABASE_POOL_MODE; under `transaction` neither database URL may carry a session startup parameter. */
function databasePoolMode(env: Env): DatabasePoolMode {
  const mode = str(env, 'DATABASE_POOL_MODE', 'session');
  if (mode !== 'session' && mode !== 'transaction') {
    throw new ConfigError('DATABASE_POOL_MODE', `must be session or transaction, got "${mode}"`);
  }
  if (mode === 'transaction') {
    for (const name of ['DATABASE_URL', 'DATABASE_READ_URL']) {
      const value = env[name];
      if (!value) continue;
      const query = new URL(perHostUrls(value)[0] ?? value).searchParams;
      const found = SESSION_STARTUP_PARAMETERS.find((parameter) => query.has(parameter));
      if (found) {
        throw new ConfigError(
          name,
          `sets ${found}, a session setting a transaction pooler refuses (DATABASE_POOL_MODE=transaction); set it on the database role instead`,
        );
      }
    }
  }
  return mode;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY: empty or `false` (none), a hop count, or a comma list of addresses, CIDRs and names. */
function trustProxy(env: Env): false | number | string[] {
  const raw = str(env, 'TRUST_PROXY', '').trim();
  if (raw === '' || raw === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new ConfigError('TRUST_PROXY', 'a hop count must be 1 to 10');
    return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const valid =
      PROXY_NAMES.has(entry) ||
      (extra === undefined && isIP(address ?? '') !== 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= 128)));
    if (!valid) throw new ConfigError('TRUST_PROXY', 'must be false, a hop count, or addresses, CIDRs, loopback, linklocal, uniquelocal');
  }
  return entries;
}

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** REDIS_CLUSTER_NODES: empty (no cluster) or a comma list of `host:port`, an IPv6 address in brackets. */
function redisClusterNodes(env: Env): RedisNode[] | null {
  const name = 'REDIS_CLUSTER_NODES';
  const raw = str(env, name, '').trim();
  if (raw === '') return null;
  const problem = () =>
    new ConfigError(name, `must be a comma-separated list of host:port such as "redis-0:6379,redis-1:6379", got "${raw}"`);
  const nodes = raw.split(',').map((entry) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(entry.trim());
    if (!match) throw problem();
    const host = match[1] ?? match[2] ?? '';
    const port = Number(match[3]);
    // A dotted string of digits is an IPv4 address or nothing (300.1.1.1 is not a host name).
    const validHost = match[1] !== undefined ? isIP(host) === 6 : /^[\d.]+$/.test(host) ? isIP(host) === 4 : HOST_NAME.test(host);
    if (!validHost || port < 1 || port > 65535) throw problem();
    return { host, port };
  });
  const keys = nodes.map(({ host, port }) => `${host.toLowerCase()}:${port}`);
  if (new Set(keys).size !== keys.length) throw new ConfigError(name, 'names the same node twice');
  return nodes;
}

/** Parses and validates the whole configuration; throws {@link ConfigError} naming the first bad variable. */
export function loadConfig(env: Env = process.env): KasaConfig {
  const nodeEnv = str(env, 'NODE_ENV', 'development');
  const production = nodeEnv === 'production';
  const ledgerPort = int(env, 'LEDGER_PORT', 8081, 0, 65535);
  const gatewayPort = int(env, 'GATEWAY_PORT', 8080, 0, 65535);
  const consolePort = int(env, 'CONSOLE_PORT', 8083, 0, 65535);
  const webhookConcurrency = int(env, 'WEBHOOK_CONCURRENCY', 50, 1, 1000);
  const clusterNodes = redisClusterNodes(env);
  return {
    nodeEnv,
    databaseUrl: databaseUrl(env, production),
    databaseReadUrl: env.DATABASE_READ_URL ? postgresUrl(env, 'DATABASE_READ_URL', undefined) : null,
    databasePoolMode: databasePoolMode(env),
    trustProxy: trustProxy(env),
    // With cluster nodes, REDIS_URL only carries credentials and TLS (a cluster without either needs none).
    redisUrl: url(env, 'REDIS_URL', production && !clusterNodes ? undefined : DEV_REDIS_URL, ['redis:', 'rediss:']),
    redisClusterNodes: clusterNodes,
    redisPrefix: str(env, 'REDIS_PREFIX', 'kasa'),
    bindAddress: bindAddress(env),
    gatewayPort,
    ledgerPort,
    workerPort: int(env, 'WORKER_PORT', 8082, 0, 65535),
    consolePort,
    consolePublicUrl: url(env, 'CONSOLE_PUBLIC_URL', `http://127.0.0.1:${consolePort}`, ['http:', 'https:']),
    consoleTimeZone: timeZone(env, 'CONSOLE_TIME_ZONE', 'Europe/Istanbul'),
    reviewWaitWarnMinutes: int(env, 'REVIEW_WAIT_WARN_MINUTES', 30, 1, 10080),
    opsReadTimeoutMs: int(env, 'OPS_READ_TIMEOUT_MS', 3000, 1, 600_000),
    ledgerUrl: url(env, 'LEDGER_URL', `http://127.0.0.1:${ledgerPort}`, ['http:', 'https:']),
    ledgerTimeoutMs: int(env, 'LEDGER_TIMEOUT_MS', 10_000, 100, 120_000),
    idempotencyLostRecordGuard: bool(env, 'IDEMPOTENCY_LOST_RECORD_GUARD', false),
    internalToken: secret(env, 'INTERNAL_TOKEN', production, DEV_INTERNAL_TOKEN),
    publicBaseUrl: url(env, 'PUBLIC_BASE_URL', `http://127.0.0.1:${gatewayPort}`, ['http:', 'https:']),
    opsBootstrapToken: secret(env, 'OPS_BOOTSTRAP_TOKEN', production, DEV_OPS_BOOTSTRAP_TOKEN),
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
    webhookConcurrency,
    webhookFailingConcurrency: int(
      env,
      'WEBHOOK_FAILING_CONCURRENCY',
      Math.max(1, Math.floor(webhookConcurrency / 4)),
      1,
      webhookConcurrency,
    ),
    webhookPreviousSecretTtlSeconds: int(env, 'WEBHOOK_PREVIOUS_SECRET_TTL_SECONDS', 86400, 0, 2592000),
    webhookSiteConcurrency: int(env, 'WEBHOOK_SITE_CONCURRENCY', 10, 1, 1000),
    webhookLockDurationMs: int(env, 'WEBHOOK_LOCK_DURATION_MS', 6000, 1000, 600000),
    webhookStalledIntervalMs: int(env, 'WEBHOOK_STALLED_INTERVAL_MS', 2000, 500, 600000),
    webhookCaFile: env.WEBHOOK_CA_FILE ? env.WEBHOOK_CA_FILE : null,
    webhookRetryJitterPercent: int(env, 'WEBHOOK_RETRY_JITTER_PERCENT', 10, 0, 50),
    webhookAutoReplayWindowHours: int(env, 'WEBHOOK_AUTO_REPLAY_WINDOW_HOURS', 72, 0, 720),
    webhookProbeIntervalMs: int(env, 'WEBHOOK_PROBE_INTERVAL_MS', 60000, 100, 3600000),
    outboxRelayIntervalMs: int(env, 'OUTBOX_RELAY_INTERVAL_MS', 3000, 100, 600000),
    outboxRelayGraceMs: int(env, 'OUTBOX_RELAY_GRACE_MS', 5000, 0, 3600000),
    outboxRelayLostJobAfterMs: int(env, 'OUTBOX_RELAY_LOST_JOB_AFTER_MS', 60000, 1000, 86400000),
    followUpIntervalMs: int(env, 'FOLLOW_UP_INTERVAL_MS', 1000, 100, 600000),
    followUpGraceMs: int(env, 'FOLLOW_UP_GRACE_MS', 10000, 0, 3600000),
    historyChainIntervalMs: int(env, 'HISTORY_CHAIN_INTERVAL_MS', 1000, 100, 600000),
    screeningRescreenIntervalMs: int(env, 'SCREENING_RESCREEN_INTERVAL_MS', 5000, 100, 600000),
    retentionYears: {
      deposits: int(env, 'RETENTION_DEPOSITS_YEARS', 8, 1, 100),
      withdrawals: int(env, 'RETENTION_WITHDRAWALS_YEARS', 8, 1, 100),
      bankTransfers: int(env, 'RETENTION_BANK_TRANSFERS_YEARS', 8, 1, 100),
      returns: int(env, 'RETENTION_RETURNS_YEARS', 8, 1, 100),
      audit: int(env, 'RETENTION_AUDIT_YEARS', 8, 1, 100),
    },
    // At most a week: a timer cannot wait longer than 24.8 days, and KVKK asks for a pass at least every 6 months.
    destructionIntervalMs: int(env, 'DESTRUCTION_INTERVAL_MS', 86400000, 1000, 604800000),
    risk: {
      intervalMs: int(env, 'RISK_INTERVAL_MS', 5000, 100, 600000),
      reviewDays: int(env, 'RISK_REVIEW_DAYS', 10, 1, 90),
      nameMatchMinPercent: int(env, 'RISK_NAME_MATCH_MIN_PERCENT', 80, 1, 100),
      nearLimitPercent: int(env, 'RISK_NEAR_LIMIT_PERCENT', 90, 1, 100),
      nearLimitCount: int(env, 'RISK_NEAR_LIMIT_COUNT', 3, 2, 1000),
      resentDays: int(env, 'RISK_RESENT_DAYS', 30, 1, 3650),
      velocityWindowMinutes: int(env, 'RISK_VELOCITY_WINDOW_MINUTES', 60, 1, 10080),
      velocityCount: int(env, 'RISK_VELOCITY_COUNT', 5, 2, 10000),
    },
    secretEncryptionKey: encryptionKey(env, production),
    cursorSigningKey: secret(env, 'CURSOR_SIGNING_KEY', production, DEV_CURSOR_SIGNING_KEY),
    statementSigningKey: encryptionKey(env, production, 'STATEMENT_SIGNING_KEY', DEV_STATEMENT_SIGNING_KEY),
    historySealKey: historySealKey(env, production),
    historySealPublicKeys: historySealPublicKeys(env),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
    expirySweepIntervalMs: int(env, 'EXPIRY_SWEEP_INTERVAL_MS', 5000, 100, 3600000),
    invalidKeyAttemptsPerMinute: int(env, 'INVALID_KEY_ATTEMPTS_PER_MINUTE', 30, 1, 100000),
    unknownPageTokenAttemptsPerMinute: int(env, 'UNKNOWN_PAGE_TOKEN_ATTEMPTS_PER_MINUTE', 30, 1, 100000),
    opsLoginWindowSeconds: int(env, 'OPS_LOGIN_WINDOW_SECONDS', 900, 1, 86400),
    opsLoginAttemptsPerAccountAddress: int(env, 'OPS_LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS', 5, 1, 1000),
    opsLoginAttemptsPerAddress: int(env, 'OPS_LOGIN_ATTEMPTS_PER_ADDRESS', 30, 1, 100000),
    opsLoginAttemptsPerAccount: int(env, 'OPS_LOGIN_ATTEMPTS_PER_ACCOUNT', 50, 1, 100000),
    arrivalClockSkewMs: int(env, 'ARRIVAL_CLOCK_SKEW_SECONDS', 60, 0, 900) * 1000,
    operatorSessionTtlSeconds: int(env, 'OPERATOR_SESSION_TTL_SECONDS', 43200, 60, 2592000),
    operator2faRequired: secondFactorRoles(env, production),
    stepUpAboveKurus: kurus(env, 'STEP_UP_ABOVE_KURUS', 5_000_000n),
    dualApprovalAboveKurus: kurus(env, 'DUAL_APPROVAL_ABOVE_KURUS', 10_000_000n),
    dualApprovalWindowSeconds: int(env, 'DUAL_APPROVAL_WINDOW_SECONDS', 86400, 60, 2592000),
    shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 25000, 1000, 3600000),
  };
}
