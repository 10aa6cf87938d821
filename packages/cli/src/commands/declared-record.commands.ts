import { InvalidArgumentError, Option, type Command } from 'commander';
import { OPS_RECORD_KINDS, OPS_ROUTES, opsBodyField, type OpsCliColumn, type OpsCliStep, type OpsRecordCli } from '@kasa/contracts';
import type { Context } from '../context.js';
import { parseAmount } from '../context.js';
import { modeMark, sandboxSiteIds, testLine } from '../modes.js';
import { formatAmount, printRecord, printTable } from '../output.js';
import { reviewListOptions } from './review.commands.js';

/** A record as the ops API answers it; the declaration names its fields, which the contract has checked. */
type Row = Readonly<Record<string, unknown>>;

/** The typed client's calls, by an operation id read from a declaration rather than written in the code. */
interface DeclaredClient {
  call: (operationId: string, input: { params: Record<string, string>; body?: Record<string, string> }) => Promise<Row>;
  paginate: (operationId: string, query: Record<string, string | undefined>, max: number) => AsyncGenerator<Row>;
}

function declaredClient(ctx: Context): DeclaredClient {
  const client = ctx.client();
  // One cast: `call` and `paginate` are typed per operation id, and these ids come from a kind's `cli` part, which
  // OpsRecordCliOf holds to the kind's own operations, bodies and view when the contract compiles.
  return { call: client.call, paginate: client.paginate } as DeclaredClient;
}

const ROUTES: Readonly<Record<string, { path: string; body?: { schema: string } }>> = OPS_ROUTES;

/** The path parameter that names the record a show or a step acts on: its path's last (`:adjustmentId`). */
const idParam = (operationId: string): string => [...(ROUTES[operationId]?.path ?? '').matchAll(/:(\w+)/g)].at(-1)?.[1] ?? 'id';

/** `bankTxId` -> `bank-tx-id`: a body field as a flag; commander gives the value back under the field's name. */
const flagOf = (field: string): string => field.replace(/[A-Z]/g, (upper) => `-${upper.toLowerCase()}`);

const text = (value: unknown): string =>
  value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
const person = (row: Row, fields: readonly string[]): string => fields.map((field) => text(row[field])).find(Boolean) ?? 'unknown';

/** Text a record keeps (a reason the second person checks, a note): blank text is refused before anything is sent. */
function refuseBlank(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be blank');
  return value;
}

/** A flag per body field: an enum is a choice, a lira amount goes through parseAmount, other text is refused blank. */
function addBodyOptions(command: Command, step: OpsCliStep): Array<[field: string, option: Option]> {
  return Object.entries(step.options ?? {}).map(([field, declared]) => {
    const { required, choices } = opsBodyField(step.operation, field);
    const option = new Option(`--${flagOf(field)} <${field}>`, declared.help);
    if (choices.length > 0) option.choices([...choices]);
    else option.argParser(declared.lira ? parseAmount : refuseBlank);
    if (required) option.makeOptionMandatory();
    command.addOption(option);
    return [field, option];
  });
}

function bodyOf(options: Array<[string, Option]>, flags: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    options.flatMap(([field, option]) => {
      const value = flags[option.attributeName()];
      return value === undefined ? [] : [[field, value]];
    }),
  );
}

/** Whether each row is live: by its site among the sandboxes (asked only when a table will show it), or its own field. */
async function liveness(ctx: Context, mode: OpsRecordCli['mode']): Promise<(row: Row) => boolean> {
  if ('livemode' in mode) return (row) => row[mode.livemode] !== false;
  const sandboxes = ctx.jsonMode() ? new Set<string>() : await sandboxSiteIds(ctx);
  return (row) => !sandboxes.has(text(row[mode.site]));
}

function cell(ctx: Context, column: OpsCliColumn, row: Row): string {
  if ('person' in column) return person(row, column.person);
  const value = row[column.field];
  if (column.show === 'lira') return formatAmount(text(value));
  if (column.show === 'time') return ctx.time(text(value));
  return column.show ? text(value).slice(0, column.show.cut) : text(value);
}

/** A result text with its `{placeholders}` filled from the record (ops-record-cli.ts says what each may be). */
function fill(ctx: Context, cli: OpsRecordCli, template: string, row: Row): string {
  return template.replace(/\{([^}]+)\}/g, (_, placeholder: string) => {
    const [field = '', format] = placeholder.split(':');
    if (field === 'next') {
      const step = cli.steps.find((candidate) => candidate.verb === format);
      if (!step) return placeholder;
      const flags = Object.keys(step.options ?? {}).filter((name) => opsBodyField(step.operation, name).required);
      const id = text(row[idParam(step.operation)]);
      return [`kasa ${cli.command} ${step.verb} ${id}`, ...flags.map((name) => `--${flagOf(name)} "..."`)].join(' ');
    }
    if (field.includes('|')) return person(row, field.split('|'));
    if (format === 'lira') return formatAmount(text(row[field]));
    return format === 'time' ? ctx.time(text(row[field])) : text(row[field]);
  });
}

