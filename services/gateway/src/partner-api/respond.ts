import type { Response } from 'express';
import type { StoredResponse } from '../idempotency/idempotency.js';

/** The authenticated site, as the `:siteId` of a call to the ledger's internal API. */
export function siteOf(res: Response): { siteId: string } {
  return { siteId: res.locals.principal.siteId };
}

/** Passes the ledger's (or the stored) answer on untouched, marking a replay. */
export function sendStored(res: Response, result: StoredResponse): void {
  res.status(result.status);
  if (result.replayed) res.setHeader('Idempotent-Replayed', 'true');
  res.type('application/json').send(result.body);
}
