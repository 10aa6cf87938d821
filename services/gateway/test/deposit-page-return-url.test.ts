/**
 * The partner's returnUrl in production: https only (plain http to localhost is for development), refused
 * with a 400 that names the field, and a refused create leaves nothing behind. A site's own return URL, set
 * by an admin, follows the same rule and is the page's way back when a deposit names none.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

let h: Harness;
let site: TestSite;

beforeAll(async () => {
  h = await startHarness({
    NODE_ENV: 'production',
    // Production refuses the published development keys: each secret its own.
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    STATEMENT_SIGNING_KEY: randomBytes(32).toString('base64'),
    HISTORY_SEAL_KEY: randomBytes(32).toString('base64'),
  });
  site = await h.createSite({ name: 'Örnek Bahis' });
});
afterAll(async () => {
  await h?.stop();
});

describe('returnUrl in production', () => {
  it('refuses plain http even to localhost or 127.0.0.1, and a port no URL can have, creating nothing', async () => {
    for (const returnUrl of ['http://localhost:8084/done', 'http://127.0.0.1/done', 'https://orneks-bahis.example:99999/done']) {
      const refused = await partner(h.gateway.url, site).createDeposit({ returnUrl });
      expect({ returnUrl, status: refused.status, errors: refused.body.errors }).toEqual({
        returnUrl,
        status: 400,
        errors: [{ field: 'returnUrl', message: expect.stringMatching(/https|valid URL/) }],
      });
    }
    expect(await h.ledger.deps.db.deposit.count({ where: { siteId: site.siteId } })).toBe(0);
  });

  it('accepts https, stores it and links the page back to it', async () => {
    const returnUrl = 'https://orneks-bahis.example/kasa/done?from=kasa#deposit';
    const created = await partner(h.gateway.url, site).createDeposit({ returnUrl });
    expect(created.status).toBe(201);
    const stored = await h.ledger.deps.db.deposit.findUnique({ where: { id: created.body.intentId } });
    expect(stored?.returnUrl).toBe(returnUrl);
    const page = await request(h.gateway.url).get(new URL(created.body.depositUrl).pathname);
    expect(page.text).toContain('<a id="back" href="https://orneks-bahis.example/kasa/done?from=kasa#deposit" rel="noreferrer">');
    // Not part of the partner's lookup record (SPEC section 2 lists its fields).
    const lookup = await partner(h.gateway.url, site).get(`/api/v1/external/intents/${created.body.intentId}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).not.toHaveProperty('returnUrl');
  });
});

describe("a site's return URL", () => {
  it('is refused by the same rule on site create, creating no site', async () => {
    for (const returnUrl of ['http://localhost:8084/done', 'javascript:alert(1)', 'https://user:pw@orneks-bahis.example/']) {
      const refused = await h.ops('POST', '/ops/v1/sites', { slug: `refused-${randomBytes(3).toString('hex')}`, name: 'Ret', returnUrl });
      expect({ returnUrl, status: refused.status, fields: refused.body.errors?.map((e: { field: string }) => e.field) }).toEqual({
        returnUrl,
        status: 400,
        fields: ['returnUrl'],
      });
    }
    expect(await h.ledger.deps.db.site.count({ where: { slug: { startsWith: 'refused-' } } })).toBe(0);
  });

  it("links a deposit without a returnUrl back to the site's, and a deposit's own returnUrl wins", async () => {
    const siteUrl = 'https://orneks-bahis.example/cuzdan';
    const withUrl = await h.createSite({ name: 'Örnek Bahis', returnUrl: siteUrl });
    const shown = await h.ops('GET', `/ops/v1/sites/${withUrl.siteId}`);
    expect(shown.body.returnUrl).toBe(siteUrl);
    const pageOf = async (on: TestSite, body: Record<string, unknown>) => {
      const created = await partner(h.gateway.url, on).createDeposit(body);
      expect(created.status).toBe(201);
      return (await request(h.gateway.url).get(new URL(created.body.depositUrl).pathname)).text;
    };
    expect(await pageOf(withUrl, {})).toContain(`<a id="back" href="${siteUrl}" rel="noreferrer">`);
    expect(await pageOf(withUrl, { returnUrl: 'https://orneks-bahis.example/own' })).toContain(
      '<a id="back" href="https://orneks-bahis.example/own" rel="noreferrer">',
    );
    expect(await pageOf(site, {})).not.toContain('id="back"');
  });
});
