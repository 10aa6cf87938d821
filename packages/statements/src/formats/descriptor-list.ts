import { readdirSync, readFileSync } from 'node:fs';

/**
 * The list of the format descriptors, from the repository's root: `node scripts/docs-tables.mjs` writes it from the
 * `*.format.ts` files of this folder, so a new format is its file and no line elsewhere. It is committed with what the
 * same command writes from it (docs/statements.md and the catalog), rather than written by scripts/setup.mjs: a new
 * format runs the command for its docs anyway, and a build from the committed sources alone (the image's: the
 * Dockerfile compiles the services without running setup) finds all three.
 */
export const DESCRIPTOR_LIST_FILE = 'packages/statements/src/formats/generated/format-descriptors.ts';

const FORMATS_DIR = new URL('./', import.meta.url);

/**
 * The list's text: each `*.format.ts` file's one exported descriptor, in file-name order, which is only there to make
 * the text the same on every machine; the registry orders the formats by their `precedence`. It reads the files as
 * text, never importing them or the list, so it writes a list that a renamed or removed descriptor left stale.
 */
export function formatDescriptorList(): string {
  const files = readdirSync(FORMATS_DIR)
    .filter((file) => file.endsWith('.format.ts'))
    .sort();
  const descriptors = files.map((file) => ({ file, name: descriptorOf(file, readFileSync(new URL(file, FORMATS_DIR), 'utf8')) }));
  const list = laidOut(
    'export const FORMAT_DESCRIPTORS = [',
    descriptors.map(({ name }) => name),
    '] as const satisfies readonly StatementFormatDescriptor[];',
  );
  return `// Written by \`node scripts/docs-tables.mjs\` from the *.format.ts files in packages/statements/src/formats/:
// do not edit. \`node scripts/docs-tables.mjs --check\` fails when it is stale.
${descriptors.map(({ file, name }) => `import { ${name} } from '../${file.replace(/\.ts$/, '.js')}';`).join('\n')}
import type { StatementFormatDescriptor } from '../format.js';

/** Every format descriptor of the folder, in file-name order: the registry (formats/index.ts) orders them. */
${list}
`;
}

/** An array as Prettier lays it out, so the format check passes: on one line when it fits in 140 columns, else one a line. */
function laidOut(open: string, items: string[], close: string): string {
  const line = `${open}${items.join(', ')}${close}`;
  return line.length <= 140 ? line : [open, ...items.map((item) => `  ${item},`), close].join('\n');
}

/** The descriptor a format file exports: its one exported constant, as the folder's files each hold one. */
function descriptorOf(file: string, source: string): string {
  const exported = [...source.matchAll(/^export const (\w+)\b/gm)].map((match) => match[1]);
  const [name, ...others] = exported;
  if (name === undefined || others.length > 0) {
    throw new Error(`${file} must export one constant, its format's descriptor; it exports ${exported.length}`);
  }
  return name;
}
