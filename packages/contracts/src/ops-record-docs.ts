/**
 * A reviewed record kind's words in the docs as data (the `docs` part of ./ops-operation-spec.ts's OpsRecordKind):
 * its ledger folder's row in docs/architecture.md, its console page's row in docs/console.md, and its section, audit
 * actions' row and desk queue's row in docs/operations.md. `node scripts/docs-tables.mjs` writes them into those docs
 * (scripts/record-kind-docs.ts; test/docs/record-kind-docs.test.ts holds the docs to it), so a new kind's docs touch
 * no doc by hand.
 *
 * Every kind has the part (its folder's row, at least). What a doc can read off the kind's other parts is not said
 * again here: the folder is the module's name, the console page's path is its `console` part's (with `?status=` for
 * its tabs), the audit actions are its `console` part's audit words' codes, the desk queue's name and status are its
 * `desk` part's. {@link OpsRecordDocsOf} holds the part to the kind's others.
 */

/** A block of a section's prose: a paragraph, or a bulleted list (an item each). Written wrapped at 120 columns. */
export type OpsDocsBlock = string | readonly string[];

/** A kind's section in docs/operations.md and its rows in the tables there. */
export interface OpsRecordOperationsDocs {
  /** The section's heading (`Balance adjustments`), under which the other sections link to it. */
  readonly title: string;
  /** What it is, who decides, what each step does and refuses: the section's Markdown, block by block. */
  readonly body: readonly OpsDocsBlock[];
  /**
   * Its row of the audit log's actions: when its actions are written; the actions are its `console` part's audit
   * codes, or `actions` for a kind with no console pages.
   */
  readonly audit: { readonly written: string; readonly actions?: readonly string[] };
  /** Its row of the dashboard's queues, for a kind with a `desk` part: what waits (`{status}` is the queue's status) and since when. */
  readonly desk?: { readonly waits: string; readonly since: string };
}

/** What the docs read of a kind's `docs` part. */
export interface OpsRecordDocs {
  /** What its ledger folder (`services/ledger/src/<module>/`) holds: its row in docs/architecture.md's table. */
  readonly folder: string;
  /** What an operator does on its console page: its row in docs/console.md's table, for a kind with a `console` part. */
  readonly consolePage?: string;
  /** Its section of docs/operations.md, with its audit actions and its desk queue. */
  readonly operations?: OpsRecordOperationsDocs;
}

// What the compiler holds a declaration to, read off the kind itself: whether it has console pages and a desk queue.
type KindShape = { docs: OpsRecordDocs; console?: object; desk?: object };

type AuditOf<K extends KindShape> = K extends { console: object }
  ? { readonly written: string; readonly actions?: never }
  : { readonly written: string; readonly actions: readonly [string, ...string[]] };

type OperationsOf<K extends KindShape> = Omit<OpsRecordOperationsDocs, 'audit' | 'desk'> & { readonly audit: AuditOf<K> };

/**
 * A kind's `docs` part as its other parts ask: a kind with console pages says what an operator does there, and its
 * audit actions are its console part's (none given here); one without names its actions; a kind with a desk queue has
 * its section with the queue's row, whose words name its status (`{status}`). A kind module checks its part with
 * `KIND.docs satisfies OpsRecordDocsOf<typeof KIND>`.
 */
export type OpsRecordDocsOf<K extends KindShape> = { readonly folder: string } & (K extends { console: object }
  ? { readonly consolePage: string }
  : { readonly consolePage?: never }) &
  (K extends { desk: object }
    ? { readonly operations: OperationsOf<K> & { readonly desk: { readonly waits: `${string}{status}${string}`; readonly since: string } } }
    : { readonly operations?: OperationsOf<K> & { readonly desk?: never } });
