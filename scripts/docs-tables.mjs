// Rewrites docs/statements.md's generated tables (statement formats, bank profiles) from the registries in
// packages/statements/src/formats and profiles. `--check` only says whether the file is up to date (exit 1 if not).
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { withGeneratedTables } = await import('../packages/statements/src/formats/docs-tables.ts');
const path = new URL('../docs/statements.md', import.meta.url);
const current = readFileSync(path, 'utf8');
const generated = withGeneratedTables(current);
if (process.argv.includes('--check')) {
  if (generated !== current) {
    console.error('docs/statements.md is out of date: run node scripts/docs-tables.mjs');
    process.exit(1);
  }
} else if (generated !== current) {
  writeFileSync(path, generated);
  console.log('docs/statements.md: generated tables rewritten');
} else {
  console.log('docs/statements.md: generated tables already up to date');
}
