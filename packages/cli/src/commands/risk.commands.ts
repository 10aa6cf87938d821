import { InvalidArgumentError, type Command } from 'commander';
import type { OpsQuery, ResponseOf } from '@kasa/contracts';
import type { Context } from '../context.js';
import { printCsvFile } from '../csv-export.js';
import { printRecord, printTable } from '../output.js';

type RiskFlag = ResponseOf<'RiskFlag'>;
type RiskRule = NonNullable<OpsQuery<'listRiskFlags'>['rule']>;
type RiskStatus = NonNullable<OpsQuery<'listRiskFlags'>['status']>;
type RiskOutcome = 'no_action' | 'reported';

const RULES: readonly RiskRule[] = ['name_mismatch', 'just_under_limit', 'returned_and_resent', 'stranger_credit', 'velocity'];

function statusOption(text: string): RiskStatus {
  const status = text.toUpperCase();
  if (status !== 'OPEN' && status !== 'CLOSED') throw new InvalidArgumentError('must be OPEN or CLOSED');
  return status;
}

function ruleOption(text: string): RiskRule {
  const rule = RULES.find((name) => name === text);
  if (!rule) throw new InvalidArgumentError(`must be one of ${RULES.join(', ')}`);
  return rule;
}

function outcomeArgument(text: string): RiskOutcome {
  if (text !== 'no_action' && text !== 'reported') throw new InvalidArgumentError('must be no_action or reported');
  return text;
}

/** A calendar day as the report takes it; a day that does not exist (2026-02-30) is refused by the ledger. */
function dayOption(text: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) throw new InvalidArgumentError('must be a day written YYYY-MM-DD');
  return text;
}

/** What the rule saw, on one line: `senderName=Mehmet Demir, userName=Ayşe Yılmaz, score=0.31`. */
function factsLine(flag: RiskFlag): string {
  return Object.entries(flag.facts)
    .map(([key, value]) => `${key}=${value ?? ''}`)
    .join(', ');
}

function statusOf(flag: RiskFlag): string {
  if (flag.status === 'CLOSED') return `CLOSED ${flag.outcome ?? ''}`.trimEnd();
  return flag.overdue ? 'OPEN overdue' : 'OPEN';
}

/**
 * Risk flags (docs/compliance.md, Risk flags and reports): the review queue, one flag, its review and the report
 * for the authority; house-wide admins only.
 */
export function registerRiskCommands(program: Command, ctx: Context): void {
  const risk = program.command('risk').description('risk flags awaiting a compliance review, and the report for the authority (admins)');

  risk
    .command('list')
    .description('the review queue: OPEN flags due soonest first (or --status CLOSED: newest review first); at most 200')
    .option('--status <status>', 'OPEN (default) or CLOSED', statusOption)
    .option('--rule <rule>', RULES.join(', '), ruleOption)
    .option('--site <siteId>', "only this site's flags")
    .action(async (o: { status?: RiskStatus; rule?: RiskRule; site?: string }) => {
      const query = {
        ...(o.status ? { status: o.status } : {}),
        ...(o.rule ? { rule: o.rule } : {}),
        ...(o.site ? { siteId: o.site } : {}),
      };
      const { data } = await ctx.client().call('listRiskFlags', { query });
      ctx.emit(data, () =>
        printTable(ctx.io.stdout, data, [
          ['FLAG', (flag) => flag.id],
          ['RULE', (flag) => flag.rule],
          ['STATUS', statusOf],
          ['DUE', (flag) => ctx.time(flag.dueAt)],
          ['SUBJECT', (flag) => `${flag.subjectType} ${flag.subjectId}`],
          ['USER', (flag) => flag.externalUserId],
          ['FACTS', factsLine],
        ]),
      );
    });

  risk
    .command('show <flagId>')
    .description('one flag: what its rule saw, its deadline and its review')
    .action(async (flagId: string) => {
      const flag = await ctx.client().call('getRiskFlag', { params: { flagId } });
      ctx.emit(flag, () => {
        const { facts: _facts, reviewedBy, ...rest } = flag;
        printRecord(
          ctx.io.stdout,
          {
            ...rest,
            facts: factsLine(flag),
            reviewedBy: reviewedBy ? (reviewedBy.email ?? reviewedBy.operatorId ?? 'bootstrap token') : null,
          },
          ctx.time,
        );
      });
    });

  risk
    .command('review <flagId> <outcome>')
    .description('close a flag: no_action (looked at, nothing to report) or reported (reported to the authority; it goes into the report)')
    .requiredOption('--note <note>', 'why: what was checked and, when reported, the report it went into (1 to 2000 characters)')
    .action(async (flagId: string, outcomeText: string, o: { note: string }) => {
      const outcome = outcomeArgument(outcomeText);
      const flag = await ctx.client().call('reviewRiskFlag', { params: { flagId }, body: { outcome, note: o.note } });
      ctx.emit(flag, () => ctx.io.stdout.write(`Flag ${flag.id} is CLOSED (${flag.outcome ?? outcome}).\n`));
    });

  risk
    .command('report')
    .description(
      "print the CSV of the flags reviewed as reported on the Istanbul days --from to --to (both included, at most 366 days); it holds senders' full IBANs: keep it out of logs",
    )
    .requiredOption('--from <day>', 'the first day, YYYY-MM-DD', dayOption)
    .requiredOption('--to <day>', 'the last day, YYYY-MM-DD', dayOption)
    .action(async (o: { from: string; to: string }) => {
      await printCsvFile(ctx, 'riskReport', { from: o.from, to: o.to });
    });
}
