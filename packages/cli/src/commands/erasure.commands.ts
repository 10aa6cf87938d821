import type { Command } from 'commander';
import type { ResponseOf } from '@kasa/contracts';
import type { Context } from '../context.js';
import { printRecord, printTable } from '../output.js';

type ErasureRequest = ResponseOf<'ErasureRequest'>;

/** KVKK erasure requests (docs/compliance.md, Retention and erasure): file one, list them with their 30-day timer, read one. */
export function registerErasureCommands(program: Command, ctx: Context): void {
  const erasure = program.command('erasure').description("KVKK erasure requests for a partner's end user");

  erasure
    .command('request')
    .description('file a request (admin): anonymises at once what no hold covers, lists what waits for which hold')
    .requiredOption('--site <siteId>', 'the partner site')
    .requiredOption('--user <externalUserId>', "the partner's id of the end user")
    .requiredOption('--reason <text>', 'the ticket or letter it answers')
    .action(async (o: { site: string; user: string; reason: string }) => {
      const filed = await ctx.client().call('createErasureRequest', { body: { siteId: o.site, externalUserId: o.user, reason: o.reason } });
      ctx.emit(filed, () => printRequest(ctx, filed));
    });

  erasure
    .command('list')
    .description('requests newest first, with their due date; --overdue for those still open past it')
    .option('--site <siteId>')
    .option('--status <status>', 'OPEN, ANSWERED or COMPLETED')
    .option('--overdue', 'only requests still OPEN past their due date')
    .option('--limit <n>', 'most rows to show', (v) => Number(v), 50)
    .action(async (o: { site?: string; status?: string; overdue?: boolean; limit: number }) => {
      const query = {
        siteId: o.site,
        status: o.status as ErasureRequest['status'] | undefined,
        ...(o.overdue ? { overdue: 'true' as const } : {}),
      };
      const rows: ErasureRequest[] = [];
      for await (const row of ctx.client().paginate('listErasureRequests', query, o.limit)) rows.push(row);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['ID', (r) => r.erasureRequestId],
          ['SITE', (r) => r.siteId],
          ['USER', (r) => r.externalUserId],
          ['STATUS', (r) => (r.overdue ? `${r.status} (OVERDUE)` : r.status)],
          ['DUE', (r) => ctx.time(r.dueAt)],
          ['WAITING', (r) => r.waiting.count],
        ]),
      );
    });

  erasure
    .command('show')
    .description('one request: what was anonymised, and what waits for which hold')
    .argument('<erasureRequestId>')
    .action(async (erasureRequestId: string) => {
      const request = await ctx.client().call('getErasureRequest', { params: { erasureRequestId } });
      ctx.emit(request, () => printRequest(ctx, request));
    });
}

function printRequest(ctx: Context, request: ErasureRequest): void {
  const { anonymised, waiting, ...rest } = request;
  printRecord(
    ctx.io.stdout,
    { ...rest, anonymised: anonymised.map((a) => `${a.recordType}: ${a.count}`).join(', ') || 'nothing yet' },
    ctx.time,
  );
  if (waiting.records.length === 0) return;
  ctx.io.stdout.write(`\nWaiting (${waiting.count}):\n`);
  printTable(ctx.io.stdout, waiting.records, [
    ['RECORD', (w) => `${w.recordType} ${w.recordId}`],
    ['HOLD', (w) => (w.hold === 'legal_hold' ? `legal hold ${w.legalHoldId ?? ''}` : 'retention')],
    ['UNTIL', (w) => (w.holdEndsAt ? ctx.time(w.holdEndsAt) : 'released')],
  ]);
}
