import { Option, type Command } from 'commander';
import type { OpsSite } from '@kasa/contracts';
import type { Context } from '../context.js';
import { parseAmount } from '../context.js';
import { formatAmount, printRecord } from '../output.js';

interface AutoApproveFlags {
  on?: boolean;
  off?: boolean;
  maxAmount?: string;
  senderMatch?: boolean;
}

/** The change the flags ask for (the ops API's `autoApprove` body), or null when they only ask to see the rule. */
function changeOf(site: OpsSite, o: AutoApproveFlags): OpsSite['autoApprove'] | null {
  if (o.on === undefined && o.off === undefined && o.maxAmount === undefined && o.senderMatch === undefined) return null;
  // The API needs `enabled` in every change: a change of the amount or the sender match alone keeps the rule on or off.
  const enabled = o.on === true ? true : o.off === true ? false : site.autoApprove.enabled;
  const maxAmount = o.maxAmount ?? site.autoApprove.maxAmount;
  // A site's rule starts at 0,00 TRY: on with that bound it would approve nothing while looking on.
  if (enabled && maxAmount === '0')
    throw new Error('give --max-amount with --on: this site has no maximum yet, so nothing would be approved straight through');
  return { enabled, maxAmount, requireSenderMatch: o.senderMatch ?? site.autoApprove.requireSenderMatch };
}

/** The rule as an operator reads it: on or off, the largest amount in lira, whether the sender must be the user. */
function printRule(ctx: Context, site: OpsSite): void {
  const rule = site.autoApprove;
  printRecord(
    ctx.io.stdout,
    {
      site: `${site.slug} (${site.siteId})`,
      'straight-through': rule.enabled ? 'on' : 'off',
      'max amount (TRY)': formatAmount(rule.maxAmount),
      'sender must match': rule.requireSenderMatch ? "yes: only from a sender named as the user's label" : 'no: from any sender',
    },
    ctx.time,
  );
  if (!rule.enabled) ctx.io.stdout.write('Deposits of this site wait for an operator (kasa intents approve).\n');
}

/**
 * `kasa sites auto-approve <siteId>`: a site's straight-through approval (docs/operations.md): with no flag it shows the
 * rule; with flags it changes what they name and keeps the rest (admin of every site; audited with before and after).
 */
export function registerAutoApproveCommand(sites: Command, ctx: Context): void {
  sites
    .command('auto-approve <siteId>')
    .description(
      "show or change a site's straight-through approval: deposits paid exactly, on time, up to a maximum, approved without an operator",
    )
    .addOption(new Option('--on', 'turn straight-through approval on').conflicts('off'))
    .addOption(new Option('--off', 'turn it off: every deposit waits for an operator'))
    .option('--max-amount <amount>', 'largest deposit approved straight through, in lira (TRY), e.g. 10000 or 10.000,00', parseAmount)
    .option('--sender-match', "approve only money from a sender named as the user's label (the default of a new site)")
    .option('--no-sender-match', 'approve money from any sender')
    .action(async (siteId: string, o: AutoApproveFlags) => {
      const client = ctx.client();
      const site = await client.call('getSite', { params: { siteId } });
      const change = changeOf(site, o);
      const shown = change ? await client.call('updateSite', { params: { siteId }, body: { autoApprove: change } }) : site;
      ctx.emit({ siteId: shown.siteId, ...shown.autoApprove }, () => printRule(ctx, shown));
    });
}
