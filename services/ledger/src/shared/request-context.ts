import type { Request, Response } from 'express';
import { principalOf } from './operator-principal.js';
import type { OperatorPrincipal } from './operator-principal.js';

/**
 * The HTTP request a use case runs for. Its id (the gateway's `X-Request-Id`, kept by the `requestId`
 * middleware, or one the ledger made) goes on every business log line the use case writes and is stored
 * with every outbox event its transaction writes (`outbox_events.request_id`), so one id finds the
 * partner's call, the ledger's steps and the worker's delivery attempts. Passed explicitly, like the clock,
 * never read from ambient state.
 */
export interface RequestContext {
  requestId: string;
}

/** An operator's request on the ops API: who acts (the audit entry) and the request (logs, outbox). */
export interface OperatorRequest extends RequestContext {
  caller: OperatorPrincipal;
}

/** The operator request of an `/ops/v1` route, after operator authentication. */
export function operatorRequestOf(req: Request, res: Response): OperatorRequest {
  return { caller: principalOf(res.locals), requestId: req.requestId };
}
