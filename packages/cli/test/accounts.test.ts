/** `kasa accounts`: adding a receiving account with its bank account number and branch code, and changing them. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, makeTrIban, type TestEnvironment } from '@kasa/testkit';
import { captureKasa } from './capture-kasa.js';

let env: TestEnvironment;
let ledger: LedgerService;
beforeAll(async () => {
  env = await createTestEnvironment();
  ledger = await startLedger(env.config, 0);
});
afterAll(async () => {
  await ledger?.stop();
  await env?.cleanup();
});

const kasa = (args: string[]) => captureKasa(args, { KASA_URL: ledger.url, KASA_TOKEN: env.config.opsBootstrapToken });

describe('kasa accounts', () => {
  it('creates an account with its number and branch code, lists them, changes and removes them', async () => {
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const created = await kasa([
      '--json',
      'accounts',
      'create',
      '--bank',
      'Yapı Kredi',
      '--holder',
      'Kasa A.Ş.',
      '--iban',
      iban,
      '--account-number',
      '93984487',
      '--branch-code',
      '00763',
    ]);
    expect(created.stderr).toBe('');
    const account = JSON.parse(created.stdout) as { id: string };
    expect(account).toMatchObject({ iban, accountNumber: '93984487', branchCode: '00763' });

    const listed = await kasa(['accounts', 'list']);
    expect(listed.stdout).toMatch(/ACCOUNT NO\s+BRANCH/);
    expect(listed.stdout).toMatch(new RegExp(`${iban}\\s+93984487\\s+00763`));

    const changed = await kasa(['--json', 'accounts', 'update', account.id, '--account-number', '12345678', '--no-branch-code']);
    expect(JSON.parse(changed.stdout)).toMatchObject({ id: account.id, iban, accountNumber: '12345678', branchCode: null });
  });

  it('says which field is wrong and exits non-zero for a number that is not digits', async () => {
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const refused = await kasa([
      'accounts',
      'create',
      '--bank',
      'Ziraat',
      '--holder',
      'Kasa A.Ş.',
      '--iban',
      iban,
      '--account-number',
      '12-34',
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('accountNumber');
  });
});
