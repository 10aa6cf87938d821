// `npm run drill`: on Node 24 (as the images run), set up what is missing, then run the failover drill
// (test/drill/drill.ts): its table is printed and written to docs/scaling.md (Failover drill).
// `npm run drill -- --short` runs the budget the test suite uses (test/drill/drill.test.ts).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onNodeLts } from './node-lts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await onNodeLts(root, fileURLToPath(import.meta.url));
const setup = spawnSync(process.execPath, [join(root, 'scripts', 'setup.mjs')], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);
const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'test', 'drill', 'drill.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
