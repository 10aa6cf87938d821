/** docs/cli.md's table of the record kinds' declared commands is the one the CLI's registration of them makes. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { OPS_RECORD_KINDS } from '@kasa/contracts';
import { withCliTables } from '../../scripts/cli-tables.js';
import { root } from './shell-blocks.js';

it('holds the table the declarations generate (node scripts/docs-tables.mjs rewrites it), a show row per declaring kind', () => {
  const doc = readFileSync(join(root, 'docs/cli.md'), 'utf8');
  expect(withCliTables(doc)).toBe(doc);
  const shown = [...doc.matchAll(/^\| `kasa ([\w-]+) show </gm)].map((match) => match[1]);
  const declared = Object.values(OPS_RECORD_KINDS).flatMap((kind) => ('cli' in kind ? [kind.cli.command] : []));
  expect(shown).toEqual(declared);
  expect(declared).toContain('adjustments');
});
