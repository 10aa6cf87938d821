// The sources the tree derives from itself, written beside the code that imports them and never committed (.gitignore):
// the schema's tables by model, and the reviewed record kinds' lists in the ops contract and in the ledger, so a new
// model or a new kind is one declaration with no list line to add. scripts/setup.mjs writes them (before typecheck, lint,
// tests and every start); the image's build runs this file itself (Dockerfile), as it copies the sources without running
// setup. A file is rewritten only when its text changes, so an unchanged tree does not rebuild the services.
// Plain Node with no dependencies: setup imports it before anything else may be installed.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where each generated file is written, relative to the repository. */
export const TABLES_FILE = 'packages/db/src/generated/tables.ts';
export const OPS_RECORD_KINDS_FILE = 'packages/contracts/src/generated/ops-record-kinds.ts';
export const LEDGER_RECORD_KINDS_FILE = 'services/ledger/src/generated/record-kinds.ts';

/** The contract modules of the reviewed record kinds: every `.ts` of this folder but its index. */
export const OPS_RECORDS_DIR = 'packages/contracts/src/ops-records';
/** A kind's contract module declares its part of the ops contract as one `export const <NAME>_OPS = {`. */
const OPS_KIND_EXPORT = /^export const ([A-Z][A-Z0-9_]*_OPS) = \{/gm;

/**
 * The ledger's convention for a kind: a file `services/ledger/src/<folder>/<name>-ops.routes.ts` declares it as
 * `export const <name>Kind = { ... } satisfies RecordKind<...>;`, the object's closing brace at the start of a line.
 */
export const LEDGER_SRC = 'services/ledger/src';
export const OPS_ROUTES_FILE = /-ops\.routes\.ts$/;
// The object's own lines: none starts with `}`, so a match never runs on into the next declaration.
const LEDGER_KIND_EXPORT = /^export const (\w+Kind) = \{\n(?:(?!\}).*\n)*\} satisfies RecordKind</gm;

const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const HEADER = (from) => `// Written by scripts/setup.mjs (scripts/generate-sources.mjs) from ${from}; do not edit.`;

/** TABLES: each model of prisma/schema.prisma and its table (`@@map`), for the raw statements that name one. */
export function tablesSource(root = ROOT) {
  const schema = readFileSync(join(root, 'prisma', 'schema.prisma'), 'utf8');
  const entries = [...schema.matchAll(/^model (\w+) \{\n([\s\S]*?)^\}/gm)].map(([, model, body]) => {
    const mapped = /^\s*@@map\("(\w+)"\)/m.exec(body);
    return `  ${model}: '${mapped ? mapped[1] : model}',`;
  });
  return [
    HEADER('prisma/schema.prisma'),
    '// Each model and its table (`@@map`).',
    'export const TABLES = {',
    ...entries,
    '} as const;',
    '',
    '/** A table of the schema, as a raw statement may name it. */',
    'export type TableName = (typeof TABLES)[keyof typeof TABLES];',
    '',
  ].join('\n');
}

/** Each kind's contract module (its file name without `.ts`) and the one `…_OPS` it exports, by module name. */
export function opsRecordModules(root = ROOT) {
  return readdirSync(join(root, OPS_RECORDS_DIR))
    .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
    .sort(byName)
    .map((file) => {
      const declared = [...readFileSync(join(root, OPS_RECORDS_DIR, file), 'utf8').matchAll(OPS_KIND_EXPORT)].map((m) => m[1]);
      // Setup stops here rather than leave a module out of the ops contract unseen.
      if (declared.length !== 1)
        throw new Error(
          `${OPS_RECORDS_DIR}/${file} declares ${declared.length} kinds; a kind's module exports its part of the ops contract as exactly one \`export const <NAME>_OPS = {\``,
        );
      return { module: file.slice(0, -'.ts'.length), kind: declared[0] };
    });
}

/**
 * OPS_RECORD_KINDS and what each kind's module exports: the modules in alphabetical order (the ops document lists the
 * kinds' operations in it), each kind under its module's name with its literal type, which the kinds' tables are typed by.
 */
export function opsRecordKindsSource(root = ROOT) {
  const modules = opsRecordModules(root);
  const path = (module) => `'../ops-records/${module}.js'`;
  return [
    HEADER(`${OPS_RECORDS_DIR}/*.ts`),
    "// Each module's kind under the module's name, and everything the modules export (their statuses and choices, which",
    '// services read as values).',
    "import type { OpsRecordKind } from '../ops-operation-spec.js';",
    ...modules.map(({ module, kind }) => `import { ${kind} } from ${path(module)};`),
    '',
    ...modules.map(({ module }) => `export * from ${path(module)};`),
    '',
    "/** Every kind by its module's name, in the order the ops document lists their operations. */",
    'export const OPS_RECORD_KINDS = {',
    ...modules.map(({ module, kind }) => `  '${module}': ${kind},`),
    '} as const satisfies Record<string, OpsRecordKind>;',
    '',
  ].join('\n');
}

/** Each kind the ledger's ops routes files declare by the convention: its file (under src) and its const, by folder. */
export function ledgerKindDeclarations(root = ROOT) {
  const src = join(root, LEDGER_SRC);
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort(byName)
    .flatMap((folder) =>
      readdirSync(join(src, folder))
        .filter((file) => OPS_ROUTES_FILE.test(file))
        .sort(byName)
        .flatMap((file) =>
          [...readFileSync(join(src, folder, file), 'utf8').matchAll(LEDGER_KIND_EXPORT)].map((m) => ({
            file: `${folder}/${file}`,
            name: m[1],
          })),
        ),
    );
}

/** GENERATED_RECORD_KINDS: every kind the ledger's routes files declare, by folder in alphabetical order. */
export function ledgerRecordKindsSource(root = ROOT) {
  const kinds = ledgerKindDeclarations(root);
  return [
    HEADER(`${LEDGER_SRC}/*/*-ops.routes.ts`),
    '// Every `export const <name>Kind = { ... } satisfies RecordKind<...>` there, by folder in alphabetical order',
    '// (../record-kinds.ts).',
    ...kinds.map(({ file, name }) => `import { ${name} } from '../${file.replace(/\.ts$/, '.js')}';`),
    '',
    'export const GENERATED_RECORD_KINDS = [',
    ...kinds.map(({ name }) => `  ${name},`),
    '] as const;',
    '',
  ].join('\n');
}

/** Every generated file and its text from the tree as it is now. */
export function generatedSources(root = ROOT) {
  return [
    { file: TABLES_FILE, text: tablesSource(root) },
    { file: OPS_RECORD_KINDS_FILE, text: opsRecordKindsSource(root) },
    { file: LEDGER_RECORD_KINDS_FILE, text: ledgerRecordKindsSource(root) },
  ];
}

/** Writes the generated files whose text changed; returns those it wrote. */
export function writeGeneratedSources(root = ROOT) {
  const written = [];
  for (const { file, text } of generatedSources(root)) {
    const path = join(root, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  for (const file of writeGeneratedSources()) process.stderr.write(`[generate] wrote ${file}\n`);
}
