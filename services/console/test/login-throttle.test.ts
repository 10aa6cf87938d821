import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedger, type LedgerService } from '@kasa/ledger';
import { createTestEnvironment, expectStatus, httpJson, type TestEnvironment } from '@kasa/testkit';
import { startConsole, type ConsoleService } from '../src/index.js';
import { throttledMessage } from '../src/pages/login.page.js';

let env: TestEnvironment;
let ledger: LedgerService;
let consoleService: ConsoleService;
beforeAll(async () => {
  env = await createTestEnvironment({ OPS_LOGIN_WINDOW_SECONDS: '600', OPS_LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS: '3' });
  ledger = await startLedger(env.config, 0);
  consoleService = await startConsole({ ...env.config, ledgerUrl: ledger.url }, 0);
});
afterAll(async () => {
  await consoleService?.stop();
  await ledger?.stop();
  await env?.cleanup();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to the console from the loopback address `from` (the whole of 127.0.0.0/8 is this machine). */
function send(
  from: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { port } = new URL(consoleService.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, localAddress: from, agent: false, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A browser at `address`: opens the login form, then posts it. Every browser reaches the ledger through the
 * same console, so only the address the console passes on tells them apart.
 */
function browserAt(address: string) {
  return async (email: string, password: string) => {
    const form = await send(address, '/login');
    const cookie = (form.headers['set-cookie']?.[0] ?? '').split(';')[0] as string;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] as string;
    const body = new URLSearchParams({ _csrf: csrf, email, password, next: '/review' }).toString();
    const answer = await send(address, '/login', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    return { status: answer.status, retryAfter: answer.headers['retry-after'], page: answer.body };
  };
}

describe('console login throttling', () => {
  it("counts failed logins against the operator's browser address and says when to try again", async () => {
    const email = `op-${randomUUID()}@kasa.test`;
    const password = `pw-${randomUUID()}`;
    const bootstrap = { authorization: `Bearer ${env.config.opsBootstrapToken}` };
    expectStatus(
      await httpJson(`${ledger.url}/ops/v1/operators`, 'POST', bootstrap, { email, name: 'Throttled', role: 'REVIEWER', password }),
      201,
      'operator',
    );

    const attacker = browserAt('127.0.0.2');
    for (let i = 0; i < env.config.opsLoginAttemptsPerAccountAddress; i += 1)
      expect((await attacker(email, 'not the password')).status).toBe(401);
    const refused = await attacker(email, password);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(540);
    expect(refused.page).toContain('Too many login attempts. Try again in 10 minutes.');

    // The operator's own browser is another address: the console passes it on, so they are not locked out.
    const operator = browserAt('127.0.0.3');
    const loggedIn = await operator(email, password);
    expect(loggedIn.status).toBe(303);
  });

  it('words the wait from Retry-After', () => {
    expect(throttledMessage(1)).toBe('Too many login attempts. Try again in 1 second.');
    expect(throttledMessage(59)).toBe('Too many login attempts. Try again in 59 seconds.');
    expect(throttledMessage(60)).toBe('Too many login attempts. Try again in 1 minute.');
    expect(throttledMessage(61)).toBe('Too many login attempts. Try again in 2 minutes.');
    expect(throttledMessage(null)).toBe('Too many login attempts. Wait a few minutes and try again.');
  });
});
