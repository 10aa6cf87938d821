import type { Command } from 'commander';
import type { Context } from '../context.js';
import { printRecord, printTable } from '../output.js';

const NUMBER_HELP = "the bank's own account number (digits), for statements that name the account by it instead of the IBAN";
const BRANCH_HELP = 'the branch (şube) code the bank writes beside the account number (digits)';

/** The service's receiving bank accounts: listing them, adding one, and what their statements may name them by. */
export function registerAccountCommands(program: Command, ctx: Context): void {
  const accounts = program.command('accounts').description("the service's receiving bank accounts");

  accounts
    .command('list')
    .description('list them, oldest first: the id a hand-recorded transfer names (transfers record --account)')
    .action(async () => {
      const rows = (await ctx.client().call('listReceivingAccounts')).data;
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['ID', (a) => a.id],
          ['BANK', (a) => a.bankName],
          ['HOLDER', (a) => a.holderName],
          ['IBAN', (a) => a.iban],
          ['ACCOUNT NO', (a) => a.accountNumber],
          ['BRANCH', (a) => a.branchCode],
          ['ACTIVE', (a) => (a.active ? 'yes' : 'no')],
        ]),
      );
    });

  accounts
    .command('create')
    .description('add a receiving account (admin; deposits are handed out to the active ones in turn)')
    .requiredOption('--bank <name>', "the bank's name, shown to payers")
    .requiredOption('--holder <name>', "the account holder's name, shown to payers")
    .requiredOption('--iban <iban>', 'the TR IBAN payers send to')
    .option('--account-number <digits>', NUMBER_HELP)
    .option('--branch-code <digits>', BRANCH_HELP)
    .action(async (o: { bank: string; holder: string; iban: string; accountNumber?: string; branchCode?: string }) => {
      const body = {
        bankName: o.bank,
        holderName: o.holder,
        iban: o.iban,
        ...(o.accountNumber !== undefined ? { accountNumber: o.accountNumber } : {}),
        ...(o.branchCode !== undefined ? { branchCode: o.branchCode } : {}),
      };
      const account = await ctx.client().call('createReceivingAccount', { body });
      ctx.emit(account, () => printRecord(ctx.io.stdout, { ...account }, ctx.time));
    });

  accounts
    .command('update <accountId>')
    .description("change a receiving account's names, account number or branch code (admin; audited); its IBAN never changes")
    .option('--bank <name>')
    .option('--holder <name>')
    .option('--account-number <digits>', NUMBER_HELP)
    .option('--no-account-number', 'remove the account number')
    .option('--branch-code <digits>', BRANCH_HELP)
    .option('--no-branch-code', 'remove the branch code')
    .action(
      async (accountId: string, o: { bank?: string; holder?: string; accountNumber?: string | false; branchCode?: string | false }) => {
        const body = {
          ...(o.bank !== undefined ? { bankName: o.bank } : {}),
          ...(o.holder !== undefined ? { holderName: o.holder } : {}),
          ...(o.accountNumber !== undefined ? { accountNumber: o.accountNumber === false ? null : o.accountNumber } : {}),
          ...(o.branchCode !== undefined ? { branchCode: o.branchCode === false ? null : o.branchCode } : {}),
        };
        const account = await ctx.client().call('updateReceivingAccount', { params: { accountId }, body });
        ctx.emit(account, () => printRecord(ctx.io.stdout, { ...account }, ctx.time));
      },
    );
}
