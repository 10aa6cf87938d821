import type { Command } from 'commander';
import { TEST_WEBHOOK_TYPES, type OperatorRole, type OpsSite } from '@kasa/contracts';
import { OpsApiError } from '@kasa/ops-client';
import type { Context } from '../context.js';
import { parseAmount } from '../context.js';
import { formatAmount, printRecord, printTable } from '../output.js';
import { registerAutoApproveCommand } from './auto-approve.command.js';

const ROLES: readonly OperatorRole[] = ['ADMIN', 'REVIEWER', 'CONNECTOR'];

/** `--role reviewer` -> `REVIEWER` (also admin, connector); anything else is refused before a request is sent. */
function roleOf(text: string): OperatorRole {
  const role = ROLES.find((known) => known === text.toUpperCase());
  if (!role) throw new Error('--role must be reviewer, admin or connector');
  return role;
}

/** `--sites id,id` as a scope (live site ids); `all` is every site (an empty scope). */
function sitesOf(text: string): string[] {
  if (text.trim().toLowerCase() === 'all') return [];
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) throw new Error('--sites must be site ids separated by commas, or all');
  return ids;
}

/**
 * Logs in; when the ledger answers 401 `otp_required` and no code was given, asks for it on the terminal (or
 * says to pass --code), then logs in again with it.
 */
async function loginWithCode(ctx: Context, credentials: { email: string; password: string }, code: string | undefined) {
  if (code) return ctx.client().login({ ...credentials, code });
  try {
    return await ctx.client().login(credentials);
  } catch (error) {
    if (!(error instanceof OpsApiError) || error.reason !== 'otp_required') throw error;
    if (!ctx.io.prompt) throw new Error('this account has a second factor: give --code (or set KASA_OTP_CODE)');
    const typed = (await ctx.io.prompt('Code from your authenticator app (or a recovery code): ')).trim();
    if (!typed) throw new Error('no code entered');
    return ctx.client().login({ ...credentials, code: typed });
  }
}

