// `npm run bench`: on Node 24 (as the images run), set up what is missing, then run every bench/*.bench.ts in turn (or the ones named on
// the command line, e.g. `npm run bench -- partner-api`). Each writes its own section of docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onNodeLts } from './node-lts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Measured on the runtime the images run (Node 24), so the figures are the production ones.
await onNodeLts(root, fileURLToPath(import.meta.url));
const setup = spawnSync(process.execPath, [join(root, 'scripts', 'setup.mjs')], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

const wanted = process.argv.slice(2);
const benches = readdirSync(join(root, 'bench'))
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();
if (benches.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ')}`);
  process.exit(1);
}
let failed = 0;
for (const file of benches) {
  console.log(`\n== ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', file)], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
}
process.exit(failed === 0 ? 0 : 1);
