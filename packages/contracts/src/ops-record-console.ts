/**
 * A reviewed record kind's console pages as data (the `console` part of ./ops-operation-spec.ts's OpsRecordKind): the
 * console serves a list with status tabs, a record's page with its facts and steps, and a create form for every kind
 * that declares one (services/console, pages/declared-record.page.ts), and takes the navigation link, the notices and
 * the audit log's words from here, so a new kind touches no console file. The loose shape here is what the console
 * reads; {@link OpsRecordConsoleOf} holds a kind's declaration to its own operations, bodies and view.
 *
 * Every word is given in English and Turkish. The console's catalogue keeps them under keys the declaration's place
 * gives them: `common.nav.<section>`, `errors.notice.<code>`, `records.audit.entity.<type>`,
 * `records.audit.did.<ACTION>`, `records.<section>.<word>` and `records.<section>.<choice>.<value>`.
 */
import type { PathParameters } from './openapi-support.js';
import type { REQUEST_SCHEMAS } from './schemas/requests.js';

/** One text in both of the console's languages, with the same `{placeholders}` in each. */
export interface ConsoleWords {
  readonly en: string;
  readonly tr: string;
}

/**
 * How a view field is shown: as text, as `code`, as lira (`amount`, kuruş in TRY), as a time in the desk's zone, as
 * its site's link (`site`) or that site's available balance now (`site-balance`), as a status badge, as a person (the
 * `email` field when known, else the id's first block; `at` adds when), or as a choice's words (`choice`, one per value
 * of the field). `note` adds a second field after a dash (a rejection's reason after its time). A null field is `—`.
 */
export type ConsoleShow<Field extends string = string, Choice extends string = string> =
  | {
      readonly field: Field;
      readonly show: 'text' | 'code' | 'amount' | 'time' | 'site' | 'site-balance' | 'status';
      readonly note?: Field;
    }
  | { readonly field: Field; readonly show: 'person'; readonly email: Field; readonly at?: Field }
  | { readonly field: Field; readonly show: 'choice'; readonly choice: Choice };

/** A list column or a fact of a record's page: its label and its field as shown; `link` makes the cell the record's link. */
export type ConsoleFact<Field extends string = string, Choice extends string = string, Word extends string = string> = ConsoleShow<
  Field,
  Choice
> & { readonly label: Word; readonly link?: true };

/**
 * A create form's input, one body field by name: a choice among the body schema's enum (`invalid`: what is said when
 * the value posted is none of them), lira read as the console reads every typed amount, or text (its longest from the
 * schema's `maxLength`).
 */
export type ConsoleInput<Name extends string = string, Choice extends string = string, Word extends string = string> =
  | { readonly name: Name; readonly input: 'choice'; readonly choice: Choice; readonly label: Word; readonly invalid: Word }
  | { readonly name: Name; readonly input: 'lira' | 'text'; readonly label: Word; readonly hint?: Word };

/**
 * The form that makes a record, under the list: its operation, whose `siteId` path parameter is chosen among the live
 * sites (`site.none` is said when there is none), its inputs, heading, hint, button, confirmation and the words of a
 * refusal before any call (`invalid`); `notice` is said on the new record's page.
 */
export interface ConsoleCreate<
  Op extends string = string,
  Name extends string = string,
  Choice extends string = string,
  Word extends string = string,
  Notice extends string = string,
> {
  readonly operation: Op;
  readonly site: { readonly label: Word; readonly none: Word };
  readonly inputs: readonly ConsoleInput<Name, Choice, Word>[];
  readonly heading: Word;
  readonly hint: Word;
  readonly button: Word;
  readonly confirm: Word;
  readonly invalid: Word;
  readonly notice: Notice;
  /**
   * A body as an operator here would post it, in Turkish: the console's tour of every page in both languages
   * (services/console/test/i18n-tour.test.ts) makes a record of the kind with it, so its pages are toured as declared.
   */
  readonly sample: Readonly<Record<Name, string>>;
}

