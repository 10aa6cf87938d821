/**
 * `kasa adjustments`: one admin proposes a correction of a site's balance, a second applies or rejects it, against a real
 * ledger (PostgreSQL and Redis); the proposer's own apply and malformed proposals are refused.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../src/index.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();

interface Admin {
  email: string;
  token: string;
}
let ayse: Admin;
let mehmet: Admin;
beforeAll(async () => {
  await real.scenario.createReceivingAccount();
  // Both made by the bootstrap token, which is no person: neither is tied to the other, so each may decide the other's.
  const admin = async (): Promise<Admin> => {
    const operator = await real.scenario.createOperator('ADMIN');
    return { email: operator.email, token: await real.scenario.login(operator) };
  };
  [ayse, mehmet] = [await admin(), await admin()];
});

/** Runs kasa as `as` and counts the requests it sends, so a refusal can be shown to have sent none. */
async function kasa(args: string[], as: Admin) {
  let stdout = '';
  let stderr = '';
  let requests = 0;
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: as.token },
    fetch: (input, init) => ((requests += 1), fetch(input, init)),
  });
  return { code, stdout, stderr, requests };
}

const idOf = (stdout: string): string => {
  const id = /^Adjustment (\S+) /.exec(stdout)?.[1];
  if (!id) throw new Error(`no adjustment id in: ${stdout}`);
  return id;
};

