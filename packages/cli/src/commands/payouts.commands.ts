import type { Command } from 'commander';
import type { Context } from '../context.js';
import { formatAmount } from '../output.js';

/** Payout batches: approved payouts gathered into a file for the bank (docs/operations.md, Payouts). */
export function registerPayoutCommands(program: Command, ctx: Context): void {
  const payouts = program.command('payouts').description('payout batches and their files for the bank');
  payouts
    .command('batch')
    .description('batch every approved withdrawal and return to a sender not yet batched (or only --withdrawal ids)')
    .option('--withdrawal <withdrawalId...>', 'only these approved withdrawals')
    .option('--account <accountId>', 'the paying receiving account (default: the oldest active one)')
    .action(async (o: { withdrawal?: string[]; account?: string }) => {
      const body = { ...(o.withdrawal ? { withdrawalIds: o.withdrawal } : {}), ...(o.account ? { accountId: o.account } : {}) };
      const batch = await ctx.client().call('createPayoutBatch', { body });
      ctx.emit(batch, () => {
        ctx.io.stdout.write(
          `Batch ${batch.batchId}: ${batch.count} payouts, ${formatAmount(batch.total)} TRY. ` +
            `Get its file with \`kasa payouts file ${batch.batchId} > payouts.xml\`.\n`,
        );
      });
    });
  payouts
    .command('file <batchId>')
    .description("print a batch's pain.001.001.03 file (or --csv) for the bank to stdout")
    .option('--csv', 'the CSV layout instead, for banks without pain.001')
    .action(async (batchId: string, o: { csv?: boolean }) => {
      const text = await ctx
        .client()
        .download('getPayoutBatchFile', { params: { batchId }, ...(o.csv ? { query: { format: 'csv' } } : {}) });
      ctx.io.stdout.write(text);
    });
}
