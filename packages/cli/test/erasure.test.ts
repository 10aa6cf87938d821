/** `kasa erasure`: filing a KVKK erasure request, listing requests with their due date, and reading one. */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { captureKasa } from './capture-kasa.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();
beforeAll(async () => {
  await real.scenario.createReceivingAccount();
});

const kasa = (args: string[]) => captureKasa(args, { KASA_URL: real.ledger.url, KASA_TOKEN: real.env.config.opsBootstrapToken });

describe('kasa erasure', () => {
  it('files a request, lists it with its due date and shows what waits for which hold', async () => {
    const site = await real.scenario.createSite();
    const deposit = await real.scenario.createDeposit(site.siteId, 25000, { externalUserId: 'cli-user', externalUserLabel: 'Can Demir' });

    const filed = await kasa(['--json', 'erasure', 'request', '--site', site.siteId, '--user', 'cli-user', '--reason', 'Ticket 7']);
    expect(filed.stderr).toBe('');
    const request = JSON.parse(filed.stdout) as { erasureRequestId: string; status: string };
    // A deposit of today is inside its 8-year retention: the request is answered, the deposit waits.
    expect(request.status).toBe('ANSWERED');

    const listed = await kasa(['erasure', 'list', '--site', site.siteId]);
    expect(listed.stdout).toMatch(/ID\s+SITE\s+USER\s+STATUS\s+DUE\s+WAITING/);
    expect(listed.stdout).toContain(request.erasureRequestId);

    const shown = await kasa(['erasure', 'show', request.erasureRequestId]);
    expect(shown.stdout).toContain(`deposit ${deposit.intentId}`);
    expect(shown.stdout).toMatch(/retention/);
  });

  it('says which field is wrong and exits non-zero for an unknown site', async () => {
    const refused = await kasa(['erasure', 'request', '--site', '00000000-0000-4000-8000-000000000000', '--user', 'u', '--reason', 'x']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('siteId');
  });
});
