/** `kasa risk`: the review queue, one flag, its review and the report for the authority, against a real ledger. */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, makeTrIban } from '@kasa/testkit';
import { captureKasa } from './capture-kasa.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger({ RISK_INTERVAL_MS: '200' });
beforeAll(async () => {
  await real.scenario.createReceivingAccount();
});

const kasa = (args: string[]) => captureKasa(args, { KASA_URL: real.ledger.url, KASA_TOKEN: real.env.config.opsBootstrapToken });

describe('kasa risk', () => {
  it('lists a flag, shows it, reviews it as reported once, and prints it in the report with the full IBAN', async () => {
    const site = await real.scenario.createSite();
    const iban = makeTrIban(987_654);
    const deposit = await real.scenario.createDeposit(site.siteId, 12_345, { externalUserId: 'cli-risk', externalUserLabel: 'Can Demir' });
    expect((await real.scenario.transfer(deposit.referenceNo, 12_345, { senderName: 'Derya Yıldız', senderIban: iban })).status).toBe(201);
    const flag = await eventually(
      async () => {
        const listed = await real.scenario.ops('GET', `/risk-flags?siteId=${site.siteId}&rule=name_mismatch`);
        return (listed.body.data as Array<{ id: string; subjectId: string }>).find((found) => found.subjectId === deposit.intentId);
      },
      15_000,
      "the risk worker's name_mismatch flag",
    );

    const listed = await kasa(['risk', 'list', '--rule', 'name_mismatch', '--site', site.siteId]);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/FLAG\s+RULE\s+STATUS\s+DUE\s+SUBJECT\s+USER\s+FACTS/);
    const line = listed.stdout.split('\n').find((row) => row.startsWith(flag.id));
    expect(line).toMatch(new RegExp(`name_mismatch\\s+OPEN\\s+.*deposit ${deposit.intentId}\\s+cli-risk\\s+.*senderName=Derya Yıldız`));
    expect(line).toContain('userName=Can Demir');
    expect((await kasa(['risk', 'list', '--rule', 'velocity', '--site', site.siteId])).stdout).toBe('(none)\n');
    expect((await kasa(['risk', 'list', '--rule', 'nonsense'])).code).toBe(2);

    const shown = await kasa(['risk', 'show', flag.id]);
    expect(shown.stdout).toMatch(/rule\s+name_mismatch\n/);
    expect(shown.stdout).toMatch(/reviewedBy\s+\n/);
    expect(shown.stdout).not.toContain(iban);
    const json = JSON.parse((await kasa(['--json', 'risk', 'show', flag.id])).stdout) as { status: string; facts: Record<string, unknown> };
    expect(json.status).toBe('OPEN');
    expect(json.facts.senderName).toBe('Derya Yıldız');
    expect((await kasa(['risk', 'show', '00000000-0000-4000-8000-000000000000'])).code).toBe(1);

    const wrongOutcome = await kasa(['risk', 'review', flag.id, 'maybe', '--note', 'looked']);
    expect(wrongOutcome.code).toBe(2);
    expect(JSON.parse((await kasa(['--json', 'risk', 'show', flag.id])).stdout).status).toBe('OPEN');

    const reviewed = await kasa(['risk', 'review', flag.id, 'reported', '--note', 'STR 2026/7 filed']);
    expect(reviewed.stderr).toBe('');
    expect(reviewed.stdout).toBe(`Flag ${flag.id} is CLOSED (reported).\n`);
    const twice = await kasa(['risk', 'review', flag.id, 'no_action', '--note', 'again']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/^kasa: /);
    expect((await kasa(['risk', 'list', '--status', 'closed', '--site', site.siteId])).stdout).toMatch(
      new RegExp(`${flag.id}\\s+name_mismatch\\s+CLOSED reported`),
    );

    // The day in Istanbul (UTC+3), as the report reads its period.
    const day = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
    const report = await kasa(['risk', 'report', '--from', day, '--to', day]);
    expect(report.stderr).toBe('');
    const [header, ...rows] = report.stdout.trimEnd().split('\r\n');
    expect(header).toMatch(/^flag_id,rule,/);
    const row = rows.find((found) => found.startsWith(flag.id));
    expect(row).toContain(`,cli-risk,deposit,${deposit.intentId},${deposit.referenceNo},123.45,TRY,Derya Yıldız,${iban},STR 2026/7 filed`);

    const notADay = await kasa(['risk', 'report', '--from', '2026-02-30', '--to', '2026-03-01']);
    expect(notADay.code).toBe(1);
    expect(notADay.stdout).toBe('');
    expect((await kasa(['risk', 'report', '--from', 'yesterday', '--to', day])).code).toBe(2);
  });
});