/**
 * A step on a record's page, posted to `<path>/<id>/<step path>`: its operation, button tone and label, the statuses it
 * is offered in, its confirmation with its placeholders filled from the record, a required reason (its words as the
 * input's placeholder) sent as the body's `reason`, and `notBy`: four-eyes, the operator in that field is shown its
 * hint instead of the button (the ledger refuses them all the same). `notice` is said after it.
 */
export interface ConsoleStep<
  Op extends string = string,
  Field extends string = string,
  Choice extends string = string,
  Word extends string = string,
  Notice extends string = string,
  Status extends string = string,
> {
  readonly path: string;
  readonly operation: Op;
  readonly tone: 'primary' | 'danger';
  readonly label: Word;
  readonly from: readonly Status[];
  readonly confirm: { readonly words: Word; readonly params: Readonly<Record<string, ConsoleShow<Field, Choice>>> };
  readonly reason?: Word;
  readonly notBy?: { readonly field: Field; readonly hint: Word };
  readonly notice: Notice;
}

/** The words every declared page uses, by role; a declaration adds its labels, hints and buttons beside them. */
export interface ConsolePageWords {
  /** The list's title. */
  readonly title: ConsoleWords;
  /** A record's page title, naming it by `{reference}`. */
  readonly recordTitle: ConsoleWords;
  /** What the records are, under the tabs. */
  readonly hint: ConsoleWords;
  /** A tab with no records. */
  readonly empty: ConsoleWords;
  /** No step is open in its `{status}`. */
  readonly none: ConsoleWords;
  /** A step is open, but not to this operator's role. */
  readonly waiting: ConsoleWords;
  /** Who may create and decide. */
  readonly actorOnly: ConsoleWords;
  /** Above the steps, when they are offered (four-eyes, say). */
  readonly stepsHint?: ConsoleWords;
}

/** What the console reads of a kind's `console` part. */
export interface OpsRecordConsole {
  /** The list's path in the console (`/balance-adjustments`); a record's page is `<path>/<id>`. */
  readonly path: string;
  /** Its navigation link: the section's name, the section it follows and the link's words. */
  readonly section: { readonly name: string; readonly after: string; readonly words: ConsoleWords };
  /** The audit log's words for its records (`entityType`) and for its actions, by action code. */
  readonly audit: {
    readonly entityType: string;
    readonly words: ConsoleWords;
    readonly actions: Readonly<Record<string, ConsoleWords>>;
  };
  /** The list operation (filtered by `status`) and the one reading a record by its id. */
  readonly list: string;
  readonly read: string;
  /**
   * The view's id field (the record's path parameter) and reference field (how the page names it; a kind whose records
   * carry no reference of their own names its id field again).
   */
  readonly id: string;
  readonly reference: string;
  /** Who may create and take steps: `ADMIN` shows a reviewer no form. */
  readonly actor: 'ADMIN' | 'REVIEWER';
  /** The status tabs; the first is the queue, read oldest first, and what the list opens on. */
  readonly tabs: readonly { readonly status: string; readonly label: string }[];
  readonly columns: readonly ConsoleFact[];
  readonly facts: readonly ConsoleFact[];
  readonly create?: ConsoleCreate;
  readonly steps: readonly ConsoleStep[];
  /** The confirmations a redirect may carry after its create and steps (`?notice=<code>`). */
  readonly notices: Readonly<Record<string, ConsoleWords>>;
  /** Words for each value of an enum field, by the name facts, columns, inputs and confirmations give them. */
  readonly choices: Readonly<Record<string, Readonly<Record<string, ConsoleWords>>>>;
  readonly words: ConsolePageWords & Readonly<Record<string, ConsoleWords>>;
}

