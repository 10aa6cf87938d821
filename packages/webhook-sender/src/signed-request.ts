import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { buildWebhookHeaders } from '@kasa/webhook-signing';

/**
 * The webhook body: the payload in its documented key order (docs/webhooks.md, What arrives), with `topUp` on a
 * top-up and `test: true` on a test webhook; any other key of the stored payload is left out.
 */
export function webhookBody(payload: unknown): string {
  const value = payload as {
    eventId?: unknown;
    type?: unknown;
    createdAt?: unknown;
    livemode?: unknown;
    test?: unknown;
    data?: unknown;
    topUp?: unknown;
  };
  return JSON.stringify({
    eventId: value.eventId,
    type: value.type,
    createdAt: value.createdAt,
    // Events written before sandboxes existed were all live.
    livemode: value.livemode !== false,
    ...(value.test === true ? { test: true } : {}),
    data: value.data,
    ...(value.topUp !== undefined ? { topUp: value.topUp } : {}),
  });
}

/**
 * The headers of one signed attempt: JSON, Kasa's user agent, `Service-Signature` / `Service-Event-Id` and the
 * Standard Webhooks trio, signed afresh at `nowMs` with every active secret (current first).
 */
export function signedHeaders(secrets: readonly string[], eventId: string, body: string, nowMs: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Kasa-Webhooks/1.0',
    ...buildWebhookHeaders({ secrets: [...secrets], eventId, timestamp: Math.floor(nowMs / 1000), rawBody: body }),
  };
}

/**
 * The certificate authorities a sender trusts: a test's own CA when given, else Node's roots plus
 * `WEBHOOK_CA_FILE` (local receivers), else undefined (Node's defaults).
 */
export function trustedAuthorities(caFile: string | null, override?: string | string[]): string | string[] | undefined {
  if (override) return override;
  if (caFile) return [...rootCertificates, readFileSync(caFile, 'utf8')];
  return undefined;
}
