/**
 * One webhook URL policy, wherever a URL is set: the partner's webhook-config PUT (through the real gateway)
 * and ops site creation must give every URL the same verdict, with the same 400, and a refusal changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { httpJson } from '@kasa/testkit';
import { startHarness, type Harness } from '../../gateway/test/harness.js';

let h: Harness;

// hooks.example.com is allow-listed by name, so it is not resolved (no DNS here) and no other host is exempt.
// Ports 443 and 8443 only: 6379, which the default 1024-65535 would allow, shows the setting reaches the ledger.
beforeAll(async () => {
  h = await startHarness({ WEBHOOK_ALLOWED_HOSTS: 'hooks.example.com', WEBHOOK_ALLOWED_PORTS: '443,8443' });
});
afterAll(async () => {
  await h?.stop();
});

const ACCEPTED: Array<[string, string]> = [
  ['https, port 443 implied', 'https://hooks.example.com/x'],
  ['an allowed port', 'https://hooks.example.com:8443/x'],
];

const REFUSED: Array<[string, string]> = [
  ['port 22 (SSH)', 'https://hooks.example.com:22/x'],
  ['port 6379 (Redis), not in WEBHOOK_ALLOWED_PORTS', 'https://hooks.example.com:6379/x'],
  ['port 0', 'https://hooks.example.com:0/x'],
  ['port 65536', 'https://hooks.example.com:65536/x'],
  ['CR/LF', 'https://hooks.example.com/x\r\nX-Injected: 1'],
  ['<script>', 'https://hooks.example.com/<script>alert(1)</script>'],
  ['spaces', 'https://hooks.example.com/my hook'],
  ['a backslash', 'https://hooks.example.com\\x'],
  ['credentials', 'https://user:pass@hooks.example.com/x'],
  ['http, not allowed here', 'http://hooks.example.com/x'],
  ['IPv4 loopback', 'https://127.0.0.1/x'],
  ['IPv6 loopback', 'https://[::1]/x'],
  ['NAT64 local-use', 'https://[64:ff9b:1::a00:1]/x'],
  ['Teredo', 'https://[2001::1]/x'],
  ['the cloud metadata address', 'https://169.254.169.254/x'],
  ['a private address', 'https://10.0.0.1/x'],
];

type Verdict = 'accepted' | 'refused';

async function viaOps(webhookUrl: string) {
  const slug = `wp-${randomUUID().slice(0, 8)}`;
  const sitesBefore = await h.ledger.deps.db.site.count();
  const res = await h.ops('POST', '/ops/v1/sites', { slug, name: 'Webhook policy', webhookUrl });
  const created = await h.ledger.deps.db.site.findUnique({ where: { slug } });
  const audited = await h.ledger.deps.db.auditLog.count({ where: { action: 'SITE.CREATED', metadata: { path: ['slug'], equals: slug } } });
  return { res, created, audited, sitesAfter: await h.ledger.deps.db.site.count(), sitesBefore };
}

async function viaPartner(webhookUrl: string) {
  const site = await h.createSite();
  const res = await httpJson(
    `${h.gateway.url}/api/v1/external/site/webhook-config`,
    'PUT',
    { authorization: `Bearer ${site.apiKey}` },
    { webhookUrl },
  );
  const row = await h.ledger.deps.db.site.findUniqueOrThrow({ where: { id: site.siteId } });
  const audited = await h.ledger.deps.db.auditLog.count({ where: { siteId: site.siteId, action: 'SITE.WEBHOOK_CONFIG_ROTATED' } });
  return { res, row, audited };
}

const verdictOf = (status: number): Verdict => (status === 201 || status === 200 ? 'accepted' : 'refused');

describe('webhook URL policy: partner webhook-config and ops site creation agree', () => {
  it.each(ACCEPTED)('both accept %s (%j)', async (_name, webhookUrl) => {
    const partner = await viaPartner(webhookUrl);
    const ops = await viaOps(webhookUrl);
    expect([verdictOf(partner.res.status), verdictOf(ops.res.status)]).toEqual(['accepted', 'accepted']);
    expect(partner.res.status).toBe(200);
    expect(ops.res.status).toBe(201);
    expect(partner.row.webhookUrl).toBe(webhookUrl);
    expect(ops.created?.webhookUrl).toBe(webhookUrl);
    expect([partner.audited, ops.audited]).toEqual([1, 1]);
  });

  it.each(REFUSED)('both refuse %s (%j) with the same 400 and create nothing', async (_name, webhookUrl) => {
    const partner = await viaPartner(webhookUrl);
    const ops = await viaOps(webhookUrl);
    expect([verdictOf(partner.res.status), verdictOf(ops.res.status)]).toEqual(['refused', 'refused']);

    for (const { res } of [partner, ops]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed', errors: [{ field: 'webhookUrl', message: expect.any(String) }] });
    }
    expect(ops.res.body.errors).toEqual(partner.res.body.errors);

    expect(partner.row).toMatchObject({ webhookUrl: null, webhookSecretEnc: null, webhookRotatedAt: null });
    expect(partner.audited).toBe(0);
    expect(ops.created).toBeNull();
    expect(ops.audited).toBe(0);
    expect(ops.sitesAfter).toBe(ops.sitesBefore);
  });
});
