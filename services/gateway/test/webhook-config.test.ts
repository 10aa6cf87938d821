import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, type Harness, type TestSite } from './harness.js';

let h: Harness;
beforeAll(async () => {
  // Only 127.0.0.2 is exempt, so localhost (127.0.0.1 / ::1) still counts as private here.
  h = await startHarness({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.2' });
});
afterAll(async () => {
  await h?.stop();
});

const URL_OK = 'https://127.0.0.2:9443/webhooks/kasa';

function put(site: TestSite | null, body: unknown) {
  const call = request(h.gateway.url).put('/api/v1/external/site/webhook-config');
  if (site) call.set('authorization', `Bearer ${site.apiKey}`);
  return call.send(body as object);
}

const siteRow = (siteId: string) => h.ledger.deps.db.site.findUniqueOrThrow({ where: { id: siteId } });

describe('PUT /api/v1/external/site/webhook-config', () => {
  it('rotates the secret by default: returns whsec_ + 43 base64url once, stores it sealed, and audits the key that did it', async () => {
    const site = await h.createSite();
    const response = await put(site, { webhookUrl: URL_OK });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toEqual({
      webhookUrl: URL_OK,
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      rotatedAt: expect.stringMatching(/Z$/),
      eventTypes: ['intent.approved', 'intent.rejected', 'withdrawal.sent', 'withdrawal.rejected', 'withdrawal.returned'],
    });

    const row = await siteRow(site.siteId);
    expect(row.webhookUrl).toBe(URL_OK);
    expect(row.webhookSecretEnc).not.toContain(response.body.webhookSecret.slice(6));
    expect(h.ledger.deps.webhookSecrets.open(row.webhookSecretEnc as string, site.siteId)).toBe(response.body.webhookSecret);
    expect(row.previousWebhookSecretEnc).toBeNull();
    expect(row.webhookRotatedAt?.toISOString()).toBe(response.body.rotatedAt);

    const audit = await h.ledger.deps.db.auditLog.findMany({ where: { siteId: site.siteId, action: 'SITE.WEBHOOK_CONFIG_ROTATED' } });
    expect(audit).toEqual([
      expect.objectContaining({
        actorType: 'API_KEY',
        actorId: site.apiKeyId,
        entityType: 'site',
        entityId: site.siteId,
        metadata: { rotatedSecret: true, webhookUrl: URL_OK },
      }),
    ]);
  });

  it('keeps the previous secret signing for the overlap window after a second rotation', async () => {
    const site = await h.createSite();
    const first = await put(site, { webhookUrl: URL_OK });
    const second = await put(site, { webhookUrl: URL_OK, rotateSecret: true });
    expect(second.body.webhookSecret).not.toBe(first.body.webhookSecret);
    const row = await siteRow(site.siteId);
    const box = h.ledger.deps.webhookSecrets;
    expect(box.open(row.webhookSecretEnc as string, site.siteId)).toBe(second.body.webhookSecret);
    expect(box.open(row.previousWebhookSecretEnc as string, site.siteId)).toBe(first.body.webhookSecret);
    const overlap = (row.previousSecretExpiresAt as Date).getTime() - new Date(second.body.rotatedAt).getTime();
    expect(overlap).toBe(h.env.config.webhookPreviousSecretTtlSeconds * 1000);
  });

  it('with rotateSecret false changes only the URL and answers webhookSecret null', async () => {
    const site = await h.createSite();
    await put(site, { webhookUrl: URL_OK });
    const before = await siteRow(site.siteId);
    const moved = 'https://127.0.0.2:9443/other-path';
    const response = await put(site, { webhookUrl: moved, rotateSecret: false });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ webhookUrl: moved, webhookSecret: null });
    const after = await siteRow(site.siteId);
    expect(after.webhookUrl).toBe(moved);
    expect(after.webhookSecretEnc).toBe(before.webhookSecretEnc);
    expect(after.previousWebhookSecretEnc).toBe(before.previousWebhookSecretEnc);
    const audit = await h.ledger.deps.db.auditLog.findMany({
      where: { siteId: site.siteId, action: 'SITE.WEBHOOK_CONFIG_ROTATED' },
      orderBy: { createdAt: 'asc' },
    });
    expect(audit.map((entry) => entry.metadata)).toEqual([
      { rotatedSecret: true, webhookUrl: URL_OK },
      { rotatedSecret: false, webhookUrl: moved },
    ]);
  });

  it('refuses to keep a secret the site does not have yet', async () => {
    const site = await h.createSite();
    const response = await put(site, { webhookUrl: URL_OK, rotateSecret: false });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'rotateSecret', message: expect.any(String) }]);
  });

  it.each([
    ['plain http', 'http://127.0.0.2/hook'],
    ['credentials in the URL', 'https://user:secret@127.0.0.2/hook'],
    ['a private address', 'https://10.0.0.1/hook'],
    ['the cloud metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['an IPv4-mapped private address', 'https://[::ffff:192.168.0.1]/hook'],
    ['a name that resolves to loopback', 'https://localhost:8443/hook'],
    ['a name that does not resolve', 'https://no-such-host.invalid/hook'],
    ['something that is not a URL', 'not a url'],
  ])('refuses %s and changes nothing', async (_name, webhookUrl) => {
    const site = await h.createSite();
    await put(site, { webhookUrl: URL_OK });
    const before = await siteRow(site.siteId);
    const response = await put(site, { webhookUrl });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'webhookUrl', message: expect.any(String) }] });
    const after = await siteRow(site.siteId);
    expect(after.webhookUrl).toBe(URL_OK);
    expect(after.webhookSecretEnc).toBe(before.webhookSecretEnc);
  });

  it('rejects unknown fields, a missing URL and a non-boolean rotateSecret', async () => {
    const site = await h.createSite();
    const cases: Array<[unknown, string]> = [
      [{ webhookUrl: URL_OK, secret: 'mine' }, 'secret'],
      [{}, 'webhookUrl'],
      [{ webhookUrl: URL_OK, rotateSecret: 'yes' }, 'rotateSecret'],
    ];
    for (const [body, field] of cases) {
      const response = await put(site, body);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('is authenticated and rate-limited like every partner route', async () => {
    expect((await put(null, { webhookUrl: URL_OK })).status).toBe(401);
    const site = await h.createSite({ rateLimitPerMinute: 2 });
    expect((await put(site, { webhookUrl: URL_OK })).headers['ratelimit']).toMatch(/r=1/);
    await put(site, { webhookUrl: URL_OK });
    const limited = await put(site, { webhookUrl: URL_OK });
    expect(limited.status).toBe(429);
  });
});
