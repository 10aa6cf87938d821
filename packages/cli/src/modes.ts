import type { Context } from './context.js';

/**
 * How the CLI marks a sandbox's record (docs/sandbox.md, The boundary): its money is simulated, so every list and
 * detail shows TEST beside it, the same word the console's badge says.
 */
export const TEST_MARK = 'TEST';

/** The MODE cell of a record that carries its own mode (bank transfers, returns to senders). */
export const modeMark = (livemode: boolean): string => (livemode ? '' : TEST_MARK);

/** The line a detail starts with for a sandbox record; empty for a live one. */
export const testLine = (sandbox: boolean): string => (sandbox ? `${TEST_MARK}: a sandbox record; its money is simulated.\n` : '');

/**
 * The sandboxes among the sites the operator sees, for records that name only their site (deposits, withdrawals): the
 * balances list is the ops API's one-call directory of sites, each with its mode.
 */
export async function sandboxSiteIds(ctx: Context): Promise<ReadonlySet<string>> {
  const sites = await ctx.client().call('listBalances');
  return new Set(sites.data.filter((site) => !site.livemode).map((site) => site.siteId));
}
