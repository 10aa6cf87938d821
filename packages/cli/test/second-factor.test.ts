/** `kasa 2fa` and `kasa login` with a second factor, against a real ledger (PostgreSQL and Redis). */
import { describe, expect, it } from '@jest/globals';
import { totpCode } from '@kasa/testkit';
import { runCli } from '../src/index.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();

async function kasa(args: string[], options: { token: string; env?: Record<string, string>; prompt?: (q: string) => Promise<string> }) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: options.token, ...options.env },
    ...(options.prompt ? { prompt: options.prompt } : {}),
  });
  return { code, stdout, stderr };
}

describe('kasa 2fa and kasa login with a code', () => {
  it('enrolls, then asks for the code at login (prompt or --code) and refuses without one off a terminal', async () => {
    const operator = await real.scenario.createOperator('REVIEWER');
    const token = await real.scenario.login(operator);
    const env = { KASA_PASSWORD: operator.password };

    const started = await kasa(['--json', '2fa', 'enroll'], { token });
    expect(started.code).toBe(0);
    const { secret } = JSON.parse(started.stdout) as { secret: string };
    const confirmed = await kasa(['2fa', 'confirm', totpCode(secret)], { token });
    expect(confirmed.code).toBe(0);
    const recovery = [...confirmed.stdout.matchAll(/^ {2}(\S+)$/gm)].map(([, code]) => code as string);
    expect(recovery).toHaveLength(10);

    const noTerminal = await kasa(['login', '--email', operator.email], { token: '', env });
    expect(noTerminal.code).toBe(1);
    expect(noTerminal.stderr).toContain('give --code');

    const questions: string[] = [];
    const prompted = await kasa(['login', '--email', operator.email], {
      token: '',
      env,
      prompt: async (question) => (questions.push(question), recovery[0] as string),
    });
    expect(questions).toEqual([expect.stringMatching(/authenticator app/)]);
    expect(prompted.code).toBe(0);
    expect(prompted.stdout).toMatch(/export KASA_TOKEN=kop_/);

    const flagged = await kasa(['login', '--email', operator.email, '--code', recovery[1] as string], { token: '', env });
    expect(flagged.code).toBe(0);
    const used = await kasa(['login', '--email', operator.email, '--code', recovery[1] as string], { token: '', env });
    expect(used.code).toBe(1);
    expect(used.stderr).toContain('otp_invalid');

    const off = await kasa(['2fa', 'disable', '--code', recovery[2] as string], { token });
    expect(off.code).toBe(0);
    expect((await kasa(['login', '--email', operator.email], { token: '', env })).code).toBe(0);
  });
});
