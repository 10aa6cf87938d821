/** `kasa withdrawals approve` and `kasa returns approve` under four-eyes, against a real ledger (PostgreSQL and Redis). */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, Scenario, type TestEnvironment } from '@kasa/testkit';
import { runCli } from '../src/index.js';

let env: TestEnvironment;
let ledger: LedgerService;
let scenario: Scenario;
beforeAll(async () => {
  env = await createTestEnvironment({ DUAL_APPROVAL_ABOVE_KURUS: '100000' });
  ledger = await startLedger(env.config, 0);
  scenario = new Scenario({ ledgerUrl: ledger.url, opsToken: env.config.opsBootstrapToken, internalToken: env.config.internalToken });
  await scenario.createReceivingAccount();
});
afterAll(async () => {
  await ledger?.stop();
  await env?.cleanup();
});

async function kasa(args: string[], token: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: ledger.url, KASA_TOKEN: token },
  });
  return { code, stdout, stderr };
}

describe('kasa approvals under four-eyes', () => {
  it('says 1 of 2 after the first approval, refuses the same operator with a hint, and names both approvers', async () => {
    const site = await scenario.createSite();
    await scenario.fund(site.siteId, 500000);
    const { withdrawalId } = await scenario.createWithdrawal(site.siteId, 200000);
    const ayse = await scenario.createOperator('REVIEWER');
    const mehmet = await scenario.createOperator('REVIEWER');
    const [ayseToken, mehmetToken] = [await scenario.login(ayse), await scenario.login(mehmet)];

    const first = await kasa(['withdrawals', 'approve', withdrawalId], ayseToken);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Withdrawal ${withdrawalId} is now PENDING_REVIEW`);
    expect(first.stdout).toContain(`Four-eyes: 1 of 2 approvals (${ayse.email}); a different operator must approve it too.`);

    const again = await kasa(['withdrawals', 'approve', withdrawalId], ayseToken);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('second_approver_required');
    expect(again.stderr).toContain('a different operator must approve it (four-eyes)');

    const second = await kasa(['withdrawals', 'approve', withdrawalId], mehmetToken);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('is now APPROVED');
    expect(second.stdout).toContain(`Approved by ${ayse.email}, ${mehmet.email}.`);
  });
});
