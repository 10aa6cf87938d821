// Assembles the real-file statement corpus (packages/statements/corpus/sources.json) from local git mirrors of its
// public repositories, at the commits recorded there, into a directory outside version control: the files themselves
// are other projects' material and are never committed here. Writes each file beside its reference parse, a
// manifest.json the corpus test and `npm run corpus` read, and ORIGIN.md (where each file came from, its licence).
//
//   node scripts/statement-corpus.mjs [--out DIR] [--mirrors DIR]
//
// --out defaults to .cache/statement-corpus in the repository root; --mirrors to /work/.mirror, where a repository
// owner/name is mirrored as owner+name/repo (a bare git directory, or a clone's .git inside it). The npm sources are
// not copied: they install with @kasa/statements' devDependencies and the test reads them from there.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = await import('node:util').then(({ parseArgs }) =>
  parseArgs({ options: { out: { type: 'string' }, mirrors: { type: 'string' } } }),
);
const out = resolve(values.out ?? join(root, '.cache', 'statement-corpus'));
const mirrors = resolve(values.mirrors ?? '/work/.mirror');
const { sources } = JSON.parse(readFileSync(join(root, 'packages/statements/corpus/sources.json'), 'utf8'));

function gitDirOf(mirror) {
  const repo = join(mirrors, mirror, 'repo');
  if (existsSync(join(repo, '.git'))) return join(repo, '.git');
  if (existsSync(join(repo, 'HEAD'))) return repo;
  return null;
}

const git = (gitDir, args) => execFileSync('git', ['--git-dir', gitDir, ...args], { maxBuffer: 64 * 1024 * 1024 });

/** path -> blob id of every file in the commit. */
function treeOf(gitDir, commit) {
  const listing = git(gitDir, ['ls-tree', '-r', '-z', commit]).toString('utf8');
  const tree = new Map();
  for (const entry of listing.split('\0')) {
    const match = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (match) tree.set(match[2], match[1]);
  }
  return tree;
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const manifest = [];
const origin = [];
const missing = [];

for (const source of sources.filter((s) => s.mirror)) {
  const gitDir = gitDirOf(source.mirror);
  if (!gitDir) {
    missing.push(`${source.name}: no mirror at ${join(mirrors, source.mirror)} (fetch ${source.repository})`);
    continue;
  }
  const seen = new Set(); // a file kept unchanged across branches is read once, under the first snapshot listed (the newest)
  let count = 0;
  for (const { label, commit } of source.snapshots) {
    let tree;
    try {
      tree = treeOf(gitDir, commit);
    } catch {
      missing.push(`${source.name}: commit ${commit} (${label}) is not in ${gitDir}`);
      continue;
    }
    for (const [path, blob] of [...tree].sort(([a], [b]) => a.localeCompare(b))) {
      const rule = source.files.find((r) => new RegExp(r.match).test(path));
      if (!rule) continue;
      const referencePath = rule.reference ? path.replace(new RegExp(rule.match), rule.reference) : null;
      const referenceBlob = referencePath ? tree.get(referencePath) : undefined;
      const key = blob;
      if (seen.has(key)) continue;
      seen.add(key);
      const file = join(source.name, label, path);
      mkdirSync(dirname(join(out, file)), { recursive: true });
      writeFileSync(join(out, file), git(gitDir, ['cat-file', 'blob', blob]));
      let reference = null;
      if (referencePath && referenceBlob) {
        reference = { kind: source.reference.kind, path: join(source.name, label, referencePath) };
        writeFileSync(join(out, reference.path), git(gitDir, ['cat-file', 'blob', referenceBlob]));
      }
      manifest.push({ source: source.name, path: file, format: rule.format, reference });
      origin.push(`| \`${file}\` | ${source.repository}/blob/${commit}/${path} | ${reference ? `\`${referencePath}\`` : 'none'} |`);
      count++;
    }
  }
  console.log(`${source.name}: ${count} files`);
}

writeFileSync(join(out, 'manifest.json'), `${JSON.stringify({ files: manifest }, null, 2)}\n`);
writeFileSync(
  join(out, 'ORIGIN.md'),
  [
    '# Statement corpus: where each file came from',
    '',
    'Assembled by `node scripts/statement-corpus.mjs` from packages/statements/corpus/sources.json. Each file is the',
    "work of its repository's authors, under the licence named here; it is read by Kasa's tests and not redistributed.",
    '',
    ...sources
      .filter((s) => s.mirror)
      .flatMap((s) => [
        `## ${s.name}`,
        '',
        `- Repository: ${s.repository}`,
        `- Licence: ${s.license}`,
        `- Reference parse: ${s.reference.describes}`,
        '',
        '| File | Origin | Reference |',
        '| ---- | ------ | --------- |',
        ...origin.filter((row) => row.startsWith(`| \`${s.name}/`)),
        '',
      ]),
    ...(missing.length ? ['## Not assembled', '', ...missing.map((m) => `- ${m}`), ''] : []),
  ].join('\n'),
);
for (const problem of missing) console.error(`not assembled: ${problem}`);
console.log(`${manifest.length} files in ${out}`);
