/** `kasa withdrawals approve` and `kasa returns approve` under four-eyes, against a real ledger (PostgreSQL and Redis). */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../src/index.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger({ DUAL_APPROVAL_ABOVE_KURUS: '100000' });
beforeAll(async () => {
  await real.scenario.createReceivingAccount();
});

async function kasa(args: string[], token: string) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: token },
  });
  return { code, stdout, stderr };
}

describe('kasa approvals under four-eyes', () => {
  it('says 1 of 2 after the first approval, refuses the same operator with a hint, and names both approvers', async () => {
    const site = await real.scenario.createSite();
    await real.scenario.fund(site.siteId, 500000);
    const { withdrawalId } = await real.scenario.createWithdrawal(site.siteId, 200000);
    const ayse = await real.scenario.createOperator('REVIEWER');
    const mehmet = await real.scenario.createOperator('REVIEWER');
    const [ayseToken, mehmetToken] = [await real.scenario.login(ayse), await real.scenario.login(mehmet)];

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
