// `npm run build` (and `prepack`, so `npm pack` always ships a fresh build): the SDK as a package a partner installs
// from a tarball, with no dependencies beyond Node's built-ins.
//
//   dist/index.js       ES module      esbuild, @kasa/webhook-signing bundled in from its workspace source
//   dist/index.cjs      CommonJS       the same bundle for require()
//   dist/types/         .d.ts (ESM)    tsc -p tsconfig.build.json: the SDK's, webhook-signing's in types/webhook-signing/
//   dist/types-cjs/     .d.ts (CJS)    the same files under a {"type":"commonjs"} package.json, for require()
//
// tsc keeps `from '@kasa/webhook-signing'` as written, a package the partner does not have; those specifiers are
// pointed at the declarations shipped beside the SDK's, and the build fails if any `@kasa/` specifier is left.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(pkg, 'dist');
const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
const log = (message) => process.stderr.write(`[sdk build] ${message}\n`);

// tsc mirrors packages/ under its outDir; the SDK's declarations go to the top of dist/types, each bundled workspace
// package's under its own folder there.
const EMITTED = join(dist, 'types.tsc');
const PLACES = [
  { from: join(EMITTED, 'sdk', 'src'), to: join(dist, 'types') },
  { from: join(EMITTED, 'webhook-signing', 'src'), to: join(dist, 'types', 'webhook-signing'), name: '@kasa/webhook-signing' },
];
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(['"])(@kasa\/[^'"]+)\2/g;

async function bundle(format, outfile) {
  const result = await build({
    entryPoints: [join(pkg, 'src', 'index.ts')],
    outfile: join(dist, outfile),
    bundle: true,
    platform: 'node',
    // engines.node is >=18: keep the syntax that old.
    target: 'node18',
    format,
    charset: 'utf8',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  // Everything but node built-ins is bundled: an import left external would be a dependency the package lacks.
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  const foreign = imports.filter((i) => !isBuiltin(i.path)).map((i) => i.path);
  if (foreign.length > 0) throw new Error(`${outfile} imports ${[...new Set(foreign)].join(', ')}: only node built-ins may stay imports`);
}

function declarations() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.build.json')], { cwd: pkg, stdio: 'inherit' });
  let count = 0;
  for (const { from, to } of PLACES) {
    for (const entry of readdirSync(from, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith('.d.ts'))) {
      const file = join(to, relative(from, join(entry.parentPath, entry.name)));
      const text = readFileSync(join(entry.parentPath, entry.name), 'utf8').replace(SPECIFIER, (match, keyword, quote, name) => {
        const place = PLACES.find((p) => p.name === name);
        if (place === undefined) throw new Error(`${relative(pkg, file)} imports ${name}, which the build does not ship`);
        const path = relative(dirname(file), join(place.to, 'index.js')).split(sep).join('/');
        return `${keyword}${quote}${path.startsWith('.') ? path : `./${path}`}${quote}`;
      });
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
      count += 1;
    }
  }
  rmSync(EMITTED, { recursive: true });
  cpSync(join(dist, 'types'), join(dist, 'types-cjs'), { recursive: true });
  // TypeScript reads a .d.ts as CommonJS or ESM by the nearest package.json, as Node does the .js beside it.
  writeFileSync(join(dist, 'types-cjs', 'package.json'), '{ "type": "commonjs" }\n');
  return count;
}

rmSync(dist, { recursive: true, force: true });
await Promise.all([bundle('esm', 'index.js'), bundle('cjs', 'index.cjs')]);
const count = declarations();
log(`${manifest.name}@${manifest.version}: dist/index.js, dist/index.cjs and ${count} declaration files (x2)`);
