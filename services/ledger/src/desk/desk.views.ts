import type { ResponseOf } from '@kasa/contracts';
import { isoOrNull } from '../shared/iso.js';
import type { DeliveryHealthRow, QueueHead } from './desk.repository.js';

/** A queue's count and the item that has waited longest, as the dashboard answers it (`QueueHead`). */
export function queueView(queue: QueueHead): ResponseOf<'QueueHead'> {
  return { count: queue.count, oldestAt: isoOrNull(queue.oldestAt), oldestId: queue.oldestId };
}

/** One site's webhook deliveries in the window (`SiteDeliveryHealth`). */
export function healthView(row: DeliveryHealthRow): ResponseOf<'SiteDeliveryHealth'> {
  return {
    siteId: row.siteId,
    slug: row.slug,
    name: row.name,
    webhookUrl: row.webhookUrl,
    attempts: row.attempts,
    succeeded: row.succeeded,
    // Of the window's attempts; null when there were none (no traffic is not a failure).
    successRate: row.attempts === 0 ? null : Math.round((row.succeeded / row.attempts) * 1000) / 1000,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    lastSuccessAt: isoOrNull(row.lastSuccessAt),
    failingSince: isoOrNull(row.failingSince),
    lastFailure: row.lastFailureAt
      ? { at: row.lastFailureAt.toISOString(), statusCode: row.lastFailureStatus, error: row.lastFailureError }
      : null,
    deadEvents: row.dead,
    pendingEvents: row.pending,
  };
}
