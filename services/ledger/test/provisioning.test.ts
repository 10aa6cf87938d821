import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { webhookSecretBox } from '@kasa/secret-box';
import { startLedgerHarness, type LedgerHarness } from './harness.js';

let h: LedgerHarness;

// 127.0.0.1 is allow-listed so one test can provision a local receiver; 10.0.0.0/8 and others stay refused.
beforeAll(async () => {
  h = await startLedgerHarness({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', DEPOSIT_INTENT_TTL_SECONDS: '1200' });
});
afterAll(async () => {
  await h?.stop();
});

const slug = () => `prov-${Math.random().toString(36).slice(2, 9)}`;

describe('POST /ops/v1/sites', () => {
  it('creates a site with defaults (its deposit TTL from DEPOSIT_INTENT_TTL_SECONDS) and audits who did it', async () => {
    const res = await h.ops('POST', '/sites', { slug: slug(), name: 'Örnek' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      rateLimitPerMinute: 60,
      depositTtlSeconds: 1200,
      minAmount: '1000',
      maxAmount: '100000000',
      webhookSecret: null,
    });
    const audit = await h.ledger.deps.db.auditLog.findFirst({ where: { entityId: res.body.siteId, action: 'SITE.CREATED' } });
    expect(audit).toMatchObject({ actorType: 'OPERATOR', actorId: 'bootstrap' });
  });

  it('refuses a taken slug, bad bounds and a slug with underscores, changing nothing', async () => {
    const taken = slug();
    expect((await h.ops('POST', '/sites', { slug: taken, name: 'a' })).status).toBe(201);
    const before = await h.ledger.deps.db.site.count();
    for (const body of [
      { slug: taken, name: 'again' },
      { slug: slug(), name: 'b', minAmount: '5000', maxAmount: '4000' },
      { slug: 'has_underscore', name: 'c' },
      { slug: slug(), name: 'd', rateLimitPerMinute: 0 },
    ]) {
      const res = await h.ops('POST', '/sites', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('validation_failed');
    }
    expect(await h.ledger.deps.db.site.count()).toBe(before);
  });

  it.each([
    ['https://10.0.0.1/hook'],
    ['https://169.254.169.254/latest'],
    ['https://[::1]/hook'],
    ['https://user:pw@example.com/hook'],
    ['http://example.com/hook'],
  ])('refuses the webhook URL %s like the partner webhook-config call does', async (webhookUrl) => {
    const res = await h.ops('POST', '/sites', { slug: slug(), name: 'x', webhookUrl });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('webhookUrl');
  });

  it('gives a site created with a webhook URL a signing secret, returned once and stored sealed', async () => {
    const res = await h.ops('POST', '/sites', { slug: slug(), name: 'hooked', webhookUrl: 'https://127.0.0.1:9443/hook' });
    expect(res.status).toBe(201);
    expect(res.body.webhookSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await h.ledger.deps.db.site.findUniqueOrThrow({ where: { id: res.body.siteId } });
    expect(row.webhookSecretEnc).not.toContain(res.body.webhookSecret);
    expect(webhookSecretBox(h.env.config.secretEncryptionKey).open(row.webhookSecretEnc as string, row.id)).toBe(res.body.webhookSecret);
  });
});

describe('reading sites and keys', () => {
  it('lists sites newest first with cursors, reads one, and 404s an unknown id', async () => {
    for (let i = 0; i < 3; i += 1) await h.ops('POST', '/sites', { slug: slug(), name: `list ${i}` });
    const first = await h.ops('GET', '/sites?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    const second = await h.ops('GET', `/sites?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    const seen = [...first.body.data, ...second.body.data].map((site: { siteId: string }) => site.siteId);
    expect(new Set(seen).size).toBe(seen.length);
    const created = [...first.body.data, ...second.body.data].map((site: { createdAt: string }) => site.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    const one = await h.ops('GET', `/sites/${first.body.data[0].siteId}`);
    expect(one.body).toEqual(first.body.data[0]);
    expect((await h.ops('GET', '/sites/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await h.ops('GET', '/sites?limit=0')).status).toBe(400);
  });

  it("lists a site's keys by prefix only, with their revocation", async () => {
    const site = await h.ops('POST', '/sites', { slug: slug(), name: 'keys' });
    const issued = await h.ops('POST', `/sites/${site.body.siteId}/api-keys`, {});
    await h.ops('POST', `/sites/${site.body.siteId}/api-keys`, {});
    await h.ops('DELETE', `/api-keys/${issued.body.apiKeyId}`);
    const keys = await h.ops('GET', `/sites/${site.body.siteId}/api-keys`);
    expect(keys.status).toBe(200);
    expect(keys.body.data).toHaveLength(2);
    expect(JSON.stringify(keys.body)).not.toContain(issued.body.apiKey);
    const revoked = keys.body.data.find((key: { apiKeyId: string }) => key.apiKeyId === issued.body.apiKeyId);
    expect(revoked.revokedAt).not.toBeNull();
    expect(revoked.keyPrefix.startsWith(`sk_live_${site.body.slug}_`)).toBe(true);
  });
});

describe('finding a record by its reference', () => {
  it('filters the ops intent and withdrawal lists by referenceNo, forgiving case, spaces and dashes', async () => {
    const site = await h.createSite();
    const intent = await h.createDeposit(site, '150000');
    await h.createDeposit(site, '160000');
    const typed = `${intent.referenceNo.slice(0, 4).toLowerCase()} ${intent.referenceNo.slice(4, 7)}-${intent.referenceNo.slice(7)}`;
    const found = await h.ops('GET', `/intents?referenceNo=${encodeURIComponent(typed)}`);
    expect(found.status).toBe(200);
    expect(found.body.data.map((i: { intentId: string }) => i.intentId)).toEqual([intent.intentId]);
    const withdrawal = await h.createWithdrawal(site, '5000');
    const w = await h.ops('GET', `/withdrawals?referenceNo=${withdrawal.referenceNo}`);
    expect(w.body.data.map((x: { withdrawalId: string }) => x.withdrawalId)).toEqual([withdrawal.withdrawalId]);
    expect((await h.ops('GET', '/intents?referenceNo=KD%3Cscript%3E')).status).toBe(400);
    expect((await h.ops('GET', '/intents?referenceNo=KDNOTHERE2')).body.data).toEqual([]);
  });
});
