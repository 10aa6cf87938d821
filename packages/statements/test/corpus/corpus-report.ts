import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkFile, FIELDS, type ExpectedRefusal, type FileResult } from './check-file.js';
import { corpusDirectory, npmCorpusFiles, wildCorpusFiles, type CorpusFile } from './corpus-files.js';

const refusalsPath = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'corpus', 'expected-refusals.json');

export function expectedRefusals(): ExpectedRefusal[] {
  return (JSON.parse(readFileSync(refusalsPath, 'utf8')) as { refusals: ExpectedRefusal[] }).refusals;
}

export interface CorpusRun {
  /** The wild corpus directory read, or null when none was found (then only the npm-shipped files are read). */
  dir: string | null;
  tried: string[];
  results: FileResult[];
}

/** Reads every corpus file: the wild corpus (when assembled) and the npm-shipped samples. */
export function runCorpus(env: NodeJS.ProcessEnv = process.env): CorpusRun {
  const { dir, tried } = corpusDirectory(env);
  const files: CorpusFile[] = [...(dir ? wildCorpusFiles(dir) : []), ...npmCorpusFiles()];
  const refusals = expectedRefusals();
  return { dir, tried, results: files.map((file) => checkFile(file, refusals)) };
}

/** The per-source report: files read and refused (with reasons), lines, fields compared, agreeing and differing. */
export function formatReport(run: CorpusRun, options: { differencesPerSource?: number } = {}): string {
  const limit = options.differencesPerSource ?? 10;
  const out: string[] = [];
  if (!run.dir) {
    out.push(
      '!!! NO WILD STATEMENT CORPUS: only the npm-shipped sample files are read. Looked in:',
      ...run.tried.map((dir) => `!!!   ${dir}`),
      '!!! Assemble it with `node scripts/statement-corpus.mjs` (or set STATEMENT_CORPUS_DIR).',
      '',
    );
  } else out.push(`Statement corpus: ${run.dir}`, '');
  const bySource = new Map<string, FileResult[]>();
  for (const r of run.results) bySource.set(r.source, [...(bySource.get(r.source) ?? []), r]);
  const total = { files: 0, read: 0, refused: 0, crashed: 0, lines: 0, compared: 0, agreeing: 0 };
  for (const [source, results] of bySource) {
    const read = results.filter((r) => r.outcome === 'read');
    const refused = results.filter((r) => r.outcome === 'refused');
    const crashed = results.filter((r) => r.outcome === 'crashed');
    const lines = read.reduce((n, r) => n + r.lines, 0);
    const withReference = read.filter((r) => r.hasReference);
    out.push(
      `== ${source}: ${results.length} files, ${read.length} read (${withReference.length} against a reference parse), ${refused.length} refused` +
        `${crashed.length ? `, ${crashed.length} CRASHED` : ''}; ${lines} lines`,
    );
    let compared = 0;
    let agreeing = 0;
    const fieldRows = FIELDS.map((field) => {
      const c = results.reduce((n, r) => n + r.compared[field], 0);
      const a = results.reduce((n, r) => n + r.agreeing[field], 0);
      compared += c;
      agreeing += a;
      return c ? `${field} ${a}/${c}` : null;
    }).filter((row) => row);
    if (fieldRows.length)
      out.push(`   fields agreeing/compared: ${fieldRows.join(', ')}; all ${agreeing}/${compared}, ${compared - agreeing} differing`);
    const inconsistent = read.filter((r) => r.inconsistent.length);
    if (inconsistent.length) out.push(`   ${inconsistent.length} read files do not add up (opening + lines != closing):`);
    for (const r of inconsistent)
      out.push(`     ${r.name}: ${r.inconsistent[0]}${r.inconsistent.length > 1 ? ` (+${r.inconsistent.length - 1} more)` : ''}`);
    for (const r of [...refused, ...crashed]) out.push(`   ${r.outcome} ${r.name}: ${r.error}`);
    for (const r of results.filter((x) => x.referenceProblem)) out.push(`   reference not read for ${r.name}: ${r.referenceProblem}`);
    const differences = results.flatMap((r) => r.differences.map((d) => `${r.name} ${d.field} ${d.detail}`));
    for (const d of differences.slice(0, limit)) out.push(`   differs: ${d}`);
    if (differences.length > limit) out.push(`   ... and ${differences.length - limit} more differences`);
    for (const r of results) for (const failure of r.failures) out.push(`   FAILS ${r.name}: ${failure}`);
    out.push('');
    total.files += results.length;
    total.read += read.length;
    total.refused += refused.length;
    total.crashed += crashed.length;
    total.lines += lines;
    total.compared += compared;
    total.agreeing += agreeing;
  }
  const failures = run.results.reduce((n, r) => n + r.failures.length, 0);
  out.push(
    `All: ${total.files} files, ${total.read} read, ${total.refused} refused, ${total.crashed} crashed; ${total.lines} lines; ` +
      `fields ${total.agreeing}/${total.compared} agreeing; ${failures} failures`,
  );
  return out.join('\n');
}
