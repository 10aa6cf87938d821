// Runs the whole suite on this machine: creates and migrates the database, starts every service as its
// own process, provisions a demo site on first run and prints where everything is.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { loadConfig, type KasaConfig } from '@kasa/config';
import { ensureDatabase, migrate } from '@kasa/db';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// KASA_STATE_DIR: where the demo key, the console login and the demo's books are kept (test/readme points it
// at a temporary directory so a test run never touches a developer's own .kasa).
const stateDir = process.env.KASA_STATE_DIR ?? join(root, '.kasa');
// The demo partner runs in the demo site's sandbox: its key (demo-api-key) is a TEST key, so the money is simulated
// and no operator is needed. The live key (demo-live-api-key) is for trying the operators' side on live records.
const demoKeyFile = join(stateDir, 'demo-api-key');
const demoLiveKeyFile = join(stateDir, 'demo-live-api-key');
const demoOperatorFile = join(stateDir, 'demo-operator');
// Every line a service writes goes to .kasa/logs/<service>.log; the terminal keeps the banner, warnings and errors.
const logsDir = join(stateDir, 'logs');

interface ServiceSpec {
  name: string;
  port: number;
}

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  console.log('[kasa] stopping every service...');
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const force = setTimeout(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    console.log('[kasa] stopped: a service did not finish within 15 s and was killed.');
    process.exit(code || 1);
  }, 15_000);
  force.unref();
  Promise.all(
    children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once('exit', r)) : null)),
  ).then(() => {
    console.log(`[kasa] stopped: every service has exited; logs are in ${logsDir}.`);
    process.exit(code);
  });
}

/** A service's log line worth the terminal: a warning or an error (JSON `level`), or anything that is not JSON (a crash). */
function forTerminal(line: string): boolean {
  if (!line.startsWith('{')) return line.trim() !== '';
  try {
    const level = (JSON.parse(line) as { level?: unknown }).level;
    return level === 'warn' || level === 'error';
  } catch {
    return true;
  }
}

/** The child's output, every line into .kasa/logs/<name>.log and the warnings and errors onto the terminal too. */
function routeOutput(name: string, child: ChildProcess): void {
  mkdirSync(logsDir, { recursive: true });
  const file = createWriteStream(join(logsDir, `${name}.log`), { flags: 'a', mode: 0o600 });
  const route = (stream: Readable | null, terminal: NodeJS.WriteStream) => {
    if (!stream) return;
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      file.write(`${line}\n`);
      if (forTerminal(line)) terminal.write(line.startsWith(`[${name}]`) ? `${line}\n` : `[${name}] ${line}\n`);
    });
  };
  route(child.stdout, process.stdout);
  route(child.stderr, process.stderr);
  child.once('exit', () => file.end());
}

async function waitHealthy(service: ServiceSpec, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${service.port}/healthz`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${service.name} did not become healthy on port ${service.port}`);
}

