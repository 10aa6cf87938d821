import { randomUUID } from 'node:crypto';
import { eventTypeEntry, RETURN_REASON_CODES, type EventType } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { SecretBox } from '@kasa/secret-box';
import { signedHeaders, webhookBody, type WebhookSender } from '@kasa/webhook-sender';
import type { SiteRepository } from './site.repository.js';

export interface TestWebhookDeps {
  sites: SiteRepository;
  webhookSecrets: SecretBox;
  /** The same sender the worker delivers with: URL guard, TLS trust, no redirects; a short timeout. */
  webhookSender: WebhookSender;
}

/** What a test webhook may be: any event type, or `ping`. */
export type TestWebhookType = EventType | 'ping';

/** How the one attempt went (docs/webhooks.md, Send a test webhook). */
export interface TestWebhookResult {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

const SAMPLE_INTENT_ID = '00000000-0000-4000-8000-000000000001';
const SAMPLE_WITHDRAWAL_ID = '00000000-0000-4000-8000-000000000002';

/** A sample record of the type's kind, in the status its event reports; dated now. */
function sampleBody(type: TestWebhookType, eventId: string, now: string, livemode: boolean): Record<string, unknown> {
  const envelope = { eventId, type, createdAt: now, livemode, test: true };
  if (type === 'ping') return { ...envelope, data: {} };
  const rejected = type.endsWith('.rejected');
  const decided = { rejectedAt: rejected ? now : null, rejectedReason: rejected ? 'Test webhook' : null, createdAt: now, updatedAt: now };
  const { record, status } = eventTypeEntry(type);
  if (record === 'withdrawal') {
    const data = { withdrawalId: SAMPLE_WITHDRAWAL_ID, referenceNo: 'KWTESTTEST', status, amount: '50000', currency: 'TRY' };
    const returned = status === 'RETURNED';
    const returnReason = returned ? { code: 'AC01', text: RETURN_REASON_CODES.AC01 } : null;
    return {
      ...envelope,
      data: { ...data, sentAt: status === 'REJECTED' ? null : now, ...decided, returnedAt: returned ? now : null, returnReason },
    };
  }
  const data = {
    intentId: SAMPLE_INTENT_ID,
    referenceNo: 'KDTESTTEST',
    status,
    amount: type === 'intent.topped_up' ? '200000' : '150000',
    currency: 'TRY',
    approvedAt: status === 'APPROVED' ? now : null,
    ...decided,
  };
  const topUp = { amount: '50000', bankTransferId: '00000000-0000-4000-8000-000000000003', receivedAt: now };
  return { ...envelope, data, ...(type === 'intent.topped_up' ? { topUp } : {}) };
}

/** The site's signing secrets, current first, then the previous one while its overlap window is open (as the worker signs). */
function signingSecrets(
  box: SecretBox,
  siteId: string,
  site: NonNullable<Awaited<ReturnType<SiteRepository['webhookTarget']>>>,
  nowMs: number,
): string[] {
  const secrets = site.webhookSecretEnc ? [box.open(site.webhookSecretEnc, siteId)] : [];
  if (site.previousWebhookSecretEnc && site.previousSecretExpiresAt && site.previousSecretExpiresAt.getTime() > nowMs) {
    secrets.push(box.open(site.previousWebhookSecretEnc, siteId));
  }
  return secrets;
}

/**
 * Sends one signed sample of `type` to the site's webhook URL now and reports the answer. It is signed, guarded and
 * sent exactly as the worker delivers an event, carries `test: true`, and is neither retried nor written anywhere:
 * it is no event of a record, and the events list stays the list of what happened.
 */
export async function sendTestWebhook(deps: TestWebhookDeps, siteId: string, type: TestWebhookType): Promise<TestWebhookResult> {
  const site = await deps.sites.webhookTarget(siteId);
  if (!site) throw new AppError('not_found', 'No site with this id.');
  if (!site.webhookUrl || !site.webhookSecretEnc) {
    throw AppError.conflict(
      'webhook_not_configured',
      'The site has no webhook URL or signing secret; set them with PUT /api/v1/external/site/webhook-config first. Nothing was sent.',
    );
  }
  // Wall-clock time, as the worker signs: the receiver checks `t` against its own clock, not the ledger's.
  const nowMs = Date.now();
  let secrets: string[];
  try {
    secrets = signingSecrets(deps.webhookSecrets, siteId, site, nowMs);
  } catch {
    const error = 'the signing secret cannot be decrypted with the configured SECRET_ENCRYPTION_KEY';
    return { delivered: false, statusCode: null, durationMs: 0, error };
  }
  const eventId = randomUUID();
  const body = webhookBody(sampleBody(type, eventId, new Date(nowMs).toISOString(), site.livemode));
  const headers = signedHeaders(secrets, eventId, body, nowMs);
  const result = await deps.webhookSender.send(site.webhookUrl, headers, body);
  const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  return { delivered, statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
}
