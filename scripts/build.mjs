// `npm run build`: compiles each service, and the migrate step, into one ES module with esbuild, the files the
// image runs (Dockerfile, docker-compose.yml, k8s/):
//
//   services/gateway/dist/main.js  services/ledger/dist/main.js  services/webhook-worker/dist/main.js
//   services/console/dist/main.js  packages/db/dist/migrate.js
//
// The workspace's own code (@kasa/*, TypeScript source) and the generated Prisma client are bundled in;
// third-party packages stay imports, resolved from node_modules at run time, so each one must be a
// `dependencies` entry of the package that owns the output (checked here: the image installs production
// dependencies only). Files a module reads next to itself (`new URL('./x.css', import.meta.url)`) are copied
// to the same place relative to the output, so they are found from dist as from source; a path that would
// leave dist must reach the same file from both (prisma/migrations). A worker thread's module named that way
// (`new URL('./x.worker.js', import.meta.url)`, whose source is x.worker.ts beside it) is compiled, as a bundle
// of its own, to that name in dist. `scripts/setup.mjs` runs this after
// it generates the Prisma client; an output whose inputs have not changed is not rebuilt (`--force` rebuilds
// anyway, `--quiet` says nothing when all is current; names such as `gateway migrate` build only those).
import { build, version as esbuildVersion } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { performance } from 'node:perf_hooks';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => join(root, ...parts);
const rel = (path) => relative(root, path).split(sep).join('/');

/** What is built: the entry, the output, and the package whose `dependencies` the output may import. */
const TARGETS = [
  { name: 'gateway', entry: 'services/gateway/src/main.ts', outfile: 'services/gateway/dist/main.js', pkg: 'services/gateway' },
  { name: 'ledger', entry: 'services/ledger/src/main.ts', outfile: 'services/ledger/dist/main.js', pkg: 'services/ledger' },
  {
    name: 'webhook-worker',
    entry: 'services/webhook-worker/src/main.ts',
    outfile: 'services/webhook-worker/dist/main.js',
    pkg: 'services/webhook-worker',
  },
  { name: 'console', entry: 'services/console/src/main.ts', outfile: 'services/console/dist/main.js', pkg: 'services/console' },
  { name: 'migrate', entry: 'packages/db/src/cli/migrate.cli.ts', outfile: 'packages/db/dist/migrate.js', pkg: 'packages/db' },
];

// `new URL('<relative path>', import.meta.url)`: a file read relative to its module.
const RELATIVE_URL = /new\s+URL\(\s*(['"`])([^'"`$]+)\1\s*,\s*import\.meta\.url\s*\)/g;
// A worker thread's module: compiled from the `.ts` beside it, not copied.
const WORKER_MODULE = /\.worker\.js$/;
// Any other way of finding a file from a module's own location, which a bundle would silently change.
const MODULE_LOCATION = /import\.meta\.(?:url|dirname|filename)|\b__dirname\b|\b__filename\b/g;
// Known and harmless: the generated Prisma client records its directory for engine files this project does not
// use (the query compiler is imported from @prisma/client as base64 wasm, resolved from node_modules).
const ALLOWED_LOCATION_USES = [/\/generated\/prisma\/client\.ts$/];

const STAMP = at('node_modules', '.cache', 'kasa-build', 'stamp.json');
const builder = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .update(esbuildVersion)
  .digest('hex')
  .slice(0, 16);

const log = (message) => process.stderr.write(`[build] ${message}\n`);

function readStamp() {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, 'utf8'));
    return stamp.builder === builder ? stamp.targets : {};
  } catch {
    return {};
  }
}

/** Every file under `path` (itself if it is a file). */
function filesUnder(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => filesUnder(join(path, entry.name)));
}

const fileState = (path) => {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : 'missing';
};

