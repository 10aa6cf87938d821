/**
 * Shared facts and helpers for the deployment-file tests (docker-compose.yml, Dockerfile, k8s/).
 * Every check function in this folder returns a list of problems instead of throwing, so each test can
 * both assert that the real files have none and that a deliberately broken copy has some.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLISHED_DEV_SECRETS, loadConfig } from '../../packages/config/src/index.js';

export { PUBLISHED_DEV_SECRETS };

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function readRepoFile(path: string): string {
  return readFileSync(resolve(repoRoot, path), 'utf8');
}

/** The four services of docs/architecture.md (The parts), their default ports and the variable that sets each. */
export const APP_SERVICES = ['gateway', 'ledger', 'webhook-worker', 'console'] as const;
export type AppService = (typeof APP_SERVICES)[number];

export const SERVICE_PORTS: Record<AppService, number> = {
  gateway: 8080,
  ledger: 8081,
  'webhook-worker': 8082,
  console: 8083,
};

export const PORT_VARIABLES: Record<AppService, string> = {
  gateway: 'GATEWAY_PORT',
  ledger: 'LEDGER_PORT',
  'webhook-worker': 'WORKER_PORT',
  console: 'CONSOLE_PORT',
};

/**
 * What a container runs: compiled JavaScript under the image's ENTRYPOINT (`/usr/bin/tini --`). Compose
 * sets it as `command` (which replaces CMD only); Kubernetes as `args` (its `command` would replace tini).
 */
export function serviceCommand(service: AppService): string[] {
  return ['node', `services/${service}/dist/main.js`];
}

export const MIGRATE_COMMAND = ['node', 'packages/db/dist/migrate.js'];

/** The image's ENTRYPOINT: tini as PID 1, forwarding SIGTERM to node and reaping zombies. */
export const IMAGE_ENTRYPOINT = ['/usr/bin/tini', '--'];

/** What a service gives in-flight work after SIGTERM when SHUTDOWN_GRACE_MS is not set. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 25_000;

/** A stop must wait this much longer than the service's own grace before it kills (Compose, kubelet). */
export const STOP_MARGIN_SECONDS = 5;

/** The shutdown grace a process with environment `env` takes, in seconds. */
export function shutdownGraceSeconds(env: Record<string, string | undefined>): number {
  const raw = env.SHUTDOWN_GRACE_MS;
  return (raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : DEFAULT_SHUTDOWN_GRACE_MS) / 1000;
}

/**
 * Every variable a deployed Kasa process is given (docs/configuration.md and packages/config). All of them
 * are set explicitly in docker-compose.yml and k8s/, so no deployment depends on a developer default.
 */
export const DEPLOYED_VARIABLES = [
  'NODE_ENV',
  'LOG_LEVEL',
  'BIND_ADDRESS',
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'GATEWAY_PORT',
  'LEDGER_PORT',
  'WORKER_PORT',
  'CONSOLE_PORT',
  'LEDGER_URL',
  'INTERNAL_TOKEN',
  'PUBLIC_BASE_URL',
  'CONSOLE_PUBLIC_URL',
  'OPS_BOOTSTRAP_TOKEN',
  'DEPOSIT_INTENT_TTL_SECONDS',
  'WEBHOOK_RETRY_DELAY_MS',
  'WEBHOOK_MAX_ATTEMPTS',
  'WEBHOOK_TIMEOUT_MS',
  'WEBHOOK_ALLOWED_HOSTS',
  'WEBHOOK_ALLOW_HTTP',
  'WEBHOOK_CONCURRENCY',
  'SECRET_ENCRYPTION_KEY',
  'CURSOR_SIGNING_KEY',
  'STATEMENT_SIGNING_KEY',
  'HISTORY_SEAL_KEY',
] as const;

