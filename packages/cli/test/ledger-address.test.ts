/**
 * Where kasa finds the ledger without KASA_URL (where `npm start` puts it: LEDGER_PORT at BIND_ADDRESS), and how
 * `sites create` prints a site: its amount bounds in lira, as every other command shows money.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, type TestEnvironment } from '@kasa/testkit';
import { runCli } from '../src/index.js';

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

async function kasa(args: string[], vars: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: { KASA_TOKEN: env.config.opsBootstrapToken, ...vars },
  });
  return { code, stdout, stderr };
}

const ledgerPort = () => new URL(ledger.url).port;

describe('the ledger kasa talks to', () => {
  it('is on LEDGER_PORT at 127.0.0.1 when KASA_URL is unset, as npm start places it', async () => {
    const run = await kasa(['--json', 'whoami'], { LEDGER_PORT: ledgerPort() });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toMatchObject({ role: 'ADMIN' });
  });

  it('is on 127.0.0.1 when BIND_ADDRESS listens on every interface, and at BIND_ADDRESS otherwise', async () => {
    expect((await kasa(['whoami'], { LEDGER_PORT: ledgerPort(), BIND_ADDRESS: '0.0.0.0' })).code).toBe(0);
    expect((await kasa(['whoami'], { LEDGER_PORT: ledgerPort(), BIND_ADDRESS: '127.0.0.1' })).code).toBe(0);
    // Nothing listens on this loopback address: the command fails rather than reaching another address.
    const elsewhere = await kasa(['whoami'], { LEDGER_PORT: ledgerPort(), BIND_ADDRESS: '127.0.0.2' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('127.0.0.2');
  });

  it('is KASA_URL when set, whatever LEDGER_PORT says', async () => {
    const run = await kasa(['whoami'], { KASA_URL: ledger.url, LEDGER_PORT: '1' });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const wrong = await kasa(['whoami'], { KASA_URL: 'http://127.0.0.1:1', LEDGER_PORT: ledgerPort() });
    expect(wrong.code).toBe(1);
  });
});

describe('kasa sites create', () => {
  it('prints the amount bounds in lira, and --json keeps the kuruş digits', async () => {
    const slug = `lira-${randomUUID().slice(0, 8)}`;
    const made = await kasa(['sites', 'create', slug, '--name', 'Lira', '--min-amount', '10,00', '--max-amount', '50.000,00'], {
      KASA_URL: ledger.url,
    });
    expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
    expect(made.stdout).toMatch(/^minAmount\s+10,00 TRY$/m);
    expect(made.stdout).toMatch(/^maxAmount\s+50\.000,00 TRY$/m);
    const siteId = /^siteId\s+(\S+)$/m.exec(made.stdout)![1]!;
    const shown = await kasa(['--json', 'sites', 'show', siteId], { KASA_URL: ledger.url });
    expect(JSON.parse(shown.stdout)).toMatchObject({ minAmount: '1000', maxAmount: '5000000' });
  });
});