/** Login, operators and their tokens, sites and API keys. */
export function registerAdminCommands(program: Command, ctx: Context): void {
  program
    .command('login')
    .description('log in with e-mail and password (or KASA_PASSWORD), and the second-factor code if asked, and print an operator token')
    .requiredOption('--email <email>', 'operator e-mail')
    .option('--password <password>', 'password; prefer KASA_PASSWORD so it stays out of shell history')
    .option('--code <code>', 'second-factor code (or a recovery code); asked for on a terminal when the account has one')
    .action(async (options: { email: string; password?: string; code?: string }) => {
      const password = options.password ?? ctx.io.env.KASA_PASSWORD;
      if (!password) throw new Error('give --password or set KASA_PASSWORD');
      const session = await loginWithCode(ctx, { email: options.email, password }, options.code ?? ctx.io.env.KASA_OTP_CODE);
      ctx.emit(session, () => {
        ctx.io.stdout.write(`Logged in as ${session.operator.email} (${session.operator.role}) until ${ctx.time(session.expiresAt)}.\n`);
        ctx.io.stdout.write(`export KASA_TOKEN=${session.token}\n`);
      });
    });

  program
    .command('whoami')
    .description('show the operator behind the token')
    .action(async () => {
      const me = await ctx.client().call('whoAmI');
      ctx.emit(me, () => printRecord(ctx.io.stdout, me, ctx.time));
    });

  const operators = program.command('operators').description('operator accounts (admin)');
  operators
    .command('create')
    .description('create an operator account')
    .requiredOption('--email <email>')
    .requiredOption('--name <name>')
    .requiredOption('--role <role>', 'reviewer, admin or connector (a bank connector: token only, may only post lines)')
    .option('--password <password>', 'console password (at least 12 characters); omit for a token-only account')
    .option('--sites <ids>', 'limit the operator to these live sites (ids separated by commas); default: every site')
    .action(async (options: { email: string; name: string; role: string; password?: string; sites?: string }) => {
      const created = await ctx.client().call('createOperator', {
        body: {
          email: options.email,
          name: options.name,
          role: roleOf(options.role),
          ...(options.sites !== undefined ? { siteIds: sitesOf(options.sites) } : {}),
          // An empty --password (an unset variable in `--password "$PW"`) is sent as is and refused (at least
          // 12 characters), never taken for "no password": only leaving the option out makes a token-only account.
          ...(options.password !== undefined ? { password: options.password } : {}),
        },
      });
      ctx.emit(created, () => printRecord(ctx.io.stdout, { ...created }, ctx.time));
    });
  operators
    .command('list')
    .description('list operator accounts')
    .action(async () => {
      const { data } = await ctx.client().call('listOperators');
      ctx.emit(data, () =>
        printTable(ctx.io.stdout, data, [
          ['OPERATOR', (o) => o.operatorId],
          ['EMAIL', (o) => o.email],
          ['ROLE', (o) => o.role],
          ['SITES', (o) => (o.siteIds.length === 0 ? 'all' : o.siteIds.join(','))],
          ['DISABLED', (o) => ctx.time(o.disabledAt)],
        ]),
      );
    });
  operators
    .command('scope <operatorId>')
    .description("limit an operator to some sites, or to all again (from the operator's next request on)")
    .requiredOption('--sites <ids|all>', 'live site ids separated by commas (their test twins follow), or all')
    .action(async (operatorId: string, options: { sites: string }) => {
      const changed = await ctx.client().call('setOperatorScope', { params: { operatorId }, body: { siteIds: sitesOf(options.sites) } });
      ctx.emit(changed, () =>
        ctx.io.stdout.write(
          `${changed.email} may now act on ${changed.siteIds.length === 0 ? 'every site' : `sites ${changed.siteIds.join(', ')}`}.
`,
        ),
      );
    });
  operators
    .command('disable <operatorId>')
    .description('disable an operator and revoke all their tokens')
    .action(async (operatorId: string) => {
      const disabled = await ctx.client().call('disableOperator', { params: { operatorId } });
      ctx.emit(disabled, () => ctx.io.stdout.write(`Disabled ${disabled.email} at ${ctx.time(disabled.disabledAt)}.\n`));
    });

  const tokens = program.command('tokens').description('operator API tokens for scripts');
  tokens
    .command('issue')
    .description('issue a token (shown once); for yourself unless --operator is given (admin)')
    .option('--operator <operatorId>')
    .option('--label <label>', 'what the token is for', 'kasa cli')
    .option('--expires-in <seconds>', 'lifetime in seconds; default: until revoked', (v) => Number(v))
    .action(async (options: { operator?: string; label: string; expiresIn?: number }) => {
      const client = ctx.client();
      const operatorId = options.operator ?? (await client.call('whoAmI')).operatorId;
      const issued = await client.call('issueOperatorToken', {
        params: { operatorId },
        body: { label: options.label, ...(options.expiresIn ? { expiresInSeconds: options.expiresIn } : {}) },
      });
      ctx.emit(issued, () => {
        ctx.io.stdout.write(
          `Token ${issued.tokenId} (expires ${issued.expiresAt ? ctx.time(issued.expiresAt) : 'never'}); it is shown only now:\n${issued.token}\n`,
        );
      });
    });
  tokens
    .command('revoke <tokenId>')
    .description('revoke an operator token (401 from its next request on)')
    .action(async (tokenId: string) => {
      const revoked = await ctx.client().call('revokeOperatorToken', { params: { tokenId } });
      ctx.emit(revoked, () => ctx.io.stdout.write(`Revoked ${revoked.tokenId} at ${ctx.time(revoked.revokedAt)}.\n`));
    });

  /** A site as people read it: the amount bounds in lira, as the flags take them and `sites list` shows them. */
  const shownSite = (site: OpsSite) => ({
    ...site,
    minAmount: `${formatAmount(site.minAmount)} TRY`,
    maxAmount: `${formatAmount(site.maxAmount)} TRY`,
  });
  const sites = program.command('sites').description('partner sites (admin)');
  sites
    .command('create <slug>')
    .description('create a site')
    .requiredOption('--name <name>')
    .option('--webhook-url <url>', 'https:// endpoint for webhooks')
    .option('--rate-limit <perMinute>', 'requests per minute per API key', (v) => Number(v))
    .option('--deposit-ttl <seconds>', 'how long a deposit intent waits for money', (v) => Number(v))
    .option('--min-amount <amount>', 'smallest amount in lira (TRY), e.g. 10 or 10,00', parseAmount)
    .option('--max-amount <amount>', 'largest amount in lira (TRY), e.g. 50000 or 50.000,00', parseAmount)
    .option('--return-url <url>', 'https:// page the deposit page links back to when a deposit names none')
    .action(
      async (
        slug: string,
        o: {
          name: string;
          webhookUrl?: string;
          rateLimit?: number;
          depositTtl?: number;
          minAmount?: string;
          maxAmount?: string;
          returnUrl?: string;
        },
      ) => {
        const site = await ctx.client().call('createSite', {
          body: {
            slug,
            name: o.name,
            ...(o.webhookUrl ? { webhookUrl: o.webhookUrl } : {}),
            ...(o.rateLimit ? { rateLimitPerMinute: o.rateLimit } : {}),
            ...(o.depositTtl ? { depositTtlSeconds: o.depositTtl } : {}),
            ...(o.minAmount ? { minAmount: o.minAmount } : {}),
            ...(o.maxAmount ? { maxAmount: o.maxAmount } : {}),
            ...(o.returnUrl ? { returnUrl: o.returnUrl } : {}),
          },
        });
        ctx.emit(site, () => printRecord(ctx.io.stdout, shownSite(site), ctx.time));
      },
    );

  sites
    .command('list')
    .description('every site with its settings')
    .option('--limit <n>', 'most rows to show', (v) => Number(v), 500)
    .action(async (o: { limit: number }) => {
      const rows: OpsSite[] = [];
      for await (const row of ctx.client().paginate('listSites', {}, o.limit)) rows.push(row);
      ctx.emit(rows, () =>
        printTable(ctx.io.stdout, rows, [
          ['SITE', (s) => s.siteId],
          ['SLUG', (s) => s.slug],
          ['NAME', (s) => s.name],
          ['RATE/MIN', (s) => s.rateLimitPerMinute],
          ['MIN (TRY)', (s) => formatAmount(s.minAmount)],
          ['MAX (TRY)', (s) => formatAmount(s.maxAmount)],
          ['DEPOSIT TTL (S)', (s) => s.depositTtlSeconds],
          ['WEBHOOK URL', (s) => s.webhookUrl ?? ''],
        ]),
      );
    });
  sites
    .command('show <siteId>')
    .description("one site's settings")
    .action(async (siteId: string) => {
      const site = await ctx.client().call('getSite', { params: { siteId } });
      ctx.emit(site, () => printRecord(ctx.io.stdout, shownSite(site), ctx.time));
    });

  sites
    .command('update <siteId>')
    .description("change a site's settings (admin; audited with before and after)")
    .option('--name <name>')
    .option('--webhook-url <url>', 'https:// endpoint for webhooks (a site without one gets a signing secret, shown once)')
    .option('--rate-limit <perMinute>', 'requests per minute per API key; the gateway applies it from its next request', (v) => Number(v))
    .option('--deposit-ttl <seconds>', 'how long a deposit intent waits for money', (v) => Number(v))
    .option('--min-amount <amount>', 'smallest amount in lira (TRY)', parseAmount)
    .option('--max-amount <amount>', 'largest amount in lira (TRY)', parseAmount)
    .option('--return-url <url>', "the deposit page's way back when a deposit names none")
    .option('--no-return-url', 'remove the return URL')
    .action(
      async (
        siteId: string,
        o: {
          name?: string;
          webhookUrl?: string;
          rateLimit?: number;
          depositTtl?: number;
          minAmount?: string;
          maxAmount?: string;
          returnUrl?: string | false;
        },
      ) => {
        const change = {
          ...(o.name !== undefined ? { name: o.name } : {}),
          ...(o.webhookUrl !== undefined ? { webhookUrl: o.webhookUrl } : {}),
          ...(o.rateLimit !== undefined ? { rateLimitPerMinute: o.rateLimit } : {}),
          ...(o.depositTtl !== undefined ? { depositTtlSeconds: o.depositTtl } : {}),
          ...(o.minAmount !== undefined ? { minAmount: o.minAmount } : {}),
          ...(o.maxAmount !== undefined ? { maxAmount: o.maxAmount } : {}),
          ...(o.returnUrl === false ? { returnUrl: null } : o.returnUrl !== undefined ? { returnUrl: o.returnUrl } : {}),
        };
        const site = await ctx.client().call('updateSite', { params: { siteId }, body: change });
        ctx.emit(site, () => printRecord(ctx.io.stdout, shownSite(site), ctx.time));
      },
    );

  registerAutoApproveCommand(sites, ctx);

  sites
    .command('test-webhook <siteId>')
    .description("send a signed test webhook (test: true) to the site's webhook URL now and show the answer; exit 1 if not delivered")
    .option('--type <type>', `what to send: ${TEST_WEBHOOK_TYPES.join(', ')}`, 'ping')
    .action(async (siteId: string, o: { type: string }) => {
      const type = TEST_WEBHOOK_TYPES.find((known) => known === o.type);
      if (!type) throw new Error(`--type must be one of ${TEST_WEBHOOK_TYPES.join(', ')}`);
      const result = await ctx.client().call('testSiteWebhook', { params: { siteId }, body: { type } });
      if (!result.delivered) ctx.exitCode = 1;
      ctx.emit(result, () => printRecord(ctx.io.stdout, { type, ...result }, ctx.time));
    });

  const keys = program.command('keys').description('partner API keys (admin)');
  keys
    .command('list <siteId>')
    .description("a site's API keys (prefixes only; a key is shown once, when issued)")
    .action(async (siteId: string) => {
      const list = await ctx.client().call('listApiKeys', { params: { siteId } });
      ctx.emit(list.data, () =>
        printTable(ctx.io.stdout, list.data, [
          ['KEY', (k) => k.apiKeyId],
          ['PREFIX', (k) => k.keyPrefix],
          ['ISSUED', (k) => ctx.time(k.createdAt)],
          ['REVOKED', (k) => ctx.time(k.revokedAt)],
        ]),
      );
    });
  keys
    .command('issue <siteId>')
    .description("issue an API key for a site (shown once); --test: a key of the site's sandbox")
    .option('--test', "a test key (sk_test_): the site's sandbox, simulated money only")
    .action(async (siteId: string, o: { test?: boolean }) => {
      const key = await ctx.client().call('issueApiKey', { params: { siteId }, body: { mode: o.test ? 'test' : 'live' } });
      ctx.emit(key, () =>
        ctx.io.stdout.write(
          `${key.mode === 'test' ? 'Test' : 'API'} key ${key.apiKeyId}${key.mode === 'test' ? ` (sandbox site ${key.siteId})` : ''}; it is shown only now:\n${key.apiKey}\n`,
        ),
      );
    });
  keys
    .command('revoke <apiKeyId>')
    .description('revoke an API key (401 from its next request on)')
    .action(async (apiKeyId: string) => {
      const revoked = await ctx.client().call('revokeApiKey', { params: { apiKeyId } });
      ctx.emit(revoked, () => ctx.io.stdout.write(`Revoked ${revoked.apiKeyId} at ${ctx.time(revoked.revokedAt)}.\n`));
    });
}
