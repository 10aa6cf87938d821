// Brings a fresh clone (or a stale one) to a runnable state: installs the workspace's dependencies with
// pnpm, generates the Prisma client (and the schema's table names beside it) and compiles the services
// (scripts/build.mjs: services/*/dist/main.js and packages/db/dist/migrate.js, what the image runs; the tests start
// them too). Each step is skipped when what it makes is current. Plain Node with no dependencies, so it runs before
// anything is installed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

// The schema's tables by model, for the raw statements that name a table (row locks), beside the client: a new model's
// table is one of them with no edit elsewhere.
const tables = at('packages', 'db', 'src', 'generated', 'tables.ts');
if (!existsSync(tables) || mtime(at('prisma', 'schema.prisma')) > mtime(tables)) {
  const schema = readFileSync(at('prisma', 'schema.prisma'), 'utf8');
  const entries = [...schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)].map(([, model, body]) => {
    const mapped = /^\s*@@map\("(\w+)"\)/m.exec(body);
    return `  ${model}: '${mapped ? mapped[1] : model}',`;
  });
  writeFileSync(
    tables,
    [
      '// Written by scripts/setup.mjs from prisma/schema.prisma: each model and its table (`@@map`). Do not edit.',
      'export const TABLES = {',
      ...entries,
      '} as const;',
      '',
      '/** A table of the schema, as a raw statement may name it. */',
      'export type TableName = (typeof TABLES)[keyof typeof TABLES];',
      '',
    ].join('\n'),
  );
}

// After the client: the bundles include it. Nothing is rebuilt when no input changed since the last build.
run(process.execPath, [at('scripts', 'build.mjs'), '--quiet']);
