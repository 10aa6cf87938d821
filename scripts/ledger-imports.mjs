#!/usr/bin/env node
// The import arrows between the ledger's folders (services/ledger/src/<folder>/), read from the shipped code's
// relative imports (type-only imports included: they are arrows of understanding too). Prints each arrow with
// its count, the pairs of folders that import each other both ways, and, when a layer order is given in
// services/ledger/src/layers.json, the imports that run from a lower layer up to a higher one.
//   node scripts/ledger-imports.mjs          the summary
//   node scripts/ledger-imports.mjs --json   the same as JSON
// test/lint/ledger-folders.test.ts holds the ledger to no pair importing each other both ways.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'services/ledger/src');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) yield path;
  }
}

/** The folder a file belongs to: its first directory under src, or `(root)` for the composition files at the top. */
const folderOf = (path) => {
  const parts = relative(SRC, path).split('/');
  return parts.length === 1 ? '(root)' : parts[0];
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"`;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/**
 * The arrows of the shipped tree; `planted` adds files as if they were in it (`{ path: 'deposits/x.ts', text }`, the
 * path under services/ledger/src), for a test that proves a violation is seen.
 */
export function ledgerArrows(planted = []) {
  const arrows = new Map();
  const sources = [
    ...[...files(SRC)].map((file) => ({ file, read: () => readFileSync(file, 'utf8') })),
    ...planted.map(({ path, text }) => ({ file: join(SRC, path), read: () => text })),
  ];
  for (const { file, read } of sources) {
    const from = folderOf(file);
    const text = read();
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(dirname(file), (match[1] ?? match[2]).replace(/\.js$/, '.ts'));
      if (!target.startsWith(SRC)) continue;
      const to = folderOf(target);
      if (to === from) continue;
      const key = `${from} -> ${to}`;
      const arrow = arrows.get(key) ?? { from, to, imports: 0, files: [] };
      arrow.imports += 1;
      arrow.files.push(relative(SRC, file));
      arrows.set(key, arrow);
    }
  }
  return [...arrows.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
}

export function summary(arrows, layers) {
  const has = new Set(arrows.map((arrow) => `${arrow.from} -> ${arrow.to}`));
  const twoWay = arrows
    .filter((arrow) => arrow.from < arrow.to && has.has(`${arrow.to} -> ${arrow.from}`))
    .map((arrow) => `${arrow.from} <-> ${arrow.to}`);
  const rank = new Map();
  (layers ?? []).forEach((layer, index) => layer.folders.forEach((folder) => rank.set(folder, index)));
  const upward = layers
    ? arrows.filter(
        (arrow) =>
          (rank.get(arrow.from) ?? Infinity) < (rank.get(arrow.to) ?? Infinity) ||
          (rank.get(arrow.from) === rank.get(arrow.to) && arrow.from !== arrow.to && !layers[rank.get(arrow.from)]?.peers),
      )
    : [];
  return {
    folders: new Set(arrows.flatMap((arrow) => [arrow.from, arrow.to])).size,
    arrows: arrows.length,
    imports: arrows.reduce((sum, arrow) => sum + arrow.imports, 0),
    twoWay,
    upward: upward.map((arrow) => `${arrow.from} -> ${arrow.to} (${arrow.imports})`),
    upwardImports: upward.reduce((sum, arrow) => sum + arrow.imports, 0),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arrows = ledgerArrows();
  const layersFile = join(SRC, 'layers.json');
  const layers = existsSync(layersFile) ? JSON.parse(readFileSync(layersFile, 'utf8')).layers : undefined;
  const result = summary(arrows, layers);
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ ...result, arrows }, null, 2));
  } else {
    console.log(`${result.arrows} arrows (${result.imports} imports) between ${result.folders} ledger folders`);
    console.log(`${result.twoWay.length} pairs import each other both ways${result.twoWay.length ? `: ${result.twoWay.join(', ')}` : ''}`);
    if (layers)
      console.log(
        `${result.upward.length} arrows (${result.upwardImports} imports) run up the layers${result.upward.length ? `: ${result.upward.join(', ')}` : ''}`,
      );
  }
}