// What the compiler holds a declaration to, read off the kind itself.
type KindShape = {
  operations: Readonly<Record<string, { method: string; path: string; response: string; body?: { schema: string } }>>;
  requestSchemas: Readonly<Record<string, unknown>>;
  responseSchemas: Readonly<Record<string, unknown>>;
  console: OpsRecordConsole;
};
type Ops<K extends KindShape> = K['operations'];
type OpId<K extends KindShape> = keyof Ops<K> & string;
type Decl<K extends KindShape> = K['console'];
type ViewName<K extends KindShape> = Ops<K>[Decl<K>['read']]['response'];
type Props<K extends KindShape> = K['responseSchemas'][ViewName<K>] extends { properties: infer P } ? P : never;
type Field<K extends KindShape> = keyof Props<K> & string;
type EnumIn<P, F> = F extends keyof P ? (P[F] extends { enum: readonly (infer E extends string)[] } ? E : never) : never;
type Status<K extends KindShape> = EnumIn<Props<K>, 'status'>;
type Word<K extends KindShape> = keyof Decl<K>['words'] & string;
type Notice<K extends KindShape> = keyof Decl<K>['notices'] & string;
type Choices<K extends KindShape> = Decl<K>['choices'];

/** The choices with words for every value in `Values`. */
type Covering<K extends KindShape, Values extends string> = {
  [C in keyof Choices<K> & string]: [Values] extends [keyof Choices<K>[C]] ? C : never;
}[keyof Choices<K> & string];

/** A field as shown: a `choice` only by one with words for each value the field can hold. */
type Show<K extends KindShape> =
  | Exclude<ConsoleShow<Field<K>, never>, { show: 'choice' }>
  | { [F in Field<K>]: { readonly field: F; readonly show: 'choice'; readonly choice: Covering<K, EnumIn<Props<K>, F>> } }[Field<K>];
type Fact<K extends KindShape> = Show<K> & { readonly label: Word<K>; readonly link?: true };

/** The operations that act on one record by its id and answer its view: the steps. */
type StepOp<K extends KindShape> = {
  [Op in OpId<K>]: [PathParameters<Ops<K>[Op]['path']>] extends [Decl<K>['id']]
    ? Ops<K>[Op]['response'] extends ViewName<K>
      ? Op
      : never
    : never;
}[OpId<K>];
/** The operations that make a record on a site with a body of the kind's own: a create. */
type CreateOp<K extends KindShape> = {
  [Op in OpId<K>]: [PathParameters<Ops<K>[Op]['path']>] extends ['siteId']
    ? Ops<K>[Op] extends { body: { schema: keyof K['requestSchemas'] } }
      ? Op
      : never
    : never;
}[OpId<K>];
type ListOp<K extends KindShape> = { [Op in OpId<K>]: Ops<K>[Op] extends { method: 'GET'; query: string } ? Op : never }[OpId<K>];

type BodySchema<K extends KindShape, Op> =
  Op extends OpId<K>
    ? Ops<K>[Op] extends { body: { schema: infer N } }
      ? N extends keyof K['requestSchemas']
        ? K['requestSchemas'][N]
        : N extends keyof typeof REQUEST_SCHEMAS
          ? (typeof REQUEST_SCHEMAS)[N]
          : never
      : never
    : never;
type BodyProps<K extends KindShape, Op> = BodySchema<K, Op> extends { properties: infer P } ? P : never;
type RequiredOf<K extends KindShape, Op> = BodySchema<K, Op> extends { required: readonly (infer R extends string)[] } ? R : never;

/** A create form's inputs are its body's fields, every required one among them. */
type CreateOf<K extends KindShape> = Decl<K>['create'] extends { operation: infer Op extends string; inputs: readonly (infer I)[] }
  ? Omit<ConsoleCreate<CreateOp<K>, string, string, Word<K>, Notice<K>>, 'inputs' | 'sample'> & {
      readonly sample: { readonly [F in RequiredOf<K, Op>]: string } & { readonly [F in keyof BodyProps<K, Op> & string]?: string };
      readonly inputs: readonly (
        | Exclude<ConsoleInput<keyof BodyProps<K, Op> & string, never, Word<K>>, { input: 'choice' }>
        | {
            [F in keyof BodyProps<K, Op> & string]: {
              readonly name: F;
              readonly input: 'choice';
              readonly choice: Covering<K, EnumIn<BodyProps<K, Op>, F>>;
              readonly label: Word<K>;
              readonly invalid: Word<K>;
            };
          }[keyof BodyProps<K, Op> & string]
      )[];
    } & ([Exclude<RequiredOf<K, Op>, I extends { name: infer N } ? N : never>] extends [never]
        ? unknown
        : { readonly missingInputs: Exclude<RequiredOf<K, Op>, I extends { name: infer N } ? N : never> })
  : undefined;

