// Rewrites the docs' generated tables from the registries: docs/statements.md's (statement formats, bank profiles)
// from packages/statements/src/formats and profiles, docs/webhooks.md's (event types) from
// packages/contracts/src/event-types.ts. `--check` only says whether the files are up to date (exit 1 if not).
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { withGeneratedTables } = await import('../packages/statements/src/formats/docs-tables.ts');
const { withEventTables } = await import('./event-tables.ts');
let stale = false;
for (const [file, generate] of [
  ['docs/statements.md', withGeneratedTables],
  ['docs/webhooks.md', withEventTables],
]) {
  const path = new URL(`../${file}`, import.meta.url);
  const current = readFileSync(path, 'utf8');
  const generated = generate(current);
  if (process.argv.includes('--check')) {
    if (generated !== current) {
      console.error(`${file} is out of date: run node scripts/docs-tables.mjs`);
      stale = true;
    }
  } else if (generated !== current) {
    writeFileSync(path, generated);
    console.log(`${file}: generated tables rewritten`);
  } else {
    console.log(`${file}: generated tables already up to date`);
  }
}
if (stale) process.exit(1);
