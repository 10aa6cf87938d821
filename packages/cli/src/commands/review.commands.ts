import { InvalidArgumentError, Option, type Command } from 'commander';
import {
  USER_REJECTION_REASONS,
  type OpsBankTransfer,
  type RemainderAction,
  type OpsIntent,
  type OpsSenderReturn,
  type OpsWithdrawal,
} from '@kasa/contracts';
import type { Context } from '../context.js';
import { parseAmount } from '../context.js';
import { CSV_OPTION_HELP, printCsv } from '../csv-export.js';
import { modeMark, sandboxSiteIds, testLine } from '../modes.js';
import { formatAmount, printRecord, printTable } from '../output.js';

/** Every review list's filters: statuses, how many rows, and which end of the queue first. */
const queueOptions = (command: Command) =>
  command
    .option('--status <statuses>', 'comma-separated statuses')
    .option('--limit <n>', 'most rows to show', (v) => Number(v), 50)
    .addOption(
      new Option('--order <order>', 'newest (default) or oldest first: a queue is worked oldest first').choices(['newest', 'oldest']),
    );

/** The filters of a list of one site's records (its ops list takes `siteId`), the queue's and one site. */
export const reviewListOptions = (command: Command) => queueOptions(command).option('--site <siteId>', 'only this site');

/**
 * The lists of transfers and returns, exported as CSV too: no `--site`, as their ops lists take none (a transfer no
 * deposit kept is the house's), so the flag would be read and ignored.
 */
const listOptions = (command: Command) => queueOptions(command).option('--csv', CSV_OPTION_HELP);

/** Deposits and withdrawals also narrow to one site, a reference, the partner's user and an amount range (lira). */
const recordListOptions = (command: Command) =>
  reviewListOptions(command)
    .option('--csv', CSV_OPTION_HELP)
    .option('--reference <referenceNo>', 'one reference, as the user reads it (case, spaces and dashes ignored)')
    .option('--user <externalUserId>', "the partner's user id")
    .option('--min-amount <amount>', 'smallest amount in lira (TRY), inclusive', parseAmount)
    .option('--max-amount <amount>', 'largest amount in lira (TRY), inclusive', parseAmount);

interface RecordListFlags {
  csv?: boolean;
  status?: string;
  site?: string;
  limit: number;
  order?: string;
  reference?: string;
  user?: string;
  minAmount?: string;
  maxAmount?: string;
}

/** The ops API's list filters from the flags (undefined ones are left out of the query). */
const recordFilters = (o: RecordListFlags) => ({
  status: o.status,
  siteId: o.site,
  order: o.order,
  referenceNo: o.reference,
  externalUserId: o.user,
  amountMin: o.minAmount,
  amountMax: o.maxAmount,
});

/** `--remainder return|set-aside`: what happens to money an approval does not credit. */
function parseRemainder(value: string): RemainderAction {
  if (value === 'return') return 'return';
  if (value === 'set-aside' || value === 'set_aside') return 'set_aside';
  throw new InvalidArgumentError('must be return or set-aside');
}

/** "Intent <id> is now APPROVED (amount 1.500,00 TRY)." for a record a decision changed. */
function nowLine(kind: string, record: Record<string, unknown>): string {
  const id = (record.intentId ?? record.withdrawalId) as string;
  return `${kind} ${id} is now ${String(record.status)}${typeof record.amount === 'string' ? ` (amount ${formatAmount(record.amount)} TRY)` : ''}.\n`;
}

function summarize(ctx: Context, kind: string, record: Record<string, unknown>): void {
  ctx.emit(record, () => {
    ctx.io.stdout.write(nowLine(kind, record));
    ctx.io.stdout.write(approvalsLine(record));
  });
}

/**
 * Four-eyes on a payout (docs/operations.md): "1 of 2 approvals" with who gave it while it waits for a second operator,
 * or who approved it; nothing for a record without approvals.
 */
function approvalsLine(record: Record<string, unknown>): string {
  const approvals = record.approvals as OpsSenderReturn['approvals'] | undefined;
  if (!approvals) return '';
  const who = approvals.given.map((given) => given.email ?? given.operatorId).join(', ');
  if (record.status === 'PENDING_REVIEW') {
    if (approvals.required === 1) return '';
    return `Four-eyes: ${approvals.given.length} of 2 approvals${who ? ` (${who})` : ''}; a different operator must approve it too.\n`;
  }
  return who ? `Approved by ${who}.\n` : '';
}