/** The variables that hold secrets: in k8s they belong in the Secret, never in the ConfigMap. */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'INTERNAL_TOKEN',
  'OPS_BOOTSTRAP_TOKEN',
  'SECRET_ENCRYPTION_KEY',
  'CURSOR_SIGNING_KEY',
  'STATEMENT_SIGNING_KEY',
  'HISTORY_SEAL_KEY',
] as const;

/**
 * The variable names packages/config reads, taken from its source (it is the only reader of
 * process.env), so a misspelt name in a deployment file is caught.
 */
export function configVariableNames(): Set<string> {
  const source = readRepoFile('packages/config/src/index.ts');
  return new Set([...source.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)].map((match) => match[1]!));
}

/** Runs the real start-up validation on `env`; returns its complaint, or [] when a process would start. */
export function configProblems(env: Record<string, string>, where: string): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    return [`${where}: the service would refuse to start: ${(error as Error).message}`];
  }
}

/**
 * Whether `text` contains a published development secret (packages/config PUBLISHED_DEV_SECRETS), as
 * itself or base64-encoded (a Secret's `data`), or, for a base64 key, the same bytes.
 */
export function containsPublishedDevSecret(text: string): boolean {
  return PUBLISHED_DEV_SECRETS.some(
    (secret) => text.includes(secret) || text.includes(Buffer.from(secret).toString('base64').replace(/=+$/, '')),
  );
}

/** Names that say "this value is a credential". */
export function isSecretName(name: string): boolean {
  return /TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|(^|_)KEY($|_)|API_?KEY|PRIVATE/i.test(name);
}

/** A development value that announces itself as such: it says "dev" and "change me". */
export function isMarkedDevValue(value: string): boolean {
  const marked = (text: string): boolean => /dev/i.test(text) && /change[-_ ]?me/i.test(text);
  if (marked(value)) return true;
  // A base64 key (SECRET_ENCRYPTION_KEY) is marked when its bytes are.
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0) {
    return marked(Buffer.from(value, 'base64').toString('latin1'));
  }
  return false;
}

/** A long run of token characters with letters and digits: what a pasted key or password looks like. */
export function looksLikeToken(value: string): boolean {
  return /^[A-Za-z0-9+/=_-]{20,}$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value);
}

/** The password inside a URL such as postgresql://user:password@host/db, if any. */
export function urlPassword(value: string): string | undefined {
  try {
    const password = new URL(value).password;
    return password === '' ? undefined : decodeURIComponent(password);
  } catch {
    return undefined;
  }
}

/**
 * Problems with one variable's value as far as secrets go: `allowed` says which values are acceptable
 * in a committed file (clearly marked development values in compose, placeholders in k8s).
 */
export function secretValueProblems(name: string, value: string, allowed: (value: string) => boolean, where: string): string[] {
  const problems: string[] = [];
  if (isSecretName(name) && value !== '' && !allowed(value)) {
    problems.push(`${where}: ${name} holds a secret-looking value that is not clearly marked as a placeholder`);
  } else if (!isSecretName(name) && looksLikeToken(value) && !allowed(value)) {
    problems.push(`${where}: ${name} holds a token-like value that is not clearly marked as a placeholder`);
  }
  const password = urlPassword(value);
  if (password !== undefined && !allowed(password)) {
    problems.push(`${where}: ${name} embeds a password that is not clearly marked as a placeholder`);
  }
  return problems;
}

/** Kubernetes quantity ("250m", "1", "512Mi", "1G") as a number of base units. */
export function parseQuantity(quantity: string | number): number {
  if (typeof quantity === 'number') return quantity;
  const match = /^([0-9.]+)([a-zA-Z]*)$/.exec(quantity.trim());
  if (!match) return Number.NaN;
  const factors: Record<string, number> = {
    '': 1,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
  };
  const factor = factors[match[2]!];
  return factor === undefined ? Number.NaN : Number(match[1]) * factor;
}

export function sameList(a: readonly unknown[] | undefined, b: readonly unknown[]): boolean {
  return a !== undefined && a.length === b.length && a.every((item, index) => item === b[index]);
}
