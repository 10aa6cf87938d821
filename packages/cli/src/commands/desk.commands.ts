import type { Command } from 'commander';
import { OPS_RECORD_DESK_QUEUES, type OpsDashboard, type QueueHead } from '@kasa/contracts';
import { waitedFor } from '@kasa/ops-client';
import type { Context } from '../context.js';
import type { TimeFormat } from '../times.js';
import { formatAmount, printTable } from '../output.js';

type QueueKey = keyof Omit<OpsDashboard, 'generatedAt' | 'autoReplayed'>;

// The queues written for the first kinds, then the ones the kinds declare (their `desk` part, its `cli` label), then
// what the desk counts beside records.
const QUEUES: Array<[QueueKey, string]> = [
  ['depositsToReview', 'Deposits to review'],
  ['lateArrivals', 'Late arrivals'],
  ['waitingForRest', 'Waiting for the rest'],
  ['unmatchedTransfers', 'Unmatched transfers'],
  ['bankLineDifferences', 'Bank line differences'],
  ['withdrawalsToReview', 'Withdrawals to review'],
  ['withdrawalsToSend', 'Withdrawals to send'],
  ['returnsToReview', 'Returns to review'],
  ['returnsToSend', 'Returns to send'],
  ...OPS_RECORD_DESK_QUEUES.map(({ queue, cli }): [QueueKey, string] => [queue, cli]),
  ['deadEvents', 'DEAD events'],
  ['failingPartners', 'Failing partners'],
  ['reconciliationDifferences', 'Reconciliation differences'],
];

/** Not a queue: what webhook auto-replay did for partners whose endpoint answered again (docs/webhooks.md). */
function autoReplayLine(head: QueueHead, time: TimeFormat): string {
  const since = head.oldestAt ? `, the first at ${time(head.oldestAt)} (site ${head.oldestId ?? '?'})` : '';
  return `\nWebhook auto-replay, last 24 hours: ${head.count} DEAD event${head.count === 1 ? '' : 's'} replayed after their site answered again${since}.\n`;
}

/** The operators' desk from the terminal: one search, what waits, and each partner's deliveries. */
export function registerDeskCommands(program: Command, ctx: Context): void {
  program
    .command('search <text...>')
    .description('find deposits, withdrawals, bank transfers and events by reference, id, user id, name or IBAN tail')
    .action(async (words: string[]) => {
      const found = await ctx.client().call('opsSearch', { query: { q: words.join(' ') } });
      ctx.emit(found, () => {
        const out = ctx.io.stdout;
        out.write(`Deposits (${found.deposits.length})\n`);
        printTable(out, found.deposits, [
          ['INTENT', (i) => i.intentId],
          ['REFERENCE', (i) => i.referenceNo],
          ['STATUS', (i) => i.status],
          ['USER', (i) => i.externalUserId],
          ['REQUESTED (TRY)', (i) => formatAmount(i.requestedAmount)],
          ['CREATED', (i) => ctx.time(i.createdAt)],
        ]);
        out.write(`\nWithdrawals (${found.withdrawals.length})\n`);
        printTable(out, found.withdrawals, [
          ['WITHDRAWAL', (w) => w.withdrawalId],
          ['REFERENCE', (w) => w.referenceNo],
          ['STATUS', (w) => w.status],
          ['USER', (w) => w.externalUserId],
          ['AMOUNT (TRY)', (w) => formatAmount(w.amount)],
          ['TO', (w) => w.targetHolderName],
        ]);
        out.write(`\nBank transfers (${found.bankTransfers.length})\n`);
        printTable(out, found.bankTransfers, [
          ['TRANSFER', (t) => t.bankTransferId],
          ['STATUS', (t) => t.status],
          ['AMOUNT (TRY)', (t) => formatAmount(t.amount)],
          ['SENDER', (t) => t.senderName],
          ['DESCRIPTION', (t) => t.description.slice(0, 40)],
        ]);
        out.write(`\nEvents (${found.events.length})\n`);
        printTable(out, found.events, [
          ['EVENT', (e) => e.eventId],
          ['TYPE', (e) => e.type],
          ['STATUS', (e) => e.status],
          ['ATTEMPTS', (e) => e.attemptCount],
          ['CREATED', (e) => ctx.time(e.createdAt)],
        ]);
      });
    });

  program
    .command('dashboard')
    .description('what needs an operator: each queue with its count and how long its oldest item has waited')
    .action(async () => {
      const dashboard = await ctx.client().call('opsDashboard');
      const now = new Date(dashboard.generatedAt);
      ctx.emit(dashboard, () => {
        printTable(
          ctx.io.stdout,
          QUEUES.map(([key, label]) => [label, dashboard[key]] as [string, QueueHead]),
          [
            ['QUEUE', ([label]) => label],
            ['COUNT', ([, q]) => q.count],
            ['OLDEST WAITING', ([, q]) => waitedFor(q.oldestAt, now)],
            ['OLDEST', ([, q]) => q.oldestId ?? ''],
          ],
        );
        ctx.io.stdout.write(autoReplayLine(dashboard.autoReplayed, ctx.time));
      });
    });

  const deliveries = program.command('deliveries').description("partners' webhook deliveries");
  deliveries
    .command('health')
    .description('per site: success rate, failing since, last error, DEAD and PENDING events')
    .option('--site <siteId>', 'only this site')
    .option('--hours <n>', 'the window success rates count (default 24)')
    .action(async (o: { site?: string; hours?: string }) => {
      const health = await ctx.client().call('deliveryHealth', { query: { siteId: o.site, hours: o.hours } });
      const now = new Date(health.generatedAt);
      ctx.emit(health, () =>
        printTable(ctx.io.stdout, health.data, [
          ['SITE', (s) => s.slug],
          [`SUCCESS (${health.windowHours}h)`, (s) => (s.successRate === null ? '-' : `${Math.round(s.successRate * 1000) / 10}%`)],
          ['ATTEMPTS', (s) => s.attempts],
          ['FAILING FOR', (s) => waitedFor(s.failingSince, now)],
          ['DEAD', (s) => s.deadEvents],
          ['PENDING', (s) => s.pendingEvents],
          [
            'LAST ERROR',
            (s) => (s.lastFailure ? (s.lastFailure.statusCode ? `HTTP ${s.lastFailure.statusCode}` : (s.lastFailure.error ?? '')) : ''),
          ],
        ]),
      );
    });
}
