/** Provisioning through the ledger's real ops API with the bootstrap token (as services/gateway/test/harness.ts does). */
import { makeTrIban } from '../../packages/testkit/src/index.js';

export interface OpsClient {
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  createReceivingAccount(): Promise<{ id: string }>;
  /** Creates a site with the highest per-minute rate limit the ops API accepts, trying `wanted` first. */
  createSite(slug: string, wanted: number): Promise<{ siteId: string; slug: string; rateLimitPerMinute: number; refused?: string }>;
  issueKey(siteId: string): Promise<{ apiKey: string; apiKeyId: string }>;
}

export function opsClient(ledgerUrl: string, token: string): OpsClient {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${ledgerUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
  return {
    call,
    async createReceivingAccount() {
      const account = await call('POST', '/ops/v1/receiving-accounts', {
        bankName: 'Bench Bankası',
        holderName: 'Kasa Ödeme Hizmetleri A.Ş.',
        iban: makeTrIban(Date.now() % 1e9),
      });
      if (account.status !== 201) throw new Error(`receiving account: ${account.status} ${JSON.stringify(account.body)}`);
      return { id: account.body.id as string };
    },
    async createSite(slug, wanted) {
      let site = await call('POST', '/ops/v1/sites', { slug, name: `Bench ${slug}`, rateLimitPerMinute: wanted });
      let refused: string | undefined;
      if (site.status === 400) {
        // The ops API caps the budget (schema maximum); take the cap and say so in the report.
        refused = JSON.stringify(site.body?.errors ?? site.body);
        site = await call('POST', '/ops/v1/sites', { slug, name: `Bench ${slug}`, rateLimitPerMinute: 100_000 });
      }
      if (site.status !== 201) throw new Error(`create site: ${site.status} ${JSON.stringify(site.body)}`);
      return { siteId: site.body.siteId, slug, rateLimitPerMinute: site.body.rateLimitPerMinute, ...(refused ? { refused } : {}) };
    },
    async issueKey(siteId) {
      const key = await call('POST', `/ops/v1/sites/${siteId}/api-keys`, {});
      if (key.status !== 201) throw new Error(`issue key: ${key.status} ${JSON.stringify(key.body)}`);
      return { apiKey: key.body.apiKey as string, apiKeyId: key.body.apiKeyId as string };
    },
  };
}