describe('kasa adjustments', () => {
  it('proposes a credit in lira, lists and shows it, and a second admin applies it to the balance', async () => {
    const { siteId } = await real.scenario.createSite();
    const proposed = await kasa(
      ['adjustments', 'propose', '--site', siteId, '--direction', 'credit', '--amount', '1.500,00', '--reason', 'Fee charged twice'],
      ayse,
    );
    expect(proposed.stderr).toBe('');
    expect(proposed.code).toBe(0);
    const id = idOf(proposed.stdout);
    expect(proposed.stdout).toMatch(
      new RegExp(`^Adjustment ${id} \\(KA\\w{8}\\) is PENDING_REVIEW: credit of 1\\.500,00 TRY to site ${siteId}\\.\\n`),
    );
    expect(proposed.stdout).toContain(`Proposed by ${ayse.email}; a second admin applies it with kasa adjustments apply ${id}`);

    const listed = await kasa(['adjustments', 'list', '--site', siteId, '--status', 'PENDING_REVIEW', '--order', 'oldest'], mehmet);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toMatch(
      /^ADJUSTMENT\s+REFERENCE\s+SITE\s+STATUS\s+DIRECTION\s+AMOUNT \(TRY\)\s+REASON\s+PROPOSED BY\s+CREATED\s+MODE\n/,
    );
    expect(listed.stdout).toMatch(
      new RegExp(`${id}\\s+KA\\w{8}\\s+${siteId}\\s+PENDING_REVIEW\\s+credit\\s+1\\.500,00\\s+Fee charged twice\\s+${ayse.email}`),
    );
    const json = await kasa(['--json', 'adjustments', 'list', '--site', siteId], mehmet);
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ adjustmentId: id, amount: '150000', direction: 'credit' })]);

    const shown = await kasa(['adjustments', 'show', id], mehmet);
    expect(shown.stdout).toMatch(/amount\s+1\.500,00\n/);
    expect(shown.stdout).toMatch(/status\s+PENDING_REVIEW\n/);
    expect(shown.stdout).toMatch(/reason\s+Fee charged twice\n/);

    const applied = await kasa(['adjustments', 'apply', id], mehmet);
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      new RegExp(`^Adjustment ${id} \\(KA\\w{8}\\) is now APPLIED: credit of 1\\.500,00 TRY to site ${siteId}\\.\\n`),
    );
    expect(applied.stdout).toContain(`Proposed by ${ayse.email}, applied by ${mehmet.email}.`);
    const balance = await kasa(['--json', 'balances', '--site', siteId], mehmet);
    expect(JSON.parse(balance.stdout)).toEqual([expect.objectContaining({ siteId, available: '150000', adjustedTotal: '150000' })]);
    expect((await kasa(['balances', '--site', siteId], mehmet)).stdout).toMatch(/ADJUSTED \(TRY\)\n.*1\.500,00\s*$/m);
    expect(JSON.parse((await kasa(['--json', 'adjustments', 'show', id], ayse)).stdout)).toMatchObject({ status: 'APPLIED' });
  });

  it("refuses the proposer's own apply with the problem's detail and exit code 1, and leaves it in review", async () => {
    const { siteId } = await real.scenario.createSite();
    const id = idOf(
      (await kasa(['adjustments', 'propose', '--site', siteId, '--direction', 'credit', '--amount', '70', '--reason', 'Goodwill'], ayse))
        .stdout,
    );

    const own = await kasa(['adjustments', 'apply', id], ayse);
    expect(own.code).toBe(1);
    expect(own.stdout).toBe('');
    expect(own.stderr).toContain('409 conflict (second_approver_required)');
    expect(own.stderr).toContain('You proposed this balance adjustment');
    expect(own.stderr).toContain('kasa: next: you gave the first approval or proposed it');
    const asJson = await kasa(['--json', 'adjustments', 'approve', id], ayse);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout).error).toMatchObject({ status: 409, reason: 'second_approver_required' });

    const shown = await kasa(['adjustments', 'show', id], ayse);
    expect(shown.stdout).toMatch(/status\s+PENDING_REVIEW\n/);
    expect(shown.stdout).toMatch(/decidedByOperatorId\s+\n/);
  });

  it('refuses a debit past the available balance, and a rejection posts nothing', async () => {
    const { siteId } = await real.scenario.createSite();
    await real.scenario.fund(siteId, 10000);
    const proposed = await kasa(
      ['--json', 'adjustments', 'propose', '--site', siteId, '--direction', 'debit', '--amount', '100,01', '--reason', 'Fee for November'],
      ayse,
    );
    const { adjustmentId: id, referenceNo } = JSON.parse(proposed.stdout) as { adjustmentId: string; referenceNo: string };

    const short = await kasa(['adjustments', 'apply', id], mehmet);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('insufficient_balance');
    expect(short.stderr).toContain("kasa: next: the site's available balance");

    const rejected = await kasa(['adjustments', 'reject', id, '--reason', 'The fee is 100 lira'], mehmet);
    expect(rejected.stderr).toBe('');
    expect(rejected.code).toBe(0);
    expect(rejected.stdout).toBe(
      `Adjustment ${id} (${referenceNo}) is now REJECTED: ` +
        `debit of 100,01 TRY from site ${siteId}.\nProposed by ${ayse.email}, rejected by ${mehmet.email}: The fee is 100 lira\n`,
    );
    const listed = await kasa(['adjustments', 'list', '--site', siteId, '--status', 'REJECTED'], ayse);
    expect(listed.stdout).toMatch(new RegExp(`${id}\\s+\\S+\\s+${siteId}\\s+REJECTED\\s+debit\\s+100,01`));
    expect((await kasa(['adjustments', 'list', '--site', siteId, '--status', 'APPLIED'], ayse)).stdout).toBe('(none)\n');
    const balance = await kasa(['--json', 'balances', '--site', siteId], ayse);
    expect(JSON.parse(balance.stdout)).toEqual([expect.objectContaining({ available: '10000' })]);
  });

  it("marks a sandbox's adjustment TEST in the list and the detail, and a live one not", async () => {
    const { siteId: live } = await real.scenario.createSite();
    const issued = await kasa(['--json', 'keys', 'issue', live, '--test'], ayse);
    const twin = (JSON.parse(issued.stdout) as { siteId: string }).siteId;
    const propose = async (siteId: string) =>
      idOf(
        (await kasa(['adjustments', 'propose', '--site', siteId, '--direction', 'credit', '--amount', '5', '--reason', 'Trial'], ayse))
          .stdout,
      );
    const [testId, liveId] = [await propose(twin), await propose(live)];

    const rowOf = async (siteId: string, id: string) =>
      (await kasa(['adjustments', 'list', '--site', siteId], mehmet)).stdout.split('\n').find((line) => line.includes(id));
    expect(await rowOf(twin, testId)).toMatch(/TEST$/);
    expect(await rowOf(live, liveId)).not.toContain('TEST');
    expect((await kasa(['adjustments', 'show', testId], mehmet)).stdout).toMatch(/^TEST: a sandbox record/);
    expect((await kasa(['adjustments', 'show', liveId], mehmet)).stdout).toMatch(/^adjustmentId\s/);
  });

  it('refuses a zero or negative amount, two directions, no direction, no amount and no reason before any request', async () => {
    const siteId = randomUUID();
    const propose = (...flags: string[]) => kasa(['adjustments', 'propose', '--site', siteId, ...flags], ayse);
    const cases: Array<[string[], string]> = [
      [['--direction', 'credit', '--amount', '0', '--reason', 'zero'], `option '--amount <amount>' argument '0' is invalid`],
      [['--direction', 'debit', '--amount', '-5', '--reason', 'negative'], `option '--amount <amount>' argument '-5' is invalid`],
      [['--direction', 'credit', '--amount', '1.500', '--reason', 'two readings'], 'amounts are lira'],
      [
        ['--direction', 'credit,debit', '--amount', '10', '--reason', 'both'],
        `option '--direction <direction>' argument 'credit,debit' is invalid. Allowed choices are credit, debit.`,
      ],
      [['--amount', '10', '--reason', 'no direction'], `required option '--direction <direction>' not specified`],
      [['--direction', 'credit', '--reason', 'no amount'], `required option '--amount <amount>' not specified`],
      [['--direction', 'credit', '--amount', '10'], `required option '--reason <reason>' not specified`],
      [
        ['--direction', 'credit', '--amount', '10', '--reason', '   '],
        `option '--reason <reason>' argument '   ' is invalid. must not be blank`,
      ],
    ];
    for (const [flags, message] of cases) {
      const refused = await propose(...flags);
      expect({ flags, code: refused.code, requests: refused.requests, stdout: refused.stdout }).toEqual({
        flags,
        code: 2,
        requests: 0,
        stdout: '',
      });
      expect(refused.stderr).toContain(message);
    }
    const noReason = await kasa(['adjustments', 'reject', randomUUID()], mehmet);
    expect([noReason.code, noReason.requests]).toEqual([2, 0]);
    expect(noReason.stderr).toContain(`required option '--reason <reason>' not specified`);
  });
});
