// `npm test`: set up what is missing, then run every test (jest, ESM) against PostgreSQL and Redis: the ones given
// in TEST_POSTGRES_BASE / TEST_REDIS_URL, else the default local ones, else ones started for this run
// (scripts/local-engines.mjs), stopped again when jest ends.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError, localEngines } from './local-engines.mjs';
import { onNodeLts } from './node-lts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
await onNodeLts(root, fileURLToPath(import.meta.url));

const setup = spawnSync(process.execPath, [join(root, 'scripts', 'setup.mjs')], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(setup.status ?? 1);

const stateDir = process.env.KASA_STATE_DIR || join(root, '.kasa');
const engines = await localEngines({ root, stateDir, purpose: 'test' }).catch((error) => {
  console.error(error instanceof EngineError ? error.message : `[kasa] ${error?.message ?? error}`);
  process.exit(1);
});

const jest = join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const args = process.argv.slice(2);
// The whole suite (no arguments) runs in two passes: every test file two at a time, then the failover drill alone. The
// drill measures how long requests fail around each fault, so it must not share the machine's two cores with
// another test file: there its windows measured the other file's load as much as the faults.
const DRILL = '/test/drill/';
// Each file's time in the whole suite, so the slowest can be seen (and kept down) from any run's log.
const timings = join(stateDir, 'test-timings.json');
const passes =
  args.length > 0
    ? [args]
    : [
        ['--testPathIgnorePatterns', '/node_modules/', '/generated/', DRILL, '--json', `--outputFile=${timings}`],
        ['--runInBand', '--testPathPatterns', DRILL],
      ];

let current;
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => current?.kill(signal));
let exitCode = 0;
for (const pass of passes) {
  current = spawn(process.execPath, ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', jest, ...pass], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...engines.env },
  });
  const [code, signal] = await new Promise((resolve) => current.on('exit', (...exit) => resolve(exit)));
  if (signal) {
    exitCode = 1;
    break;
  }
  if (code !== 0) exitCode = code ?? 1;
}
await engines.stop().catch(() => undefined);
if (args.length === 0) printSlowest(timings, 20);
process.exit(exitCode);

/** The `count` slowest test files of the run jest wrote to `file`, with the total of all files. */
function printSlowest(file, count) {
  let results;
  try {
    results = JSON.parse(readFileSync(file, 'utf8')).testResults;
  } catch {
    return;
  }
  const files = results
    .map((result) => ({ name: relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds);
  const total = files.reduce((sum, entry) => sum + entry.seconds, 0);
  console.log(`\n[kasa] ${files.length} test files took ${Math.round(total)} s in all (two at a time); the ${count} slowest:`);
  for (const entry of files.slice(0, count)) console.log(`  ${entry.seconds.toFixed(1).padStart(6)} s  ${entry.name}`);
}
