/**
 * docs/webhooks.md's event tables made from @kasa/contracts' event-type registry, so the docs cannot drift from the
 * code: test/docs/event-tables.test.ts holds the file equal to {@link withEventTables} of itself, and
 * `node scripts/docs-tables.mjs` rewrites it.
 */
import { ALWAYS_SENT_EVENT_TYPES, eventTypeEntry, OPT_IN_EVENT_TYPES, type EventType } from '../packages/contracts/src/index.js';
import { markdownTable, withGeneratedBlocks } from '../packages/statements/src/formats/docs-tables.js';

const rows = (types: readonly EventType[]) =>
  markdownTable(
    ['Event', '`data.status`', 'Sent when'],
    types.map((type) => {
      const entry = eventTypeEntry(type);
      return [`\`${type}\``, `\`${entry.status}\``, entry.sentWhen];
    }),
  );

const TABLES: Record<string, () => string> = {
  'always-sent-events': () => rows(ALWAYS_SENT_EVENT_TYPES),
  'opt-in-events': () => rows(OPT_IN_EVENT_TYPES),
};

/** docs/webhooks.md with its event tables made anew from the registry. */
export function withEventTables(markdown: string): string {
  return withGeneratedBlocks(markdown, TABLES, 'docs/webhooks.md');
}
