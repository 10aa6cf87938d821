import { randomUUID } from 'node:crypto';
import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import type { OpsEvent } from '@kasa/contracts';
import { OpsApiError, type OpsClient } from '@kasa/ops-client';
import type { Context } from '../context.js';
import { CSV_OPTION_HELP, printCsv } from '../csv-export.js';
import { printTable } from '../output.js';

/** The record an event is about, from its webhook body: the intent's or the withdrawal's id. */
function recordOf(event: OpsEvent): string {
  const { data } = event.payload;
  return 'intentId' in data ? data.intentId : data.withdrawalId;
}

interface ReplayFailure {
  eventId: string;
  status: number | null;
  error: string;
}

/**
 * Replays one event. The Idempotency-Key is fixed per run and event, so the retry after a timeout or a 5xx
 * cannot start a second delivery cycle.
 */
async function replayOne(client: OpsClient, runId: string, eventId: string): Promise<ReplayFailure | null> {
  const key = `kasa-replay-${runId}-${eventId}`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.call('opsReplayEvent', { params: { eventId }, headers: { 'idempotency-key': key } });
      return null;
    } catch (error) {
      const status = error instanceof OpsApiError && error.answered ? error.status : null;
      const retryable = status === null || status >= 500 || status === 429;
      if (!retryable || attempt >= 3) return { eventId, status, error: error instanceof Error ? error.message : String(error) };
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
  }
}

/** The delivery ledger: list events, replay one, replay every DEAD one in bulk. */
export function registerEventCommands(program: Command, ctx: Context): void {
  const events = program.command('events').description('webhook events and their delivery');

  events
    .command('list')
    .description('list events, newest first (DEAD ones: --status DEAD)')
    .option('--status <statuses>', 'PENDING, DELIVERED, DEAD (comma-separated)')
    .option('--type <types>', 'for example intent.approved')
    .option('--site <siteId>')
    .option('--limit <n>', 'most rows to show', (v) => Number(v), 50)
    .option('--csv', CSV_OPTION_HELP)
    .action(async (o: { status?: string; type?: string; site?: string; limit: number; csv?: boolean }) => {
      if (o.csv) return printCsv(ctx, 'opsListEvents', { status: o.status, type: o.type, siteId: o.site });
      const rows: OpsEvent[] = [];
      for await (const row of ctx.client().paginate('opsListEvents', { status: o.status, type: o.type, siteId: o.site }, o.limit))
        rows.push(row);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['EVENT', (e) => e.eventId],
          ['TYPE', (e) => e.type],
          ['STATUS', (e) => e.status],
          ['ATTEMPTS', (e) => e.attemptCount],
          ['RECORD', (e) => recordOf(e)],
          ['CREATED', (e) => ctx.time(e.createdAt)],
        ]),
      );
    });

  events
    .command('replay <eventId>')
    .description('start a new delivery cycle of one event (same eventId)')
    .action(async (eventId: string) => {
      const failure = await replayOne(ctx.client(), randomUUID(), eventId);
      if (failure) throw new Error(failure.error);
      ctx.emit({ eventId, replayed: true }, () => ctx.io.stdout.write(`Replay of ${eventId} accepted.\n`));
    });

  events
    .command('replay-dead')
    .description('replay every DEAD event (optionally of one site or type), with a progress bar')
    .option('--site <siteId>')
    .option('--type <types>')
    .option('--max <n>', 'replay at most this many', (v) => Number(v))
    .option('--concurrency <n>', 'replays in flight at once', (v) => Number(v), 4)
    .option('--dry-run', 'only count and list what would be replayed')
    .action(async (o: { site?: string; type?: string; max?: number; concurrency: number; dryRun?: boolean }) => {
      const client = ctx.client();
      // Collect first, then replay: a replayed event leaves DEAD, which would shift the pages under us.
      const dead: OpsEvent[] = [];
      for await (const event of client.paginate('opsListEvents', { status: 'DEAD', type: o.type, siteId: o.site }, o.max ?? Infinity))
        dead.push(event);
      if (o.dryRun) {
        ctx.emit({ dead: dead.length, eventIds: dead.map((e) => e.eventId) }, () =>
          ctx.io.stdout.write(`${dead.length} DEAD event(s) would be replayed.\n`),
        );
        return;
      }
      const bar = ctx.jsonMode()
        ? null
        : new cliProgress.SingleBar(
            {
              format: 'Replaying DEAD events [{bar}] {value}/{total} {percentage}% | failed {failed} | eta {eta}s',
              stream: ctx.io.stderr as NodeJS.WritableStream,
              hideCursor: false,
            },
            cliProgress.Presets.shades_classic,
          );
      bar?.start(dead.length, 0, { failed: 0 });
      const runId = randomUUID();
      const failures: ReplayFailure[] = [];
      let next = 0;
      let finished = 0;
      const worker = async () => {
        while (next < dead.length) {
          const event = dead[next] as OpsEvent;
          next += 1;
          const failure = await replayOne(client, runId, event.eventId);
          if (failure) failures.push(failure);
          finished += 1;
          bar?.update(finished, { failed: failures.length });
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, 32)) }, worker));
      bar?.stop();
      const summary = { total: dead.length, replayed: dead.length - failures.length, failed: failures };
      ctx.emit(summary, () => {
        ctx.io.stdout.write(`Replayed ${summary.replayed} of ${summary.total} DEAD event(s).\n`);
        for (const failure of failures) ctx.io.stdout.write(`  failed ${failure.eventId}: ${failure.error}\n`);
      });
      if (failures.length > 0) ctx.exitCode = 1;
    });
}
