import type { Command } from 'commander';
import type { AuditEntry } from '@kasa/contracts';
import type { Context } from '../context.js';
import { CSV_OPTION_HELP, printCsv } from '../csv-export.js';
import { formatAmount, printTable } from '../output.js';

/** Balances, the journal invariant check and the audit log (receiving accounts: accounts.commands.ts). */
export function registerLedgerCommands(program: Command, ctx: Context): void {
  program
    .command('balances')
    .description("print each site's balance (available, reserved, received, paid out), in TRY")
    .option('--site <siteId>', 'only this site')
    .action(async (o: { site?: string }) => {
      const client = ctx.client();
      const rows = o.site
        ? [await client.call('getSiteBalance', { params: { siteId: o.site } })]
        : (await client.call('listBalances')).data;
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['SITE', (b) => b.slug],
          ['SITE ID', (b) => b.siteId],
          ['AVAILABLE (TRY)', (b) => formatAmount(b.available)],
          ['RESERVED (TRY)', (b) => formatAmount(b.reserved)],
          ['RECEIVED (TRY)', (b) => formatAmount(b.receivedTotal)],
          ['PAID OUT (TRY)', (b) => formatAmount(b.paidOutTotal)],
          ['ADJUSTED (TRY)', (b) => formatAmount(b.adjustedTotal)],
        ]),
      );
    });

  program
    .command('journal')
    .description('the double-entry journal')
    .command('check')
    .description('verify the invariants; exits 1 when any is broken')
    .action(async () => {
      const report = await ctx.client().call('checkJournal');
      ctx.emit(report, () => {
        if (report.ok) ctx.io.stdout.write('Journal OK: every transaction balances and every balance equals its entries and records.\n');
        else for (const problem of report.problems) ctx.io.stdout.write(`${problem.kind}: ${JSON.stringify(problem.detail)}\n`);
      });
      if (!report.ok) ctx.exitCode = 1;
    });

  const audit = program
    .command('audit')
    .description('read the audit log, newest first; `audit verify` checks the history chains and their daily seals')
    .option('--entity <id>', 'entries about this record')
    .option('--actor <id>', 'entries by this operator id (or "bootstrap")')
    .option('--action <action>', 'for example INTENT.APPROVED')
    .option('--site <siteId>')
    .option('--limit <n>', 'most rows to show', (v) => Number(v), 50)
    .option('--csv', CSV_OPTION_HELP)
    .action(async (o: { entity?: string; actor?: string; action?: string; site?: string; limit: number; csv?: boolean }) => {
      const query = { entityId: o.entity, actorId: o.actor, action: o.action, siteId: o.site };
      if (o.csv) return printCsv(ctx, 'listAudit', query);
      const rows: AuditEntry[] = [];
      for await (const row of ctx.client().paginate('listAudit', query, o.limit)) rows.push(row);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['AT', (a) => ctx.time(a.createdAt)],
          ['WHO', (a) => a.actor.email ?? `${a.actor.type.toLowerCase()}:${a.actor.id}`],
          ['ACTION', (a) => a.action],
          ['RECORD', (a) => `${a.entityType} ${a.entityId}`],
          ['CHANGE', (a) => changeSummary(a.metadata)],
        ]),
      );
    });

  audit
    .command('verify')
    .description('verify the history chains and their signed daily seals (docs/compliance.md); exits 1 when anything is wrong')
    .action(async () => {
      // The journal check's history part: each chain walked link by link, each seal checked against the public keys.
      const report = await ctx.client().call('checkJournal');
      const problems = report.problems.filter((problem) => problem.kind === 'history_altered');
      ctx.emit({ ok: problems.length === 0, problems }, () => {
        if (problems.length === 0) ctx.io.stdout.write('History OK: every chain links its rows unchanged and every seal verifies.\n');
        for (const { detail } of problems) ctx.io.stdout.write(`${historyProblemLine(detail)}\n`);
      });
      if (problems.length > 0) ctx.exitCode = 1;
    });
}

/** One history problem on a line: the case, then the seal's day, the chain and place, the row, and why. */
export function historyProblemLine(detail: Record<string, string>): string {
  const place = detail.chain
    ? ` ${detail.chain}${detail.fromSeq ? ` seq ${detail.fromSeq}..${detail.seq}` : detail.seq ? ` seq ${detail.seq}` : ''}`
    : '';
  return [
    `${detail.case ?? 'history_altered'}:`,
    detail.day ? `seal of ${detail.day}` : null,
    place ? place.trim() : null,
    detail.rowId ? `row ${detail.rowId}` : null,
    detail.reason ? `(${detail.reason})` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(' ');
}

/** An audit entry's change on one line: each setting before → after, a status from → to, and a reason. */
export function changeSummary(metadata: unknown): string {
  if (!metadata || typeof metadata !== 'object') return '';
  const { before, after, from, to, reason } = metadata as Record<string, unknown>;
  const text = (value: unknown) =>
    value === null || value === undefined ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);
  const parts: string[] = [];
  if (before && after && typeof before === 'object' && typeof after === 'object') {
    for (const key of Object.keys(after))
      parts.push(`${key}: ${text((before as Record<string, unknown>)[key])} → ${text((after as Record<string, unknown>)[key])}`);
  }
  if (typeof from === 'string' && typeof to === 'string') parts.push(`${from} → ${to}`);
  if (typeof reason === 'string') parts.push(`reason: ${reason}`);
  return parts.join('; ');
}
