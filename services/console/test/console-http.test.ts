import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '@kasa/config';
import { startConsole, type ConsoleService } from '../src/index.js';

// No ledger behind this console: it proves what the console answers on its own.
let service: ConsoleService;
beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    LEDGER_URL: 'http://127.0.0.1:9',
    CONSOLE_PUBLIC_URL: 'https://console.kasa.example',
  });
  service = await startConsole(config, 0);
});
afterAll(async () => {
  await service?.stop();
});

describe('console over HTTP', () => {
  it('answers healthz, and readyz 503 while the ledger does not answer', async () => {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ checks: { ledger: 'unavailable' } });
    expect((await fetch(`${service.url}/metrics`)).status).toBe(200);
  });

  it('serves the login page under a strict CSP with a Secure __Host- cookie when the public URL is https', async () => {
    const res = await fetch(`${service.url}/login`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^__Host-kasa_console=[A-Za-z0-9_-]+; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const page = await res.text();
    expect(page).not.toMatch(/<script>|style="/);
  });

  it('sends a visitor without a session to the login form, remembering where they were going', async () => {
    const res = await fetch(`${service.url}/withdrawals?status=SENT`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Fwithdrawals%3Fstatus%3DSENT');
  });

  it('re-renders the login form with a readable error when the login POST has no valid CSRF token', async () => {
    const res = await fetch(`${service.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40kasa.test&password=x',
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('The login form expired or was not sent from this console.');
  });
});