/** What the record now is and, by its status, who proposed and decided it or what the second person types next. */
function printResult(ctx: Context, cli: OpsRecordCli, row: Row): void {
  ctx.emit(row, () => {
    const { record, what, review } = cli.result;
    const status = text(row.status);
    const does = typeof what === 'string' ? what : (what.is[text(row[what.by])] ?? '');
    // Just made, it waits in review; a step has moved it on.
    const is = status === 'PENDING_REVIEW' ? 'is' : 'is now';
    ctx.io.stdout.write(`${fill(ctx, cli, record, row)} ${is} ${status}: ${fill(ctx, cli, does, row)}.\n`);
    const next = review[status];
    if (next) ctx.io.stdout.write(`${fill(ctx, cli, next, row)}\n`);
  });
}

function registerKind(program: Command, ctx: Context, cli: OpsRecordCli): void {
  const group = program.command(cli.command).description(cli.description);

  reviewListOptions(group.command('list').description(cli.list.description)).action(
    async (o: { status?: string; site?: string; limit: number; order?: string }) => {
      const query = { status: o.status, siteId: o.site, order: o.order };
      const rows: Row[] = [];
      for await (const row of declaredClient(ctx).paginate(cli.list.operation, query, o.limit)) rows.push(row);
      const live = await liveness(ctx, cli.mode);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ...cli.list.columns.map((column): [string, (row: Row) => string] => [column.header, (row) => cell(ctx, column, row)]),
          ['MODE', (row) => modeMark(live(row))],
        ]),
      );
    },
  );

  // Amounts print as lira, as the list shows them; --json keeps the API's kuruş.
  const liraFields = cli.list.columns.flatMap((column) => ('field' in column && column.show === 'lira' ? [column.field] : []));
  const shown = idParam(cli.show.operation);
  group
    .command(`show <${shown}>`)
    .description(cli.show.description)
    .action(async (id: string) => {
      const row = await declaredClient(ctx).call(cli.show.operation, { params: { [shown]: id } });
      const live = await liveness(ctx, cli.mode);
      ctx.emit(row, () => {
        ctx.io.stdout.write(testLine(!live(row)));
        const lira = Object.fromEntries(liraFields.map((field) => [field, formatAmount(text(row[field]))]));
        printRecord(ctx.io.stdout, { ...row, ...lira }, ctx.time);
      });
    });

  const { create } = cli;
  if (create) {
    const command = group.command(create.verb).description(create.description);
    const params = Object.entries(create.params).map(([param, { flag, help }]) => {
      const option = new Option(`--${flag} <${param}>`, help).makeOptionMandatory();
      command.addOption(option);
      return [param, option] as const;
    });
    const options = addBodyOptions(command, create);
    command.action(async (flags: Record<string, string | undefined>) => {
      const input = {
        params: Object.fromEntries(params.map(([param, option]) => [param, flags[option.attributeName()] ?? ''])),
        body: bodyOf(options, flags),
      };
      printResult(ctx, cli, await declaredClient(ctx).call(create.operation, input));
    });
  }

  for (const step of cli.steps) {
    const param = idParam(step.operation);
    const command = group
      .command(`${step.verb} <${param}>`)
      .aliases(step.aliases ?? [])
      .description(step.description);
    const options = addBodyOptions(command, step);
    command.action(async (id: string, flags: Record<string, string | undefined>) => {
      const input = { params: { [param]: id }, ...(options.length > 0 ? { body: bodyOf(options, flags) } : {}) };
      printResult(ctx, cli, await declaredClient(ctx).call(step.operation, input));
    });
  }
}

/**
 * `kasa <command> list|show|<create>|<steps>` for every reviewed record kind whose contract module declares a `cli`
 * part (@kasa/contracts, ops-record-cli.ts): a new kind's commands are its declaration, with no CLI file of its own.
 */
export function registerDeclaredRecordCommands(program: Command, ctx: Context): void {
  const declared: OpsRecordCli[] = Object.values(OPS_RECORD_KINDS).flatMap((kind) => ('cli' in kind ? [kind.cli] : []));
  for (const cli of declared) registerKind(program, ctx, cli);
}
