/** `kasa sites auto-approve`: a site's straight-through approval, shown and changed against a real ledger. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { runCli } from '../src/index.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();

async function kasa(args: string[], token = real.env.config.opsBootstrapToken) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: token },
  });
  return { code, stdout, stderr };
}

/** The rule as the ops API stores it. */
async function ruleOf(siteId: string): Promise<unknown> {
  const site = await real.scenario.ops('GET', `/sites/${siteId}`);
  expect(site.status).toBe(200);
  return (site.body as { autoApprove: unknown }).autoApprove;
}

describe('kasa sites auto-approve', () => {
  it("shows a new site's rule as off, with nothing changed", async () => {
    const site = await real.scenario.createSite();
    const shown = await kasa(['sites', 'auto-approve', site.siteId]);
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^straight-through +off$/m);
    expect(shown.stdout).toMatch(/^max amount \(TRY\) +0,00$/m);
    expect(shown.stdout).toContain('Deposits of this site wait for an operator');
    const audit = await real.scenario.ops('GET', `/audit?entityId=${site.siteId}&action=SITE.SETTINGS_CHANGED`);
    expect((audit.body as { data: unknown[] }).data).toHaveLength(0);
  });

  it('turns the rule on with a maximum typed in lira, prints it in lira, and audits before and after', async () => {
    const site = await real.scenario.createSite();
    const on = await kasa(['sites', 'auto-approve', site.siteId, '--on', '--max-amount', '10.000,50', '--no-sender-match']);
    expect(on.stderr).toBe('');
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(/^straight-through +on$/m);
    expect(on.stdout).toMatch(/^max amount \(TRY\) +10\.000,50$/m);
    expect(on.stdout).toMatch(/^sender must match +no: from any sender$/m);
    expect(await ruleOf(site.siteId)).toEqual({ enabled: true, maxAmount: '1000050', requireSenderMatch: false });

    const audit = await real.scenario.ops('GET', `/audit?entityId=${site.siteId}&action=SITE.SETTINGS_CHANGED`);
    const [entry] = (audit.body as { data: Array<{ metadata: { before: unknown; after: unknown } }> }).data;
    expect(entry?.metadata.after).toMatchObject({ autoApproveEnabled: true, autoApproveMaxAmount: '1000050' });
  });

  it('changes only what a flag names and keeps the rest; --json answers kuruş digits', async () => {
    const site = await real.scenario.createSite();
    expect((await kasa(['sites', 'auto-approve', site.siteId, '--on', '--max-amount', '5000'])).code).toBe(0);

    const bound = await kasa(['--json', 'sites', 'auto-approve', site.siteId, '--max-amount', '2500,75']);
    expect(bound.code).toBe(0);
    expect(JSON.parse(bound.stdout)).toEqual({ siteId: site.siteId, enabled: true, maxAmount: '250075', requireSenderMatch: true });

    const off = await kasa(['--json', 'sites', 'auto-approve', site.siteId, '--off']);
    expect(JSON.parse(off.stdout)).toEqual({ siteId: site.siteId, enabled: false, maxAmount: '250075', requireSenderMatch: true });
    expect(await ruleOf(site.siteId)).toEqual({ enabled: false, maxAmount: '250075', requireSenderMatch: true });
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const site = await real.scenario.createSite();
    const before = await ruleOf(site.siteId);

    const noMaximum = await kasa(['sites', 'auto-approve', site.siteId, '--on']);
    expect(noMaximum.code).toBe(1);
    expect(noMaximum.stderr).toContain('give --max-amount with --on');

    const both = await kasa(['sites', 'auto-approve', site.siteId, '--on', '--off', '--max-amount', '100']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("option '--on' cannot be used with option '--off'");

    const ambiguous = await kasa(['sites', 'auto-approve', site.siteId, '--on', '--max-amount', '1.500']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain('can be read two ways');

    const zero = await kasa(['sites', 'auto-approve', site.siteId, '--on', '--max-amount', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain('must be more than zero');

    const unknown = await kasa(['sites', 'auto-approve', '00000000-0000-4000-8000-000000000000', '--off']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('kasa: ');

    expect(await ruleOf(site.siteId)).toEqual(before);
  });

  it('is the rule the ledger applies: a statement line paying a deposit up to the maximum is approved without an operator', async () => {
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const account = await real.scenario.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
    expect(account.status).toBe(201);
    const site = await real.scenario.createSite();
    expect((await kasa(['sites', 'auto-approve', site.siteId, '--on', '--max-amount', '2.000,00', '--no-sender-match'])).code).toBe(0);
    const within = await real.scenario.createDeposit(site.siteId, '150000');
    const above = await real.scenario.createDeposit(site.siteId, '250000');

    // One statement of today paying both deposits exactly, on time (Kasa's CSV statement layout, docs/statements.md).
    const now = new Date().toISOString();
    const statementId = `ST-${randomUUID().slice(0, 8)}`;
    const row = (bookedAt: string, direction: string, amount: string, txId = '', name = '', description = '') =>
      [iban, statementId, bookedAt, direction, amount, 'TRY', txId, name, '', description, '', ''].join(',');
    const file = [
      'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
      row(now.slice(0, 10), 'opening', '0.00'),
      row(now, 'credit', '1500.00', `TX-${randomUUID()}`, 'AYŞE YILMAZ', `HAVALE ${within.referenceNo}`),
      row(now, 'credit', '2500.00', `TX-${randomUUID()}`, 'AYŞE YILMAZ', `HAVALE ${above.referenceNo}`),
      row(now.slice(0, 10), 'closing', '4000.00'),
    ].join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'kasa-auto-approve-'));
    try {
      writeFileSync(join(dir, 'today.csv'), file);
      const imported = await kasa([
        '--json',
        'statements',
        'import',
        join(dir, 'today.csv'),
        '--account',
        (account.body as { id: string }).id,
      ]);
      expect(imported.stderr).toBe('');
      expect(JSON.parse(imported.stdout)).toMatchObject({ matched: 2, autoApproved: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect((await real.scenario.ops('GET', `/intents/${within.intentId}`)).body).toMatchObject({ status: 'APPROVED' });
    expect((await real.scenario.ops('GET', `/intents/${above.intentId}`)).body).toMatchObject({ status: 'PENDING_REVIEW' });
  });

  it('lets a reviewer see the rule but not change it', async () => {
    const site = await real.scenario.createSite();
    const token = await real.scenario.login(await real.scenario.createOperator('REVIEWER'));
    expect((await kasa(['sites', 'auto-approve', site.siteId], token)).code).toBe(0);
    const refused = await kasa(['sites', 'auto-approve', site.siteId, '--on', '--max-amount', '100'], token);
    expect(refused.code).toBe(1);
    expect(await ruleOf(site.siteId)).toMatchObject({ enabled: false });
  });
});
