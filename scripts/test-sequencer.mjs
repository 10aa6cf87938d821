// Jest's test order, slowest file first, so that no long file starts late and ends the run alone while the other
// worker idles. Jest's own sequencer orders by the durations in its cache, but a fresh clone (CI) has no cache, and
// jest then orders by file size, which says little (the console tour, 150 lines, took minutes).
// A file's expected time is, first found: jest's cache (this checkout's last run of it), the last whole suite's
// timings (.kasa/test-timings.json, written by scripts/test.mjs), then scripts/test-durations.json (checked in:
// seconds per file measured on the two-core CI machine, the files over ten seconds). A file in none of them is
// expected to be short and runs after the listed ones, larger files first. Files that failed last time still go first.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// @jest/test-sequencer is jest-config's dependency, not the workspace's: found the way jest finds it.
const jestConfig = [createRequire(join(root, 'package.json')).resolve('jest'), '@jest/core', 'jest-config'].reduce((from, name) =>
  createRequire(from).resolve(name),
);
const sequencerPath = createRequire(jestConfig).resolve('@jest/test-sequencer');
const { default: TestSequencer } = (await import(pathToFileURL(sequencerPath).href)).default;

/** An unlisted file's expected time: below every listed one. */
const UNLISTED_MS = 5_000;

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Milliseconds per file path (relative to the root) from the last whole suite and the checked-in list. */
function knownDurations() {
  const known = new Map();
  const listed = readJson(join(root, 'scripts', 'test-durations.json')) ?? {};
  for (const [file, seconds] of Object.entries(listed.seconds ?? {})) known.set(file, seconds * 1000);
  const lastRun = readJson(join(process.env.KASA_STATE_DIR || join(root, '.kasa'), 'test-timings.json'));
  for (const result of lastRun?.testResults ?? []) known.set(relative(root, result.name), result.endTime - result.startTime);
  return known;
}

class SlowestFirstSequencer extends TestSequencer {
  known = knownDurations();

  sort(tests) {
    const expected = (test) => this.time(test) ?? this.known.get(relative(root, test.path));
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const order = tests.map((test) => ({ test, failed: this.hasFailed(test), ms: expected(test), size: size(test) }));
    order.sort((a, b) => {
      if (a.failed !== b.failed) return a.failed ? -1 : 1;
      const msA = a.ms ?? UNLISTED_MS;
      const msB = b.ms ?? UNLISTED_MS;
      if (msA !== msB) return msB - msA;
      return b.size - a.size;
    });
    // jest's worker scheduling reads test.duration too (a file with a known long time is not run in band).
    return order.map(({ test, ms }) => Object.assign(test, { duration: ms }));
  }
}

export default SlowestFirstSequencer;
