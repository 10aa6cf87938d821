// `npm start`: refuse at once when a port it needs is taken, set up what is missing, then run the whole suite locally
// (scripts/run-local.ts). package.json runs this with `exec`, so npm's SIGINT or SIGTERM reaches this process.
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError, localEngines } from './local-engines.mjs';
import { onNodeLts } from './node-lts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The ports of the suite (docs/configuration.md), on the address the services will listen on.
const host = process.env.BIND_ADDRESS || '127.0.0.1';
const ports = [
  ['gateway', 'GATEWAY_PORT', 8080],
  ['ledger', 'LEDGER_PORT', 8081],
  ['webhook-worker', 'WORKER_PORT', 8082],
  ['console', 'CONSOLE_PORT', 8083],
  ['partner demo', 'PARTNER_DEMO_PORT', 8084],
].map(([name, variable, fallback]) => ({ name, variable, port: Number(process.env[variable] || fallback) }));

/** Null when `port` can be listened on now, else why not (`EADDRINUSE`, ...). */
function taken(port) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error) => resolve(error.code ?? error.message));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}

// Before anything else: a second `npm start`, or another program on a port, changes nothing (no database, no keys).
for (const { name, variable, port } of ports) {
  if (port === 0) continue;
  const why = await taken(port);
  if (why) {
    const hint = why === 'EADDRINUSE' ? 'is in use: is Kasa already running (another npm start)?' : `cannot be used (${why}).`;
    console.error(
      `[kasa] port ${port} on ${host} (${name}, ${variable}) ${hint} Stop it or set ${variable}; nothing was started or changed.`,
    );
    process.exit(1);
  }
}

// On a Node older than 24 this runs again on Node 24 (scripts/node-lts.mjs) and never returns.
await onNodeLts(root, fileURLToPath(import.meta.url));

const setup = spawnSync(process.execPath, [join(root, 'scripts', 'setup.mjs')], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

// PostgreSQL and Redis: as given in DATABASE_URL / REDIS_URL, else the default ones, else started here.
const stateDir = process.env.KASA_STATE_DIR || join(root, '.kasa');
const engines = await localEngines({ root, stateDir, purpose: 'start' }).catch((error) => {
  console.error(error instanceof EngineError ? error.message : `[kasa] ${error?.message ?? error}`);
  process.exit(1);
});

const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'run-local.ts')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...engines.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
// What was started for this run stops after the services have.
child.on('exit', (code, signal) => engines.stop().finally(() => process.exit(code ?? (signal ? 1 : 0))));
