import type { Response } from 'express';
import type { StoredResponse } from '../idempotency/idempotency.js';

/** The authenticated site's id as a path segment of the ledger's internal API. */
export function sitePathOf(res: Response): string {
  return encodeURIComponent(res.locals.principal.siteId);
}

/** Passes the ledger's (or the stored) answer on untouched, marking a replay. */
export function sendStored(res: Response, result: StoredResponse): void {
  res.status(result.status);
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.type('application/json').send(result.body);
}