/** examples/partner-demo on PARTNER_DEMO_PORT (8084), as the demo site's partner, its books in .kasa/. */
async function startPartnerDemo(apiKey: string): Promise<void> {
  const entry = join(root, 'examples', 'partner-demo', 'src', 'main.ts');
  const env = {
    ...process.env,
    KASA_URL: config.publicBaseUrl,
    KASA_API_KEY: apiKey,
    PARTNER_DEMO_PORT: String(PARTNER_DEMO_PORT),
    PARTNER_DEMO_STORE: join(stateDir, 'partner-demo.json'),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  routeOutput('partner-demo', child);
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`[kasa] partner demo exited (${signal ?? code}); the suite keeps running`);
  });
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if (
      await fetch(`http://127.0.0.1:${PARTNER_DEMO_PORT}/api/balance`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.error('[kasa] the partner demo did not start; the suite keeps running');
}

async function startService(service: ServiceSpec): Promise<void> {
  const entry = join(root, 'services', service.name, 'src', 'main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  children.push(child);
  routeOutput(service.name, child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[kasa] ${service.name} exited (${signal ?? code}); stopping the suite`);
      stopAll(1);
    }
  });
  await waitHealthy(service);
}

async function ops(config: KasaConfig, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${config.ledgerPort}${path}`, {
    method,
    headers: { authorization: `Bearer ${config.opsBootstrapToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

/** The demo site's keys issued on the first run (null on later runs, their files kept in .kasa/). */
interface DemoKeys {
  /** `sk_test_demo_...`: the demo partner's key, on the sandbox (docs/sandbox.md). */
  test: string;
  /** `sk_live_demo_...`: for the operators' walk-through in the README. */
  live: string;
}

/**
 * First run: a demo site, a receiving account, a test key for the demo partner (its sandbox) and a live key
 * (printed once, kept in .kasa/ for later runs).
 */
async function provisionDemo(config: KasaConfig): Promise<DemoKeys | null> {
  const accounts = await ops(config, 'GET', '/ops/v1/receiving-accounts');
  if (accounts.body.data.length === 0) {
    await ops(config, 'POST', '/ops/v1/receiving-accounts', {
      bankName: 'Demo Bankası',
      holderName: 'Kasa Ödeme Hizmetleri A.Ş.',
      iban: 'TR330006100519786457841326',
    });
  }
  const site = await ops(config, 'POST', '/ops/v1/sites', { slug: 'demo', name: 'Demo partner' });
  if (site.status !== 201) return null;
  // Straight-through approval on (docs/operations.md): an exact imported transfer up to 10,000 TL from the user is approved by the service.
  await ops(config, 'PATCH', `/ops/v1/sites/${site.body.siteId}`, {
    autoApprove: { enabled: true, maxAmount: '1000000', requireSenderMatch: true },
  });
  const live = await ops(config, 'POST', `/ops/v1/sites/${site.body.siteId}/api-keys`, {});
  const test = await ops(config, 'POST', `/ops/v1/sites/${site.body.siteId}/api-keys`, { mode: 'test' });
  if (live.status !== 201 || test.status !== 201) throw new Error(`issuing the demo keys failed (${live.status}, ${test.status})`);
  // In the sandbox a simulated transfer that pays a deposit exactly is approved straight through, whoever sends it.
  await ops(config, 'PATCH', `/ops/v1/sites/${test.body.siteId}`, {
    autoApprove: { enabled: true, maxAmount: '1000000', requireSenderMatch: false },
  });
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(demoKeyFile, `${test.body.apiKey}\n`, { mode: 0o600 });
  writeFileSync(demoLiveKeyFile, `${live.body.apiKey}\n`, { mode: 0o600 });
  return { test: test.body.apiKey as string, live: live.body.apiKey as string };
}

/** First run: an admin operator for the console (password printed once, kept in .kasa/ for later runs). */
async function provisionOperator(config: KasaConfig): Promise<string | null> {
  const email = 'admin@kasa.local';
  const password = randomBytes(12).toString('base64url');
  const created = await ops(config, 'POST', '/ops/v1/operators', { email, name: 'Local admin', role: 'ADMIN', password });
  if (created.status === 201) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(demoOperatorFile, `${email} ${password}\n`, { mode: 0o600 });
  }
  return existsSync(demoOperatorFile) ? readFileSync(demoOperatorFile, 'utf8').trim() : null;
}

// The partner demo receives webhooks on this machine over plain http: allowed for this local run only (a
// production process never runs this script, and these stay refused there unless set on purpose).
process.env.WEBHOOK_ALLOWED_HOSTS ??= '127.0.0.1';
process.env.WEBHOOK_ALLOW_HTTP ??= 'true';
const PARTNER_DEMO_PORT = Number(process.env.PARTNER_DEMO_PORT ?? 8084);

const config = loadConfig();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(0));

const created = await ensureDatabase(config.databaseUrl);
const migrated = await migrate(config.databaseUrl);
console.log(`[kasa] database ${created ? 'created' : 'ready'}; migrations applied: ${migrated.applied.length}`);

const services: ServiceSpec[] = [
  { name: 'ledger', port: config.ledgerPort },
  { name: 'gateway', port: config.gatewayPort },
  { name: 'webhook-worker', port: config.workerPort },
  { name: 'console', port: config.consolePort },
].filter((service) => existsSync(join(root, 'services', service.name, 'src', 'main.ts')));

try {
  for (const service of services) await startService(service);
  const issued = await provisionDemo(config);
  const operator = await provisionOperator(config);
  const demoKey = issued?.test ?? (existsSync(demoKeyFile) ? readFileSync(demoKeyFile, 'utf8').trim() : null);
  if (demoKey) await startPartnerDemo(demoKey);
  console.log('\n[kasa] running:');
  for (const service of services) console.log(`  ${service.name.padEnd(15)} http://127.0.0.1:${service.port}`);
  if (config.bindAddress === '127.0.0.1') console.log('  (this machine only; BIND_ADDRESS=0.0.0.0 opens them to the network)');
  console.log(`  partner API     ${config.publicBaseUrl}/api/v1/external`);
  if (demoKey)
    console.log(
      `  partner demo    http://127.0.0.1:${PARTNER_DEMO_PORT}  (a partner site in the sandbox: click a deposit, simulate the transfer)`,
    );
  if (issued) {
    console.log(`\n[kasa] demo site "demo", test API key (keep it secret): ${issued.test}`);
    console.log(`  the sandbox: simulated money only, no operator needed (docs/sandbox.md); kept in ${demoKeyFile}`);
    console.log(
      `  try: curl -s -X POST ${config.publicBaseUrl}/api/v1/external/deposits -H "Authorization: Bearer ${issued.test}" ` +
        `-H "Idempotency-Key: $(node -e 'console.log(crypto.randomUUID())')" -H "Content-Type: application/json" -d '{"externalUserId":"u1","amount":"150000"}'`,
    );
    console.log(`[kasa] demo site "demo", live API key (keep it secret): ${issued.live}`);
    console.log(`  live records, for the operators' side (console, kasa CLI); kept in ${demoLiveKeyFile}`);
  } else {
    console.log('\n[kasa] demo site exists; its keys were printed on the first run (or issue new ones with the kasa CLI).');
  }
  if (operator) {
    const [email, password] = operator.split(' ');
    console.log(`\n[kasa] console login (local admin): ${email} / ${password}  at http://127.0.0.1:${config.consolePort}`);
  }
  console.log(`\n[kasa] request logs: ${logsDir}/<service>.log (warnings and errors show here too)`);
  console.log('\n[kasa] Ctrl+C stops everything.');
} catch (error) {
  console.error(`[kasa] start failed: ${(error as Error).message}`);
  stopAll(1);
}
