/** docs/webhooks.md's event tables are the event-type registry's (packages/contracts/src/event-types.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@kasa/contracts';
import { withEventTables } from '../../scripts/event-tables.js';
import { root } from './shell-blocks.js';

it('holds the tables the registry generates (node scripts/docs-tables.mjs rewrites them), one row per event type', () => {
  const doc = readFileSync(join(root, 'docs/webhooks.md'), 'utf8');
  expect(withEventTables(doc)).toBe(doc);
  const rows = [...doc.matchAll(/^\| `([a-z_]+\.[a-z_]+)` +\|/gm)].map((match) => match[1]);
  expect(rows).toEqual(EVENT_TYPES);
});
