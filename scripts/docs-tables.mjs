// Rewrites what is generated from the registries: docs/statements.md's tables (statement formats, bank profiles) from
// packages/statements/src/formats and profiles, the statement formats' parser-free catalog the console, the CLI and
// the ops contract read (packages/contracts/src/generated/statement-formats.ts) from the same formats, and
// docs/webhooks.md's tables (event types) from packages/contracts/src/event-types.ts. `--check` only says whether the
// files are up to date (exit 1 if not).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { withGeneratedTables } = await import('../packages/statements/src/formats/docs-tables.ts');
const { CATALOG_FILE, statementFormatCatalog } = await import('../packages/statements/src/formats/catalog.ts');
const { withEventTables } = await import('./event-tables.ts');
let stale = false;
for (const [file, generate] of [
  ['docs/statements.md', withGeneratedTables],
  [CATALOG_FILE, statementFormatCatalog],
  ['docs/webhooks.md', withEventTables],
]) {
  const path = new URL(`../${file}`, import.meta.url);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const generated = generate(current);
  if (process.argv.includes('--check')) {
    if (generated !== current) {
      console.error(`${file} is out of date: run node scripts/docs-tables.mjs`);
      stale = true;
    }
  } else if (generated !== current) {
    mkdirSync(new URL('.', path), { recursive: true });
    writeFileSync(path, generated);
    console.log(`${file}: rewritten`);
  } else {
    console.log(`${file}: already up to date`);
  }
}
if (stale) process.exit(1);
