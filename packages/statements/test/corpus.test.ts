import { describe, expect, it } from '@jest/globals';
import { FIELDS } from './corpus/check-file.js';
import { formatReport, runCorpus } from './corpus/corpus-report.js';

// Real statement files from public sources (packages/statements/corpus/sources.json): the wild corpus assembled by
// `node scripts/statement-corpus.mjs` (or laid in ../shared/statement-corpus, or named by STATEMENT_CORPUS_DIR) and
// the samples npm packages ship. Each file is decoded and parsed as an upload with no content type, and compared with
// its source's own parse of it where there is one.
const run = runCorpus();

describe('real statement files (the corpus)', () => {
  it('prints the per-source report, saying loudly when the wild corpus is missing', () => {
    console.log(formatReport(run));
    expect(run.results.length).toBeGreaterThan(0);
    if (!run.dir) expect(formatReport(run)).toContain('NO WILD STATEMENT CORPUS');
  });

  it('reads the npm-shipped samples with the snapshot reference of @centrapay/swift-parser', () => {
    const compared = run.results.filter((r) => r.source === 'npm-centrapay-swift-parser' && r.compared.amount > 0);
    expect(compared.length).toBeGreaterThanOrEqual(3);
  });

  it('never throws anything but a StatementError', () => {
    expect(run.results.filter((r) => r.outcome === 'crashed').map((r) => `${r.name}: ${r.error}`)).toEqual([]);
  });

  it('agrees with every reference parse on every amount and balance', () => {
    const differing = run.results.flatMap((r) =>
      r.differences.filter((d) => d.field === 'amount' || d.field === 'balance').map((d) => `${r.name} ${d.field} ${d.detail}`),
    );
    expect(differing).toEqual([]);
    const compared = run.results.reduce((n, r) => n + r.compared.amount, 0);
    expect(compared).toBeGreaterThan(0);
  });

  it('refuses only the files expected-refusals.json lists, for the reason it gives, and reads every other', () => {
    expect(run.results.flatMap((r) => r.failures.map((f) => `${r.name}: ${f}`))).toEqual([]);
  });

  it('counts every field it compares', () => {
    for (const result of run.results) {
      for (const field of FIELDS) expect(result.agreeing[field]).toBeLessThanOrEqual(result.compared[field]);
      expect(result.differences.length).toBe(FIELDS.reduce((n, f) => n + result.compared[f] - result.agreeing[f], 0));
    }
  });
});
