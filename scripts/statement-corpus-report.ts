// `npm run corpus`: reads every real statement file of the corpus (node scripts/statement-corpus.mjs assembles it;
// the npm-shipped samples are always there) and prints, per source, the files read and refused with reasons, the
// lines and the fields agreeing with each reference parse; the same report the corpus test prints. Exits 1 when the
// corpus test would fail. `--all` lists every field difference, not the first ten per source.
import { formatReport, runCorpus } from '../packages/statements/test/corpus/corpus-report.js';

const run = runCorpus();
console.log(formatReport(run, { differencesPerSource: process.argv.includes('--all') ? Infinity : 10 }));
process.exitCode = run.results.some((r) => r.failures.length) ? 1 : 0;
