// Rewrites what is generated from the registries: the list of the statement format descriptors
// (packages/statements/src/formats/generated/format-descriptors.ts) from the *.format.ts files beside it, then from
// those formats docs/statements.md's tables and each format's prose (with the bank profiles' table from
// packages/statements/src/profiles) and the parser-free catalog the console, the CLI and the ops contract read
// (packages/contracts/src/generated/statement-formats.ts), and docs/webhooks.md's tables (event types) from
// packages/contracts/src/event-types.ts, docs/cli.md's table of the commands record kinds declare (their `cli`
// parts, through the CLI's own registration), and the record kinds' parts of docs/architecture.md (their ledger
// folders), docs/console.md (their declared pages) and docs/operations.md (their audit actions, desk queues and
// sections) from each kind's contract module (its `docs` part, with its `console` and `desk` parts;
// scripts/record-kind-docs.ts). `--check` only says whether the files are up to date (exit 1 if not).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
let stale = false;
const check = process.argv.includes('--check');

// The list first, and read before anything imports it: the registry is made from it, so a descriptor added or renamed
// reaches the docs and the catalog in this same run.
const { DESCRIPTOR_LIST_FILE, formatDescriptorList } = await import('../packages/statements/src/formats/descriptor-list.ts');
update(DESCRIPTOR_LIST_FILE, formatDescriptorList);
if (check && stale) {
  // The registry below would be made from the stale list: what it would say of the docs and the catalog is moot.
  process.exit(1);
}

const { withGeneratedTables } = await import('../packages/statements/src/formats/docs-tables.ts');
const { CATALOG_FILE, statementFormatCatalog } = await import('../packages/statements/src/formats/catalog.ts');
const { withEventTables } = await import('./event-tables.ts');
const { withCliTables } = await import('./cli-tables.ts');
const { withRecordKindArchitecture, withRecordKindConsole, withRecordKindOperations } = await import('./record-kind-docs.ts');
for (const [file, generate] of [
  ['docs/statements.md', withGeneratedTables],
  [CATALOG_FILE, statementFormatCatalog],
  ['docs/webhooks.md', withEventTables],
  ['docs/cli.md', withCliTables],
  ['docs/architecture.md', withRecordKindArchitecture],
  ['docs/console.md', withRecordKindConsole],
  ['docs/operations.md', withRecordKindOperations],
]) {
  update(file, generate);
}
if (stale) process.exit(1);

/** Writes `file` as `generate` makes it from its current text, or with `--check` only notes that it differs. */
function update(file, generate) {
  const path = new URL(`../${file}`, import.meta.url);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const generated = generate(current);
  if (check) {
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
