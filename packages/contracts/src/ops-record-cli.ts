/**
 * A reviewed record kind's `kasa` commands as data (the `cli` part of ./ops-operation-spec.ts's OpsRecordKind): the
 * CLI registers `kasa <command> list|show|<create>|<steps>` for every kind that declares one (packages/cli,
 * declared-record.commands.ts), so a new kind touches no CLI file. The loose shape here is what the CLI reads;
 * {@link OpsRecordCliOf} holds a kind's declaration to its own operations, bodies and view.
 */
import type { PathParameters } from './openapi-support.js';
import type { REQUEST_SCHEMAS } from './schemas/requests.js';

/**
 * A list column: a view field as the API sends it, as lira (`lira`, kuruş through the CLI's formatAmount), as a time
 * (`time`, in the operator's zone), or cut to a width; or a person, by email when known and else by operator id.
 */
export type OpsCliColumn<Field extends string = string> =
  | { header: string; field: Field; show?: 'lira' | 'time' | { cut: number } }
  | { header: string; person: readonly [email: Field, operatorId: Field] };

/**
 * A flag that fills one body field, named after it (`--reason <reason>`). An enum in the body schema becomes a choice;
 * `lira` reads a kuruş field as lira (the CLI's parseAmount); other text is refused when blank. The flag is mandatory
 * when the schema requires the field, so every refusal a flag can catch comes before any request.
 */
export interface OpsCliOption {
  help: string;
  lira?: true;
}

/** A command that changes a record: its verb and aliases, the operation it calls, and a flag for each body field. */
export interface OpsCliStep<Op extends string = string, Body extends string = string> {
  verb: string;
  aliases?: readonly string[];
  operation: Op;
  description: string;
  options?: Readonly<Record<Body, OpsCliOption>>;
}

/** The command that makes a record: a step whose path parameters (the site) are flags too, as `--site <siteId>`. */
export interface OpsCliCreate<Op extends string = string, Body extends string = string, Param extends string = string> extends OpsCliStep<
  Op,
  Body
> {
  params: Readonly<Record<Param, { flag: string; help: string }>>;
}

/**
 * Text printed after a create or a step, with `{field}` standing for a view field's value (empty when null),
 * `{field:lira}` and `{field:time}` for an amount and a time, `{email|operatorId}` for a person (the first present, else
 * `unknown`), and `{next:verb}` for the command a step is typed with on this record (its mandatory flags as `"..."`).
 */
export interface OpsCliResult<Status extends string = string> {
  /** How the record is named: `Adjustment {adjustmentId} ({referenceNo})`, then `is` (made) or `is now` and its status. */
  record: string;
  /** After the status: what the record does, one text or one per value of a field. */
  what: string | { by: string; is: Readonly<Record<string, string>> };
  /** The line under it by status: who proposed it, who decided it, and while it waits, what the second person types. */
  review: Readonly<Record<Status, string>>;
}

/** What the CLI reads of a kind's `cli` part. */
export interface OpsRecordCli {
  /** `kasa <command>`, and the description `kasa --help` lists it with. */
  command: string;
  description: string;
  /**
   * The list's operation and columns. Its filters are the review lists' (`--status`, `--site`, `--limit`, `--order`),
   * the queries every kind's `opsList…` schema takes; a sandbox's rows say TEST in a last MODE column.
   */
  list: { operation: string; description: string; columns: readonly OpsCliColumn[] };
  /** `show <id>`: the operation reading one record, its path parameter the id. */
  show: { operation: string; description: string };
  /** How a record's sandbox is told: by its site (looked up among the sites) or by a `livemode` field of its own. */
  mode: { site: string } | { livemode: string };
  create?: OpsCliCreate;
  steps: readonly OpsCliStep[];
  result: OpsCliResult;
}