/** Whether the recorded build of `target` still holds: its outputs exist and no input changed or appeared. */
function upToDate(target, recorded) {
  if (!recorded || !recorded.outputs.every((output) => existsSync(at(output)))) return false;
  if (!Object.entries(recorded.inputs).every(([path, state]) => fileState(at(path)) === state)) return false;
  return recorded.assetRoots.every(
    (assetRoot) => existsSync(at(assetRoot)) && filesUnder(at(assetRoot)).every((file) => rel(file) in recorded.inputs),
  );
}

/** Marks third-party imports external (node_modules at run time); @kasa/* and relative imports are bundled. */
const thirdPartyExternal = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@kasa/') ? undefined : { path: args.path, external: true }));
  },
};

/**
 * Finds the files modules read relative to themselves and plans their copies (`found`) or, for a worker's module,
 * its compilation (`workers`); refuses other location tricks.
 */
function runtimeFiles(target, found, problems, workers = new Map()) {
  const outDir = dirname(at(target.outfile));
  return {
    name: 'runtime-files',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const handled = new Set();
        for (const match of text.matchAll(RELATIVE_URL)) {
          handled.add(match.index + match[0].indexOf('import.meta.url'));
          const source = resolve(dirname(args.path), match[2]);
          const fromDist = resolve(outDir, match[2]);
          const where = `${rel(args.path)} reads ${match[2]}`;
          if (WORKER_MODULE.test(match[2])) {
            const workerSource = source.replace(/\.js$/, '.ts');
            if (!existsSync(workerSource)) problems.push(`${where}, a worker whose source ${rel(workerSource)} does not exist`);
            else if (!fromDist.startsWith(outDir + sep)) problems.push(`${where}: a worker must be compiled inside dist`);
            else workers.set(fromDist, workerSource);
            continue;
          }
          if (!existsSync(source)) problems.push(`${where}, which does not exist (${rel(source)})`);
          else if (fromDist === source) continue;
          else if (fromDist.startsWith(outDir + sep)) found.set(fromDist, source);
          else problems.push(`${where}: from ${target.outfile} that is ${rel(fromDist)}, outside dist and not ${rel(source)}`);
        }
        for (const match of text.matchAll(MODULE_LOCATION)) {
          if (handled.has(match.index) || ALLOWED_LOCATION_USES.some((allowed) => allowed.test(args.path))) continue;
          const line = text.slice(0, match.index).split('\n').length;
          problems.push(
            `${rel(args.path)}:${line} uses ${match[0]} in a way the build cannot follow; read files with new URL('<relative path>', import.meta.url)`,
          );
        }
        return undefined;
      });
    },
  };
}

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Writes `dir` whole: built in a sibling directory, then swapped in, so a reader never sees half a build. */
function replaceDir(dir, fill) {
  const fresh = `${dir}.tmp-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  fill(fresh);
  try {
    renameSync(dir, old);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(fresh, dir);
  } catch (error) {
    // Another build swapped in the same outputs meanwhile.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    rmSync(fresh, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/** One bundle of `entry` to `outfile` (absolute paths), kept in memory; `plugins` after the third-party rule. */
function bundle(target, entry, outfile, plugins) {
  return build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: 'linked',
    sourcesContent: false,
    charset: 'utf8',
    legalComments: 'none',
    banner: { js: `// Built by scripts/build.mjs from ${rel(entry)}: edit the source, then \`npm run build\`.` },
    plugins: [thirdPartyExternal, ...plugins],
    metafile: true,
    write: false,
    logLevel: 'silent',
  }).catch((error) => {
    const messages = error.errors?.map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`) ?? [String(error)];
    throw new Error(`${target.name}: ${messages.join('\n  ')}`);
  });
}

async function buildTarget(target) {
  const started = performance.now();
  const copies = new Map();
  const problems = [];
  const workers = new Map();
  const result = await bundle(target, at(target.entry), at(target.outfile), [runtimeFiles(target, copies, problems, workers)]);
  // Each worker module a bundle starts, compiled beside it (a worker's own workers are not followed).
  const workerResults = await Promise.all(
    [...workers].map(([outfile, entry]) => bundle(target, entry, outfile, [runtimeFiles(target, copies, problems)])),
  );

  // Every third-party import must be a dependency of the package the output belongs to.
  const manifest = JSON.parse(readFileSync(at(target.pkg, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  const imported = [result, ...workerResults].flatMap((built) => Object.values(built.metafile.outputs).flatMap((output) => output.imports));
  const externals = [...new Set(imported.filter((i) => i.external && !isBuiltin(i.path)).map((i) => packageName(i.path)))].sort();
  for (const name of externals.filter((name) => !declared.has(name))) {
    problems.push(`${target.outfile} imports ${name}, which is not in the dependencies of ${target.pkg}/package.json`);
  }
  if (problems.length > 0) throw new Error(`${target.name}:\n  ${problems.join('\n  ')}`);
  const outputFiles = [result, ...workerResults].flatMap((built) => built.outputFiles);
  const sources = new Set([result, ...workerResults].flatMap((built) => Object.keys(built.metafile.inputs)));

  const outDir = dirname(at(target.outfile));
  replaceDir(outDir, (dir) => {
    for (const file of outputFiles) writeFileSync(join(dir, relative(outDir, file.path)), file.contents);
    // The output is an ES module whatever package.json is (or is not) beside dist in the image.
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    for (const [to, from] of copies) cpSync(from, join(dir, relative(outDir, to)), { recursive: true });
  });

  const assetRoots = [...copies.values()].map(rel);
  const inputs = {};
  for (const path of [
    ...[...sources].map((path) => at(path)),
    ...[...copies.values()].flatMap(filesUnder),
    at(target.pkg, 'package.json'),
    // esbuild reads the TypeScript settings from these.
    at('tsconfig.base.json'),
    ...[at(target.pkg, 'tsconfig.json'), at('tsconfig.json')].filter((path) => existsSync(path)),
  ]) {
    inputs[rel(path)] = fileState(path);
  }
  const bytes = result.outputFiles.find((file) => file.path === at(target.outfile)).contents.length;
  log(
    `${target.outfile}: ${(bytes / 1024).toFixed(0)} KiB from ${Object.keys(result.metafile.inputs).length} files` +
      `${copies.size > 0 ? `, ${copies.size} runtime file(s) copied` : ''}` +
      `${workers.size > 0 ? `, worker(s) ${[...workers.keys()].map((path) => relative(outDir, path)).join(' ')}` : ''}` +
      `, external: ${externals.join(' ') || 'none'} ` +
      `(${Math.round(performance.now() - started)} ms)`,
  );
  const outputs = [target.outfile, rel(join(outDir, 'package.json')), ...[...copies.keys(), ...workers.keys()].map(rel)];
  return { inputs, assetRoots, outputs, externals };
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const only = args.filter((arg) => !arg.startsWith('--'));
  const unknown = only.filter((name) => !TARGETS.some((target) => target.name === name));
  if (unknown.length > 0) throw new Error(`no build target ${unknown.join(', ')}; targets: ${TARGETS.map((t) => t.name).join(', ')}`);
  const wanted = TARGETS.filter((target) => only.length === 0 || only.includes(target.name));

  const recorded = readStamp();
  const stale = wanted.filter((target) => force || !upToDate(target, recorded[target.name]));
  if (stale.length === 0) {
    if (!args.includes('--quiet')) log(`up to date (${wanted.map((t) => t.outfile).join(', ')})`);
    return;
  }
  const results = await Promise.allSettled(stale.map(async (target) => [target.name, await buildTarget(target)]));
  const failures = results.filter((result) => result.status === 'rejected').map((result) => result.reason);
  if (failures.length > 0) throw new Error(failures.map((error) => (error instanceof Error ? error.message : String(error))).join('\n'));
  const built = results.map((result) => result.value);
  // Read again: another build may have recorded targets meanwhile.
  const stamp = { builder, targets: { ...readStamp(), ...Object.fromEntries(built) } };
  mkdirSync(dirname(STAMP), { recursive: true });
  writeFileSync(`${STAMP}.${process.pid}`, JSON.stringify(stamp, null, 1));
  renameSync(`${STAMP}.${process.pid}`, STAMP);
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
