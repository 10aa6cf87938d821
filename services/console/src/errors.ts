import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ErrorReason, FieldError } from '@kasa/contracts';
import { AppError, routeOf } from '@kasa/http';
import { OpsApiError } from '@kasa/ops-client';
import type { ConsoleDeps } from './console-deps.js';
import { param } from './pages/page-context.js';
import { clearSession, safeLocalPath } from './session/session.middleware.js';
import { html, safeUrl } from './views/html.js';
import { renderPage } from './views/layout.js';

/** An error as an operator reads it: what happened in one line, the ledger's explanation, the fields. */
export interface ReadableError {
  status: number;
  title: string;
  detail: string;
  fields: FieldError[];
}

/**
 * What the operator is told about each 409, by the ledger's reason (docs/errors.md, conflict): what happened and,
 * where there is one, what to do instead. A `Record`, so a new reason does not compile until it has its line here.
 */
const REASON_TITLES: Record<ErrorReason, string> = {
  // A review that lost a race with another operator, or a page loaded before the record moved on.
  invalid_transition: 'Someone else already acted on this record.',
  state_changed: 'Someone else already acted on this record.',
  amount_exceeds_received: 'The amount is more than the money received for this deposit.',
  insufficient_balance: "The site's available balance does not cover this.",
  intent_decided: 'This deposit was already approved or rejected; set the transfer aside or return it to the sender.',
  transfer_settled: 'This transfer is no longer unmatched: it was matched, assigned, set aside or returned meanwhile.',
  transfer_not_returnable: 'This transfer cannot go back to its sender: a deposit kept it, or it is already being returned.',
  bank_tx_id_reused: 'This bank transaction id was already recorded with different details.',
  event_in_delivery: 'This event is still being delivered; replay it once it is delivered or dead.',
  webhook_not_configured: 'This site has no webhook URL or signing secret yet, so there is nowhere to send a test webhook.',
  operator_disabled: 'This operator is disabled; no token can be issued for them.',
  self_disable: 'You cannot disable your own account; ask another admin.',
  bootstrap_token: 'The bootstrap token is configuration and cannot be logged out.',
  otp_already_enrolled: 'Two-factor authentication is already on for this account; turn it off before enrolling again.',
  otp_not_pending: 'There is no enrollment to confirm; start again.',
  otp_not_enrolled: 'Two-factor authentication is not on for this account.',
  second_approver_required:
    'Two different people must approve this payout: not its first approver, an account tied to them (one created or last changed the other), nor the bootstrap token.',
  nothing_to_batch: 'No approved payout is left to batch.',
  sandbox_payout: "This is a sandbox's simulated money: it never leaves through the house's real account.",
  // Partner API only (a create whose record a database failover lost); no console form can meet it.
  idempotency_record_lost: 'This request was answered before, but its record was lost in a database failover.',
  not_exact_match: 'Only exact matches are approved together: the money received differs from the amount requested.',
  // The second factor's 401 and 403 (docs/operations.md).
  otp_required: 'Enter the code from your authenticator app.',
  otp_invalid: 'The code is wrong, expired or already used.',
  otp_enrollment_required: 'Your role must use two-factor authentication: set it up first.',
  step_up_required: 'Approving this much money needs a fresh code from your authenticator app.',
  site_scope: 'Your account is limited to some sites; this is a house-wide step for an operator with every site.',
};

/** What the operator is told about a ledger reason (a 409's or a step-up's); null for a reason the console has no words for. */
export function reasonTitle(reason: string): string | null {
  return Object.prototype.hasOwnProperty.call(REASON_TITLES, reason) ? REASON_TITLES[reason as ErrorReason] : null;
}

function fromLedger(error: OpsApiError): ReadableError {
  const base = { detail: error.detail, fields: error.fieldErrors };
  // A wrong second-factor code: the session is fine, the operator tries another code.
  if (error.status === 401 && error.reason === 'otp_invalid') return { ...base, status: 400, title: REASON_TITLES.otp_invalid };
  switch (error.status) {
    case 400:
      return { ...base, status: 400, title: 'The ledger did not accept what was entered.' };
    case 403:
      return { ...base, status: 403, title: error.reason ? REASON_TITLES[error.reason] : 'Your role cannot do this.' };
    case 404:
      return { ...base, status: 404, title: 'This record does not exist.' };
    case 409:
      return {
        ...base,
        status: 409,
        title: error.reason ? REASON_TITLES[error.reason] : 'The record is not in a state that allows this.',
      };
    case 429:
      return { ...base, status: 429, title: 'Too many requests; wait a moment and try again.' };
    default:
      return {
        status: error.status === 503 ? 503 : 502,
        title: 'The ledger is not answering right now.',
        detail: 'Reload the record before trying again: the action may or may not have happened.',
        fields: [],
      };
  }
}

