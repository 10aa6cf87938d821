import { InvalidArgumentError, Option, type Command } from 'commander';
import type { ResponseOf } from '@kasa/contracts';
import type { Context } from '../context.js';
import { parseAmount } from '../context.js';
import { modeMark, sandboxSiteIds, testLine } from '../modes.js';
import { formatAmount, printRecord, printTable } from '../output.js';
import { reviewListOptions } from './review.commands.js';

type OpsBalanceAdjustment = ResponseOf<'OpsBalanceAdjustment'>;

/** A reason is what the second admin checks and the audit log keeps: blank text is refused before anything is sent. */
function parseReason(text: string): string {
  if (text.trim() === '') throw new InvalidArgumentError('must say why, in words');
  return text;
}

/** "credit of 150,00 TRY to site <siteId>": what an adjustment does to the site's available balance. */
const movementOf = (adjustment: OpsBalanceAdjustment): string =>
  `${adjustment.direction} of ${formatAmount(adjustment.amount)} TRY ${adjustment.direction === 'credit' ? 'to' : 'from'} site ${adjustment.siteId}`;

const who = (email: string | null, operatorId: string | null): string => email ?? operatorId ?? 'unknown';

/** Who proposed it and, once decided, who applied or rejected it; while in review, what the second admin types. */
function reviewLine(adjustment: OpsBalanceAdjustment): string {
  const proposer = who(adjustment.proposedByEmail, adjustment.proposedByOperatorId);
  const decider = who(adjustment.decidedByEmail, adjustment.decidedByOperatorId);
  switch (adjustment.status) {
    case 'PENDING_REVIEW':
      return (
        `Proposed by ${proposer}; a second admin applies it with kasa adjustments apply ${adjustment.adjustmentId}, ` +
        `or rejects it with kasa adjustments reject ${adjustment.adjustmentId} --reason "..."\n`
      );
    case 'APPLIED':
      return `Proposed by ${proposer}, applied by ${decider}.\n`;
    case 'REJECTED':
      return `Proposed by ${proposer}, rejected by ${decider}: ${adjustment.rejectedReason ?? ''}\n`;
  }
}

function summarize(ctx: Context, adjustment: OpsBalanceAdjustment): void {
  ctx.emit(adjustment, () => {
    const is = adjustment.status === 'PENDING_REVIEW' ? 'is' : 'is now';
    ctx.io.stdout.write(
      `Adjustment ${adjustment.adjustmentId} (${adjustment.referenceNo}) ${is} ${adjustment.status}: ${movementOf(adjustment)}.\n`,
    );
    ctx.io.stdout.write(reviewLine(adjustment));
  });
}

/**
 * Balance adjustments (docs/operations.md, Balance adjustments): corrections of what the service owes a site with no bank
 * movement behind them, proposed by one admin and applied or rejected by a second. Their own file, not review.commands.ts:
 * the kind has its own verbs (propose, apply) and no CSV export, and shares only the list filters with the others.
 */
export function registerAdjustmentCommands(program: Command, ctx: Context): void {
  const adjustments = program
    .command('adjustments')
    .description("corrections of a site's balance: one admin proposes, another applies or rejects");

  reviewListOptions(adjustments.command('list').description('list adjustments (to decide: --status PENDING_REVIEW --order oldest)')).action(
    async (o: { status?: string; site?: string; limit: number; order?: string }) => {
      const query = { status: o.status, siteId: o.site, order: o.order };
      const rows: OpsBalanceAdjustment[] = [];
      for await (const row of ctx.client().paginate('opsListBalanceAdjustments', query, o.limit)) rows.push(row);
      const sandboxes = ctx.jsonMode() ? new Set<string>() : await sandboxSiteIds(ctx);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['ADJUSTMENT', (a) => a.adjustmentId],
          ['REFERENCE', (a) => a.referenceNo],
          ['SITE', (a) => a.siteId],
          ['STATUS', (a) => a.status],
          ['DIRECTION', (a) => a.direction],
          ['AMOUNT (TRY)', (a) => formatAmount(a.amount)],
          ['REASON', (a) => a.reason.slice(0, 40)],
          ['PROPOSED BY', (a) => who(a.proposedByEmail, a.proposedByOperatorId)],
          ['CREATED', (a) => ctx.time(a.createdAt)],
          ['MODE', (a) => modeMark(!sandboxes.has(a.siteId))],
        ]),
      );
    },
  );

  adjustments
    .command('show <adjustmentId>')
    .description('show an adjustment with who proposed and who decided it')
    .action(async (adjustmentId: string) => {
      const adjustment = await ctx.client().call('opsGetBalanceAdjustment', { params: { adjustmentId } });
      const sandbox = !ctx.jsonMode() && (await sandboxSiteIds(ctx)).has(adjustment.siteId);
      ctx.emit(adjustment, () => {
        ctx.io.stdout.write(testLine(sandbox));
        printRecord(ctx.io.stdout, { ...adjustment, amount: formatAmount(adjustment.amount) }, ctx.time);
      });
    });

  adjustments
    .command('propose')
    .description("propose a correction of a site's available balance (admin); nothing is posted until a second admin applies it")
    .requiredOption('--site <siteId>', 'the site whose balance is corrected')
    .addOption(
      new Option('--credit <amount>', 'add this amount in lira (TRY) to what the service owes the site, e.g. 150 or 1.500,00')
        .argParser(parseAmount)
        .conflicts('debit'),
    )
    .addOption(new Option('--debit <amount>', 'take this amount in lira (TRY) from what the service owes the site').argParser(parseAmount))
    .addOption(
      new Option('--reason <text>', 'why: what the second admin checks and the audit log keeps')
        .argParser(parseReason)
        .makeOptionMandatory(),
    )
    .action(async (o: { site: string; credit?: string; debit?: string; reason: string }, command: Command) => {
      // commander refuses both (conflicts); neither is refused here, as a usage error, before any request.
      const amount = o.credit ?? o.debit;
      if (amount === undefined) command.error('error: give the amount with --credit <amount> or --debit <amount> (lira)');
      const proposed = await ctx.client().call('proposeBalanceAdjustment', {
        params: { siteId: o.site },
        body: { direction: o.credit ? 'credit' : 'debit', amount, reason: o.reason },
      });
      summarize(ctx, proposed);
    });

  adjustments
    .command('apply <adjustmentId>')
    .alias('approve')
    .description("apply it to the site's balance (admin; never the admin who proposed it); a debit needs the balance available")
    .action(async (adjustmentId: string) =>
      summarize(ctx, await ctx.client().call('approveBalanceAdjustment', { params: { adjustmentId } })),
    );

  adjustments
    .command('reject <adjustmentId>')
    .description('reject it (admin; the proposer may withdraw their own); nothing is posted')
    .addOption(new Option('--reason <reason>').argParser(parseReason).makeOptionMandatory())
    .action(async (adjustmentId: string, o: { reason: string }) =>
      summarize(ctx, await ctx.client().call('rejectBalanceAdjustment', { params: { adjustmentId }, body: { reason: o.reason } })),
    );
}