type Holes<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | Holes<Rest> : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** A text with the same placeholders in Turkish as in English; the Turkish side names the ones it must have. */
type Both<W> = W extends { en: infer E extends string; tr: infer T extends string }
  ? Same<Holes<E>, Holes<T>> extends true
    ? W
    : { readonly en: E; readonly tr: `the placeholders of the English: {${Holes<E>}}` }
  : ConsoleWords;
type AllBoth<R> = { readonly [Key in keyof R]: Both<R[Key]> };

/** A step whose confirmation fills exactly its words' placeholders, each a field as shown. */
type StepOf<K extends KindShape, S> = S extends { confirm: { words: infer W extends Word<K> } }
  ? Omit<ConsoleStep<StepOp<K>, Field<K>, string, Word<K>, Notice<K>, Status<K>>, 'confirm'> & {
      readonly confirm: { readonly words: W; readonly params: { readonly [H in Holes<Decl<K>['words'][W]['en']>]: Show<K> } };
      readonly reason?: Word<K>;
    } & (S extends { reason: string }
        ? Ops<K>[S extends { operation: infer Op extends OpId<K> } ? Op : never] extends { body: object }
          ? unknown
          : { readonly reason: 'the operation takes no body' }
        : unknown)
  : ConsoleStep<StepOp<K>, Field<K>, never, Word<K>, Notice<K>, Status<K>>;

// A type parameter, so the mapping keeps the steps a tuple.
type EachStep<K extends KindShape, Steps> = { readonly [I in keyof Steps]: StepOf<K, Steps[I]> };

/**
 * A kind's `console` part as its own operations, bodies and view allow: the list, read, create and step operations are
 * the kind's own of the right shape, fields are its view's (the one `read` answers), tabs are its statuses, a create
 * form has an input for every required body field, a choice has words for every value it shows, a confirmation fills
 * exactly its placeholders, a record's title names `{reference}`, and every text has the same placeholders in Turkish
 * as in English. A kind module checks its part with `KIND.console satisfies OpsRecordConsoleOf<typeof KIND>`.
 */
export type OpsRecordConsoleOf<K extends KindShape> = Omit<
  OpsRecordConsole,
  | 'list'
  | 'read'
  | 'id'
  | 'reference'
  | 'tabs'
  | 'columns'
  | 'facts'
  | 'create'
  | 'steps'
  | 'words'
  | 'notices'
  | 'choices'
  | 'audit'
  | 'section'
> & {
  readonly section: { readonly name: string; readonly after: string; readonly words: Both<Decl<K>['section']['words']> };
  readonly audit: {
    readonly entityType: string;
    readonly words: Both<Decl<K>['audit']['words']>;
    readonly actions: AllBoth<Decl<K>['audit']['actions']>;
  };
  readonly list: ListOp<K>;
  readonly read: OpId<K>;
  readonly id: Field<K>;
  readonly reference: Field<K>;
  readonly tabs: readonly [
    { readonly status: Status<K>; readonly label: Word<K> },
    ...{ readonly status: Status<K>; readonly label: Word<K> }[],
  ];
  readonly columns: readonly Fact<K>[];
  readonly facts: readonly Fact<K>[];
  readonly create?: CreateOf<K>;
  readonly steps: EachStep<K, Decl<K>['steps']>;
  readonly notices: AllBoth<Decl<K>['notices']>;
  readonly choices: { readonly [C in keyof Choices<K>]: AllBoth<Choices<K>[C]> };
  readonly words: AllBoth<Decl<K>['words']> & {
    readonly recordTitle: { readonly en: `${string}{reference}${string}` };
    readonly none: { readonly en: `${string}{status}${string}` };
  };
};