/** Maps anything a handler threw to what the operator is told; unknown errors say nothing about internals. */
export function readableError(error: unknown): ReadableError {
  if (error instanceof OpsApiError) return fromLedger(error);
  if (error instanceof AppError) {
    const title =
      error.code === 'forbidden'
        ? 'This form could not be verified.'
        : error.code === 'validation_failed'
          ? 'Check what you entered.'
          : error.code === 'not_found'
            ? 'There is no such page.'
            : error.code === 'payload_too_large'
              ? 'The form is too large.'
              : 'The request was refused.';
    return { status: error.status, title, detail: error.detail, fields: error.errors ?? [] };
  }
  const parser = error as { type?: string; status?: number };
  if (parser.type === 'entity.too.large') return { status: 413, title: 'The form is too large.', detail: '', fields: [] };
  if (parser.status === 400) return { status: 400, title: 'The form could not be read.', detail: '', fields: [] };
  return {
    status: 500,
    title: 'Something went wrong in the console.',
    detail: 'Reload the page; if it keeps happening, tell the on-call engineer the request id below.',
    fields: [],
  };
}

/** Step-up, where an approval asked for it: a code, then back to the page to press the button again. */
function stepUpForm(csrf: string, back: string) {
  return html`<form method="post" action="/account/2fa/verify" class="inline action step-up">
    <input type="hidden" name="_csrf" value="${csrf}" /><input type="hidden" name="_back" value="${back || '/review'}" />
    <label>Code <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="32" required autofocus /></label>
    <button type="submit" class="btn primary">Verify and go back</button>
  </form>`;
}

/** Console 404: an HTML page, not problem details; operators read it, not programs. */
export function notFoundPage(): RequestHandler {
  return (_req, _res, next) => {
    next(new AppError('not_found', 'Use the navigation to find what you were looking for.'));
  };
}

/**
 * Renders every error as a page the operator can act on. A 401 from the ledger means the token expired or
 * was revoked: the session is dropped and the browser goes to the login form.
 */
export function consoleErrorHandler(deps: ConsoleDeps): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof OpsApiError && error.status === 401 && error.reason !== 'otp_invalid') {
      clearSession(res, deps);
      res.redirect(303, '/login?notice=expired');
      return;
    }
    // OPERATOR_2FA_REQUIRED: until the operator enrolls, the ledger lets their token do nothing else.
    if (error instanceof OpsApiError && error.reason === 'otp_enrollment_required') {
      res.redirect(303, '/account/2fa?notice=two-factor-required');
      return;
    }
    const readable = readableError(error);
    if (readable.status >= 500)
      deps.logger.error('console request failed', { requestId: req.requestId, method: req.method, route: routeOf(req), error });
    const session = res.locals.consoleSession;
    const operator = session?.operator ?? null;
    const back = safeLocalPath(param(req.body, '_back'), '');
    const body = html`<section class="error" role="alert">
        <h2>${readable.title}</h2>
        ${readable.detail ? html`<p>${readable.detail}</p>` : ''}
        ${
          readable.fields.length > 0
            ? html`<ul>
                ${readable.fields.map((f) => html`<li><strong>${f.field}</strong> ${f.message}</li>`)}
              </ul>`
            : ''
        }
        ${error instanceof OpsApiError && error.reason === 'step_up_required' && session ? stepUpForm(deps.sessions.csrfToken(session.sid), back) : ''}
        <p class="muted">Request id: <code>${req.requestId}</code></p>
      </section>
      ${back ? html`<p><a class="btn plain" href="${safeUrl(back)}">← Back to the page</a></p>` : operator ? html`<p><a class="btn plain" href="/review">← Review queue</a></p>` : html`<p><a class="btn plain" href="/login">Log in</a></p>`}`;
    res
      .status(readable.status)
      .type('html')
      .send(
        renderPage(
          {
            title: readable.status === 404 ? 'Not found' : 'Could not do that',
            operator,
            csrf: session && operator ? deps.sessions.csrfToken(session.sid) : null,
          },
          body,
        ),
      );
  };
}
