// The package.json that goes into the tarball, swapped in by `prepack` and back out by `postpack`.
//
// In the workspace, package.json points at src/index.ts: the partner demo, the tests and `npm run typecheck` use the
// SDK from source, with no build first. The tarball must point at dist/ instead and carry no `workspace:` ranges
// (npm cannot read them) and no dependencies at all (@kasa/webhook-signing is bundled). npm tars the package.json on
// disk after `prepack`, so `write` puts the published form there (the `publishConfig` fields, as pnpm applies them
// on publish, with scripts and dependencies dropped) and keeps the workspace form aside; `restore` puts it back.
// A pack that died between the two leaves the copy behind: the next `write` restores it first.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifestPath = join(pkg, 'package.json');
const workspacePath = join(pkg, 'package.workspace.json');

/** Fields that only make sense inside this repository. */
const WORKSPACE_ONLY = ['scripts', 'dependencies', 'devDependencies', 'publishConfig'];

function restore() {
  if (existsSync(workspacePath)) renameSync(workspacePath, manifestPath);
}

function write() {
  restore();
  const text = readFileSync(manifestPath, 'utf8');
  const workspace = JSON.parse(text);
  const published = { ...workspace, ...workspace.publishConfig };
  for (const field of WORKSPACE_ONLY) delete published[field];
  const json = JSON.stringify(published, null, 2);
  if (json.includes('workspace:') || json.includes('./src/'))
    throw new Error(`the packed package.json still refers to the workspace:\n${json}`);
  writeFileSync(workspacePath, text);
  writeFileSync(manifestPath, `${json}\n`);
}

const command = process.argv[2];
if (command === 'write') write();
else if (command === 'restore') restore();
else throw new Error(`usage: node scripts/packed-manifest.mjs write|restore (got ${command})`);
