/**
 * A reviewed record kind's queue on the operators' desk as data (the `desk` part of ./ops-operation-spec.ts's
 * OpsRecordKind): records of one status waiting for an operator. The dashboard's answer (`OpsDashboard`,
 * ./schemas/ops-responses.ts) takes the queue's property from here, the ledger counts it by the kind's descriptor, and
 * `kasa dashboard` and the console's dashboard draw its line and its card, so a new kind's queue touches no desk file.
 *
 * A part of its own rather than inside the `console` part: the contract, the ledger and the CLI read it as much as the
 * console does. The console's card opens the kind's list, so a kind with a queue declares its console pages too, and
 * the queue is the list's first tab (the one read oldest first). {@link OpsRecordDeskOf} holds both to the kind.
 */
import type { ConsoleWords } from './ops-record-console.js';

/** What the contract, the ledger, the CLI and the console read of a kind's `desk` part. */
export interface OpsRecordDesk {
  /** The queue's property in the dashboard's answer (`adjustmentsToApply`), a `QueueHead`. */
  readonly queue: string;
  /** The status its records wait in; the oldest is the one that has waited longest in it. */
  readonly status: string;
  /** The property's description in the ops document: what is counted, and since when the oldest waits. */
  readonly description: string;
  /** The console's card: its title and the line saying what its count is (`dashboard.queue.<queue>[.what]`). */
  readonly words: { readonly title: ConsoleWords; readonly what: ConsoleWords };
  /** Its line's label in `kasa dashboard`. */
  readonly cli: string;
}

// What the compiler holds a declaration to, read off the kind itself: its console list's tabs, the first the queue.
type KindShape = {
  console: { tabs: readonly [{ readonly status: string }, ...(readonly { readonly status: string }[])] };
  desk: OpsRecordDesk;
};

/** Words with no placeholder in either language: a card's title and line are shown as they are. */
type Plain<W> = W extends { en: infer E extends string; tr: infer T extends string }
  ? E extends `${string}{${string}}${string}`
    ? { readonly en: 'a queue card takes no {placeholder}'; readonly tr: T }
    : T extends `${string}{${string}}${string}`
      ? { readonly en: E; readonly tr: 'a queue card takes no {placeholder}' }
      : W
  : ConsoleWords;

/**
 * A kind's `desk` part as its own console pages allow: the status it counts is the status of its list's first tab
 * (one of the kind's statuses, the tab the card opens, read oldest first like the queue), and its words are plain text
 * in both languages. A kind module checks its part with `KIND.desk satisfies OpsRecordDeskOf<typeof KIND>`.
 */
export type OpsRecordDeskOf<K extends KindShape> = Omit<OpsRecordDesk, 'status' | 'words'> & {
  readonly status: K['console']['tabs'][0]['status'];
  readonly words: { readonly title: Plain<K['desk']['words']['title']>; readonly what: Plain<K['desk']['words']['what']> };
};