// What the compiler holds a declaration to, read off the kind itself.
type KindShape = {
  operations: Readonly<Record<string, { path: string; response: string; body?: { schema: string } }>>;
  responseSchemas: Readonly<Record<string, unknown>>;
  cli: { show: { operation: string } };
};
type Ops<K extends KindShape> = K['operations'];
type ViewOf<K extends KindShape> = K['responseSchemas'][Ops<K>[K['cli']['show']['operation']]['response']];
type Props<K extends KindShape> = ViewOf<K> extends { properties: infer P } ? P : never;
type Field<K extends KindShape> = keyof Props<K> & string;
type EnumOf<K extends KindShape, F> = F extends keyof Props<K>
  ? Props<K>[F] extends { enum: readonly (infer E extends string)[] }
    ? E
    : never
  : never;
type BodyOf<K extends KindShape, Op extends keyof Ops<K>> = Ops<K>[Op] extends {
  body: { schema: infer N extends keyof typeof REQUEST_SCHEMAS };
}
  ? keyof (typeof REQUEST_SCHEMAS)[N]['properties'] & string
  : never;
type ParamsOf<K extends KindShape, Op extends keyof Ops<K>> = PathParameters<Ops<K>[Op]['path']>;

/** A step of this kind for each of its operations: options keyed by exactly that operation's body fields. */
type StepOf<K extends KindShape> = {
  [Op in keyof Ops<K> & string]: OpsCliStep<Op, BodyOf<K, Op>> &
    ([BodyOf<K, Op>] extends [never] ? unknown : { options: Readonly<Record<BodyOf<K, Op>, OpsCliOption>> });
}[keyof Ops<K> & string];
type CreateOf<K extends KindShape> = {
  [Op in keyof Ops<K> & string]: OpsCliCreate<Op, BodyOf<K, Op>, ParamsOf<K, Op>> &
    ([BodyOf<K, Op>] extends [never] ? unknown : { options: Readonly<Record<BodyOf<K, Op>, OpsCliOption>> });
}[keyof Ops<K> & string];

type Placeholders<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type Placeholder<F extends string, Verb extends string> = F | `${F}:lira` | `${F}:time` | `${F}|${F}` | `next:${Verb}`;
/** A text whose every `{placeholder}` names a field of the view (or a step's verb); any other is an error naming it. */
type Checked<T, F extends string, Verb extends string> = T extends string
  ? [Exclude<Placeholders<T>, Placeholder<F, Verb>>] extends [never]
    ? T
    : `unknown placeholder {${Exclude<Placeholders<T>, Placeholder<F, Verb>>}}`
  : { readonly [Key in keyof T]: Checked<T[Key], F, Verb> };
type VerbOf<K extends KindShape> = K['cli'] extends { steps: readonly (infer S)[] }
  ? S extends { verb: infer V extends string }
    ? V
    : never
  : never;
type ResultOf<K extends KindShape> = K['cli'] extends { result: infer R } ? R : never;

/**
 * A kind's `cli` part as its own operations, bodies and view allow: operation ids are the kind's, list columns and
 * texts name fields of the view `show` answers, each step has a flag for every field of its body (and only those), the
 * create one for every path parameter, a `what` per value of its field, and a review line per status. A kind module
 * checks its part with `KIND.cli satisfies OpsRecordCliOf<typeof KIND>`.
 */
export type OpsRecordCliOf<K extends KindShape> = Omit<OpsRecordCli, 'list' | 'show' | 'mode' | 'create' | 'steps' | 'result'> & {
  list: { operation: keyof Ops<K>; description: string; columns: readonly OpsCliColumn<Field<K>>[] };
  show: { operation: keyof Ops<K>; description: string };
  mode: { site: Field<K> } | { livemode: Field<K> };
  create?: CreateOf<K>;
  steps: readonly StepOf<K>[];
  result: Checked<ResultOf<K>, Field<K>, VerbOf<K>> & {
    what: string | { [F in Field<K>]: { by: F; is: Readonly<Record<EnumOf<K, F>, string>> } }[Field<K>];
    review: Readonly<Record<EnumOf<K, 'status'>, string>>;
  };
};
