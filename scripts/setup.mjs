// Brings a fresh clone (or a stale one) to a runnable state: installs the workspace's dependencies with
// pnpm, generates the Prisma client (and the sources derived from the tree, scripts/generate-sources.mjs) and compiles
// the services (scripts/build.mjs: services/*/dist/main.js and packages/db/dist/migrate.js, what the image runs; the
// tests start them too). Each step is skipped when what it makes is current. Plain Node with no dependencies, so it
// runs before anything is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGeneratedSources } from './generate-sources.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => join(root, ...parts);
const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);

function run(command, args, env = {}) {
  // Everything goes to stderr, so commands that print JSON (the kasa CLI) keep a clean stdout.
  execFileSync(command, args, { cwd: root, stdio: ['inherit', 2, 2], env: { ...process.env, ...env } });
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(`Kasa needs Node 20.19 or newer; this is ${process.version}.`);
  process.exit(1);
}

// pnpm records its install here; a newer lockfile or manifest means the install is stale.
const installMarker = at('node_modules', '.modules.yaml');
const manifests = ['pnpm-lock.yaml', 'package.json', 'pnpm-workspace.yaml'].map((f) => mtime(at(f)));
if (!existsSync(installMarker) || Math.max(...manifests) > mtime(installMarker)) {
  console.error('[setup] installing dependencies (pnpm 10)');
  // corepack's signature check fails against this registry; npx fetches pnpm itself.
  run('npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile'], { npm_config_yes: 'true' });
}

const generated = at('packages', 'db', 'src', 'generated', 'prisma', 'client.ts');
if (!existsSync(generated) || mtime(at('prisma', 'schema.prisma')) > mtime(generated)) {
  console.error('[setup] generating the Prisma client');
  // Prisma only needs the native schema engine to exist as a file to generate offline; the client itself
  // runs on @prisma/adapter-pg with no engine at all.
  run(at('node_modules', '.bin', 'prisma'), ['generate'], {
    PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  });
}

// What the tree derives from itself (scripts/generate-sources.mjs): the schema's tables by model beside the client, for
// the raw statements that name a table, and the reviewed record kinds' lists in the ops contract and the ledger; a new
// model's table or a new kind is in them with no edit elsewhere. Only a file whose text changed is written.
for (const file of writeGeneratedSources(root)) console.error(`[setup] wrote ${file}`);

// After the client and the generated sources: the bundles include them. Nothing is rebuilt when no input changed since
// the last build.
run(process.execPath, [at('scripts', 'build.mjs'), '--quiet']);