/**
 * What an operator can do with a transfer that went to the unmatched queue, as the command to type: a top-up or a
 * return for money whose deposit was decided, the best suggestion for a near reference, else an assignment.
 */
async function nextStepFor(ctx: Context, bankTransferId: string): Promise<string> {
  const detail = await ctx.client().call('getBankTransfer', { params: { bankTransferId } });
  const closed = detail.closedIntent;
  if (closed?.status === 'APPROVED')
    return (
      `Its deposit ${closed.referenceNo} was approved already: credit it as a top-up with ` +
      `kasa transfers top-up ${bankTransferId} ${closed.intentId}, or send it back with kasa transfers return ${bankTransferId} --reason "..."`
    );
  if (closed)
    return `Its deposit ${closed.referenceNo} was rejected: send it back with kasa transfers return ${bankTransferId} --reason "..."`;
  const [best] = detail.suggestions;
  if (best)
    return `Suggested: ${best.referenceNo} (confidence ${best.confidence}: ${best.reasons.join(', ')}); confirm with kasa transfers assign ${bankTransferId} ${best.intentId}`;
  return `Assign it with: kasa transfers assign ${bankTransferId} <intentId>, or send it back with kasa transfers return ${bankTransferId} --reason "..."`;
}

/** Bank transfers, deposit review, withdrawal review and payout. */
export function registerReviewCommands(program: Command, ctx: Context): void {
  const transfers = program.command('transfers').description('incoming bank transfers');
  transfers
    .command('record')
    .description('record an incoming transfer; it is matched to an intent by the reference in its description')
    .requiredOption('--bank-tx-id <id>', "the bank's transaction id (a repeat changes nothing)")
    .requiredOption('--amount <amount>', 'amount in lira (TRY) as the bank shows it, e.g. 1500 or 1.500,00', parseAmount)
    .requiredOption('--sender-name <name>')
    .requiredOption('--sender-iban <iban>')
    .requiredOption('--description <text>', 'the transfer description, with the deposit reference')
    .option('--received-at <timestamp>', 'when the bank received it (ISO 8601); default now')
    .option(
      '--account <receivingAccountId>',
      "the receiving account the money reached; required when several are active (default: the only active one). The bank's own line later confirms the transfer there",
    )
    .action(
      async (o: {
        bankTxId: string;
        amount: string;
        senderName: string;
        senderIban: string;
        description: string;
        receivedAt?: string;
        account?: string;
      }) => {
        const recorded = await ctx.client().call('recordBankTransfer', {
          body: {
            bankTxId: o.bankTxId,
            amount: o.amount,
            senderName: o.senderName,
            senderIban: o.senderIban,
            description: o.description,
            receivedAt: o.receivedAt ?? new Date().toISOString(),
            ...(o.account ? { receivingAccountId: o.account } : {}),
          },
        });
        const next = recorded.intent ? '' : await nextStepFor(ctx, recorded.bankTransferId);
        ctx.emit(recorded, () => {
          if (recorded.intent)
            ctx.io.stdout.write(
              `Transfer ${recorded.bankTransferId} ${recorded.status}: intent ${recorded.intent.intentId} is now ${recorded.intent.status}.\n`,
            );
          else ctx.io.stdout.write(`Transfer ${recorded.bankTransferId} is UNMATCHED (${recorded.unmatchedReason}). ${next}\n`);
        });
      },
    );
  listOptions(transfers.command('list').description('list bank transfers (the unmatched queue: --status UNMATCHED)')).action(
    async (o: { status?: string; limit: number; order?: string; csv?: boolean }) => {
      if (o.csv) return printCsv(ctx, 'listBankTransfers', { status: o.status, order: o.order });
      const rows: OpsBankTransfer[] = [];
      for await (const row of ctx.client().paginate('listBankTransfers', { status: o.status, order: o.order }, o.limit)) rows.push(row);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['TRANSFER', (t) => t.bankTransferId],
          ['BANK TX', (t) => t.bankTxId],
          ['STATUS', (t) => t.status],
          ['AMOUNT (TRY)', (t) => formatAmount(t.amount)],
          ['SENDER', (t) => t.senderName],
          ['INTENT / REASON', (t) => t.intentId ?? t.unmatchedReason],
          ['DESCRIPTION', (t) => t.description.slice(0, 40)],
          ['MODE', (t) => modeMark(t.livemode)],
        ]),
      );
    },
  );
  transfers
    .command('assign <bankTransferId> <intentId>')
    .description('assign an unmatched transfer to an intent')
    .action(async (bankTransferId: string, intentId: string) => {
      const assigned = await ctx.client().call('assignBankTransfer', { params: { bankTransferId }, body: { intentId } });
      ctx.emit(assigned, () =>
        ctx.io.stdout.write(`Transfer ${bankTransferId} ASSIGNED: intent ${intentId} is now ${assigned.intent.status}.\n`),
      );
    });

  transfers
    .command('top-up <bankTransferId> <intentId>')
    .description('credit money that arrived after its deposit was approved to that deposit (intent.topped_up tells the partner)')
    .action(async (bankTransferId: string, intentId: string) => {
      const credited = await ctx.client().call('topUpBankTransfer', { params: { bankTransferId }, body: { intentId } });
      ctx.emit(credited, () =>
        ctx.io.stdout.write(
          `Transfer ${bankTransferId} credited to intent ${intentId} as a top-up of ${formatAmount(credited.amount)} TRY: ` +
            `it now credits ${formatAmount(credited.intent.amount)} TRY (event ${credited.eventId ?? 'none'}).\n`,
        ),
      );
    });

  transfers
    .command('set-aside <bankTransferId>')
    .description('set an unmatched transfer aside with a reason (it stays assignable; no money moves)')
    .requiredOption('--reason <reason>')
    .action(async (bankTransferId: string, o: { reason: string }) => {
      const transfer = await ctx.client().call('setBankTransferAside', { params: { bankTransferId }, body: { reason: o.reason } });
      ctx.emit(transfer, () => ctx.io.stdout.write(`Transfer ${bankTransferId} is now ${transfer.status}.\n`));
    });

  transfers
    .command('return <bankTransferId>')
    .description("ask to send a transfer's money back to its sender (money no deposit kept); then: returns approve, mark-sent")
    .requiredOption('--reason <reason>')
    .action(async (bankTransferId: string, o: { reason: string }) => {
      const asked = await ctx.client().call('requestSenderReturn', { params: { bankTransferId }, body: { reason: o.reason } });
      ctx.emit(asked, () => ctx.io.stdout.write(`Return ${asked.returnId} of ${formatAmount(asked.amount)} TRY is ${asked.status}.\n`));
    });

  const returns = program.command('returns').description('money going back to senders: review and payout');
  listOptions(returns.command('list').description('list returns (to review: --status PENDING_REVIEW; to send: --status APPROVED)'))
    .option('--test', "the sandboxes' returns of simulated money (played out by the simulator) instead of the live queue")
    .action(async (o: { status?: string; limit: number; order?: string; csv?: boolean; test?: boolean }) => {
      const query = { status: o.status, order: o.order, ...(o.test ? { mode: 'test' as const } : {}) };
      if (o.csv) return printCsv(ctx, 'listSenderReturns', query);
      const rows: OpsSenderReturn[] = [];
      for await (const row of ctx.client().paginate('listSenderReturns', query, o.limit)) rows.push(row);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['RETURN', (r) => r.returnId],
          ['STATUS', (r) => r.status],
          ['AMOUNT (TRY)', (r) => formatAmount(r.amount)],
          ['TO', (r) => `${r.senderName} ${r.senderIban}`],
          ['REASON', (r) => r.reason.slice(0, 40)],
          ['ASKED', (r) => ctx.time(r.createdAt)],
          ['MODE', (r) => modeMark(r.livemode)],
        ]),
      );
    });
  const returnChanged = (changed: OpsSenderReturn) =>
    ctx.emit(changed, () => ctx.io.stdout.write(`Return ${changed.returnId} is now ${changed.status}.\n${approvalsLine(changed)}`));
  returns
    .command('approve <returnId>')
    .description('approve a return (the money is booked as owed back)')
    .action(async (returnId: string) => returnChanged(await ctx.client().call('approveSenderReturn', { params: { returnId } })));
  returns
    .command('reject <returnId>')
    .description('reject a return (an approval is reversed; the transfer goes back where it was)')
    .requiredOption('--reason <reason>')
    .action(async (returnId: string, o: { reason: string }) =>
      returnChanged(await ctx.client().call('rejectSenderReturn', { params: { returnId }, body: { reason: o.reason } })),
    );
  returns
    .command('mark-sent <returnId>')
    .description('record that the money went back to the sender')
    .option('--bank-tx-id <id>', "the outgoing transfer's id at the bank")
    .action(async (returnId: string, o: { bankTxId?: string }) =>
      returnChanged(
        await ctx.client().call('markSenderReturnSent', { params: { returnId }, body: o.bankTxId ? { bankTxId: o.bankTxId } : {} }),
      ),
    );

  const deposits = program.command('intents').description('deposit intents and their review');
  recordListOptions(
    deposits.command('list').description('list intents (review queue: --status PENDING_REVIEW,LATE_ARRIVAL --order oldest)'),
  )
    .addOption(
      new Option('--waiting <which>', 'true: only intents waiting for the rest of their money; false: only the others').choices([
        'true',
        'false',
      ]),
    )
    .action(async (o: RecordListFlags & { waiting?: 'true' | 'false' }) => {
      if (o.csv) return printCsv(ctx, 'opsListIntents', { ...recordFilters(o), waiting: o.waiting });
      const rows: OpsIntent[] = [];
      for await (const row of ctx.client().paginate('opsListIntents', { ...recordFilters(o), waiting: o.waiting }, o.limit)) rows.push(row);
      const sandboxes = ctx.jsonMode() ? new Set<string>() : await sandboxSiteIds(ctx);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['INTENT', (i) => i.intentId],
          ['REFERENCE', (i) => i.referenceNo],
          ['STATUS', (i) => i.status],
          ['REQUESTED (TRY)', (i) => formatAmount(i.requestedAmount)],
          ['RECEIVED (TRY)', (i) => formatAmount(i.receivedAmount)],
          ['CREATED', (i) => ctx.time(i.createdAt)],
          ['MODE', (i) => modeMark(!sandboxes.has(i.siteId))],
        ]),
      );
    });
  deposits
    .command('show <intentId>')
    .description('show an intent with its bank transfers')
    .action(async (intentId: string) => {
      const deposit = await ctx.client().call('opsGetIntent', { params: { intentId } });
      const sandbox = !ctx.jsonMode() && (await sandboxSiteIds(ctx)).has(deposit.siteId);
      ctx.emit(deposit, () => {
        ctx.io.stdout.write(testLine(sandbox));
        printRecord(ctx.io.stdout, deposit, ctx.time);
      });
    });
  deposits
    .command('approve <intentId>')
    .description('approve a deposit; the amount defaults to what the bank transfers brought')
    .option('--amount <amount>', 'credit this amount in lira (TRY) instead, e.g. 1450 or 1.450,00', parseAmount)
    .option(
      '--remainder <action>',
      'when crediting less than arrived: return (default: the rest goes back to its sender for review) or set-aside',
      parseRemainder,
    )
    .option('--reason <text>', 'why the rest is set aside (required with --remainder set-aside)')
    .action(async (intentId: string, o: { amount?: string; remainder?: RemainderAction; reason?: string }) => {
      const remainder = o.remainder ? { remainder: { action: o.remainder, ...(o.reason ? { reason: o.reason } : {}) } } : {};
      const approved = await ctx.client().call('approveIntent', {
        params: { intentId },
        body: { ...(o.amount ? { amount: o.amount } : {}), ...remainder },
      });
      summarize(ctx, 'Intent', approved);
      const rest = approved.remainder;
      if (rest && !ctx.jsonMode()) {
        ctx.io.stdout.write(
          rest.action === 'return'
            ? `The rest, ${formatAmount(rest.amount)} TRY, goes back to its sender: return(s) ${rest.returnIds.join(', ')} wait for review.\n`
            : `The rest, ${formatAmount(rest.amount)} TRY, is set aside: ${rest.reason}\n`,
        );
      }
    });
  deposits
    .command('approve-exact <intentId...>')
    .description('approve several deposits at once (1 to 100), each only if the money received equals the amount requested')
    .action(async (intentIds: string[]) => {
      const { results } = await ctx.client().call('bulkApproveIntents', { body: { intentIds } });
      ctx.emit(results, () => {
        for (const result of results) {
          ctx.io.stdout.write(
            result.ok
              ? nowLine('Intent', result.intent)
              : `Intent ${result.intentId} was not approved: ${result.error.detail} (${result.error.reason})\n`,
          );
        }
        const approved = results.filter((result) => result.ok).length;
        ctx.io.stdout.write(`Approved ${approved} of ${results.length}.\n`);
      });
      // Each deposit is decided on its own; one not approved makes the command's exit code 1, as a refused single approval does.
      if (results.some((result) => !result.ok)) ctx.exitCode = 1;
    });
  deposits
    .command('wait-for-rest <intentId>')
    .description('take an intent that received less than requested out of the review queue until the rest arrives')
    .action(async (intentId: string) => {
      const waiting = await ctx.client().call('waitForRest', { params: { intentId } });
      ctx.emit(waiting, () =>
        ctx.io.stdout.write(
          `Intent ${intentId} waits for the rest: ${formatAmount(waiting.receivedAmount)} of ${formatAmount(waiting.requestedAmount)} TRY received. ` +
            'It returns to the review queue when more money arrives; approve or reject it meanwhile if you must.\n',
        ),
      );
    });
  deposits
    .command('reject <intentId>')
    .description('reject a deposit; the reason goes to the partner in intent.rejected')
    .requiredOption('--reason <reason>')
    .addOption(
      new Option('--user-reason <code>', "what the user's deposit page says (default: a general text)").choices(USER_REJECTION_REASONS),
    )
    .action(async (intentId: string, o: { reason: string; userReason?: string }) => {
      // commander has checked the choice; find() gives it its type.
      const userReason = USER_REJECTION_REASONS.find((known) => known === o.userReason);
      const body = { reason: o.reason, ...(userReason ? { userReason } : {}) };
      summarize(ctx, 'Intent', await ctx.client().call('rejectIntent', { params: { intentId }, body }));
    });

  const withdrawals = program.command('withdrawals').description('withdrawal review and payout');
  recordListOptions(
    withdrawals.command('list').description('list withdrawals (review queue: --status PENDING_REVIEW; to pay: --status APPROVED)'),
  ).action(async (o: RecordListFlags) => {
    if (o.csv) return printCsv(ctx, 'opsListWithdrawals', recordFilters(o));
    const rows: OpsWithdrawal[] = [];
    for await (const row of ctx.client().paginate('opsListWithdrawals', recordFilters(o), o.limit)) rows.push(row);
    const sandboxes = ctx.jsonMode() ? new Set<string>() : await sandboxSiteIds(ctx);
    ctx.emit(rows, () =>
      printTable(ctx.io.stdout, rows, [
        ['WITHDRAWAL', (w) => w.withdrawalId],
        ['REFERENCE', (w) => w.referenceNo],
        ['STATUS', (w) => w.status],
        ['AMOUNT (TRY)', (w) => formatAmount(w.amount)],
        ['TO', (w) => `${w.targetHolderName} ${w.targetIban}`],
        ['CREATED', (w) => ctx.time(w.createdAt)],
        ['MODE', (w) => modeMark(!sandboxes.has(w.siteId))],
      ]),
    );
  });
  withdrawals
    .command('show <withdrawalId>')
    .description("show a withdrawal with the site's balance")
    .action(async (withdrawalId: string) => {
      const withdrawal = await ctx.client().call('opsGetWithdrawal', { params: { withdrawalId } });
      const sandbox = !ctx.jsonMode() && (await sandboxSiteIds(ctx)).has(withdrawal.siteId);
      ctx.emit(withdrawal, () => {
        ctx.io.stdout.write(testLine(sandbox));
        printRecord(ctx.io.stdout, withdrawal, ctx.time);
      });
    });
  withdrawals
    .command('approve <withdrawalId>')
    .description("approve; reserves the amount from the site's available balance")
    .action(async (id: string) =>
      summarize(ctx, 'Withdrawal', await ctx.client().call('approveWithdrawal', { params: { withdrawalId: id } })),
    );
  withdrawals
    .command('reject <withdrawalId>')
    .description('reject (before or after approval); the reason goes to the partner')
    .requiredOption('--reason <reason>')
    .action(async (id: string, o: { reason: string }) =>
      summarize(
        ctx,
        'Withdrawal',
        await ctx.client().call('rejectWithdrawal', { params: { withdrawalId: id }, body: { reason: o.reason } }),
      ),
    );
  withdrawals
    .command('mark-sent <withdrawalId>')
    .description('record that the payout left the bank')
    .option('--bank-tx-id <id>', "the bank's id of the outgoing transfer")
    .action(async (id: string, o: { bankTxId?: string }) =>
      summarize(
        ctx,
        'Withdrawal',
        await ctx.client().call('markWithdrawalSent', { params: { withdrawalId: id }, body: o.bankTxId ? { bankTxId: o.bankTxId } : {} }),
      ),
    );
  withdrawals
    .command('mark-returned <withdrawalId>')
    .description('record that the bank returned the payout; the amount is available again')
    .requiredOption('--reason <reason>')
    .action(async (id: string, o: { reason: string }) =>
      summarize(
        ctx,
        'Withdrawal',
        await ctx.client().call('markWithdrawalReturned', { params: { withdrawalId: id }, body: { reason: o.reason } }),
      ),
    );
}
