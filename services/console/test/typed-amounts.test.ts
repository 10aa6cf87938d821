/**
 * One meaning for a typed amount: the same text typed into the console's approve field and given to
 * `kasa intents approve --amount` credits the same kuruş, and that is what the ops API stores when it is
 * sent the documented minor units. Text that could be read two ways is refused by both, changing nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { runCli } from '@kasa/cli';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

const RECEIVED = 500000; // 5.000,00 TRY arrived for every deposit below

async function depositWithMoney(): Promise<string> {
  const { h, site } = setup;
  const intent = await h.createDeposit(site, RECEIVED);
  expect((await h.transfer(intent.referenceNo, RECEIVED)).status).toBe(201);
  return intent.intentId;
}

async function kasa(args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: setup.h.ledger.url, KASA_TOKEN: setup.h.env.config.opsBootstrapToken },
  });
  return { code, stderr };
}

async function approveInConsole(intentId: string, typed: string): Promise<void> {
  const { page } = setup;
  await page.goto('/review');
  const row = page.locator(`tr[data-id="${intentId}"]`);
  await row.locator('input[name="amount"]').fill(typed);
  await row.getByRole('button', { name: 'Approve' }).click();
  await page.waitForLoadState('domcontentloaded');
}

const stored = async (intentId: string) => (await setup.h.ops('GET', `/intents/${intentId}`)).body as { status: string; amount: string };

describe('a typed amount means the same in the console, the CLI and the ops API', () => {
  it.each([
    ['1500', '150000'],
    ['1500.00', '150000'],
    ['1500,00', '150000'],
    ['1.500,00', '150000'],
    ['1,500.00', '150000'],
    ['₺1.500,00', '150000'],
    ['1 500,50', '150050'],
    ['12.5', '1250'],
    ['0,01', '1'],
    ['4.999,99', '499999'],
  ])('%j is %s kuruş everywhere', async (typed, minor) => {
    const { h, page } = setup;
    // Three deposits, one per way in, approved side by side: each approval touches its own deposit only.
    const [viaConsole, viaCli, viaApi] = await Promise.all([depositWithMoney(), depositWithMoney(), depositWithMoney()]);
    const [, cli, api] = await Promise.all([
      approveInConsole(viaConsole, typed),
      kasa(['intents', 'approve', viaCli, '--amount', typed]),
      h.ops('POST', `/intents/${viaApi}/approve`, { amount: minor }),
    ]);
    await expect(page.locator('.notice').count()).resolves.toBe(1);
    expect(cli.code).toBe(0);
    expect(api.status).toBe(200);

    for (const intentId of [viaConsole, viaCli, viaApi])
      expect(await stored(intentId)).toMatchObject({ status: 'APPROVED', amount: minor });
  });

  it.each(['1.500', '1,500', '1500,001', '-5', '0', '1e3', '1.50.000'])(
    '%j is refused by the console, the CLI and the ops API alike',
    async (typed) => {
      const { h, page } = setup;
      const intentId = await depositWithMoney();
      // All three are refused and change nothing, so they can be tried on the one deposit side by side.
      const [, cli, api] = await Promise.all([
        approveInConsole(intentId, typed),
        kasa(['intents', 'approve', intentId, '--amount', typed]),
        h.ops('POST', `/intents/${intentId}/approve`, { amount: typed }),
      ]);
      await expect(page.locator('.notice').count()).resolves.toBe(0);
      await expect(page.locator('section.error').textContent()).resolves.toContain('amount');
      expect(cli.code).toBe(2);
      expect(cli.stderr).toContain('amounts are lira');
      // The API takes kuruş digits only; lira text is a 400, never a guess.
      expect(api.status).toBe(400);
      expect(await stored(intentId)).toMatchObject({ status: 'PENDING_REVIEW', amount: String(RECEIVED) });
    },
  );
});
