/**
 * docs/cli.md's table of the commands record kinds declare (each kind module's `cli` part), read off the commands the
 * CLI registers from those declarations: test/docs/cli-tables.test.ts holds the file equal to {@link withCliTables} of
 * itself, and `node scripts/docs-tables.mjs` rewrites it.
 */
import { declaredRecordUsages } from '../packages/cli/src/commands/declared-record.usage.js';
import { markdownTable, withGeneratedBlocks } from '../packages/statements/src/formats/docs-tables.js';

const declaredCommandsTable = (): string =>
  markdownTable(
    ['Command', 'What it does'],
    declaredRecordUsages().map(({ usage, aliases, description }) => [
      `\`${usage}\`${aliases.map((alias) => ` (also \`${alias}\`)`).join('')}`,
      description,
    ]),
  );

/** docs/cli.md with the declared kinds' commands made anew from their declarations. */
export function withCliTables(markdown: string): string {
  return withGeneratedBlocks(markdown, { 'declared-record-commands': declaredCommandsTable }, 'docs/cli.md');
}
