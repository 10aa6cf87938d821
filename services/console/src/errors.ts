import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { ErrorReason, FieldError } from '@kasa/contracts';
import { AppError, routeOf } from '@kasa/http';
import { OpsApiError } from '@kasa/ops-client';
import type { ConsoleDeps } from './console-deps.js';
import { param } from './pages/page-context.js';
import { clearSession, safeLocalPath } from './session/session.middleware.js';
import { currentLocale, MESSAGES, t, th, type MessageKey } from './i18n/index.js';
import { html, safeUrl, type SafeHtml } from './views/html.js';
import { renderPage } from './views/layout.js';

/** An error as an operator reads it: what happened in one line, the ledger's explanation, the fields. */
export interface ReadableError {
  status: number;
  title: string;
  detail: string;
  fields: FieldError[];
  /** The detail and fields are the ledger's words (English), not the console's. */
  fromLedger?: boolean;
}

/**
 * What the operator is told about each 409, by the ledger's reason (docs/errors.md, conflict): what happened and,
 * where there is one, what to do instead (messages/errors.ts). The key is derived from `ErrorReason`, so a new reason
 * does not compile until the catalogue has its line.
 */
function reasonKey(reason: ErrorReason): MessageKey {
  return `errors.reason.${reason}`;
}

function isReason(reason: string): reason is ErrorReason {
  return Object.prototype.hasOwnProperty.call(MESSAGES.en, `errors.reason.${reason}`);
}

/** What the operator is told about a ledger reason (a 409's or a step-up's); null for a reason the console has no words for. */
export function reasonTitle(reason: string): string | null {
  return isReason(reason) ? t(reasonKey(reason)) : null;
}

function fromLedger(error: OpsApiError): ReadableError {
  // The ledger's own explanation is English: a Turkish page says so (ledgerSaid) where it shows it.
  const base = { detail: error.detail, fields: error.fieldErrors, fromLedger: true };
  // A wrong second-factor code: the session is fine, the operator tries another code.
  if (error.status === 401 && error.reason === 'otp_invalid') return { ...base, status: 400, title: t(reasonKey('otp_invalid')) };
  switch (error.status) {
    case 400:
      return { ...base, status: 400, title: t('errors.ledger.invalid') };
    case 403:
      return { ...base, status: 403, title: t(error.reason ? reasonKey(error.reason) : 'errors.ledger.forbidden') };
    case 404:
      return { ...base, status: 404, title: t('errors.ledger.notFound') };
    case 409:
      return { ...base, status: 409, title: t(error.reason ? reasonKey(error.reason) : 'errors.ledger.conflict') };
    case 429:
      return { ...base, status: 429, title: t('errors.ledger.tooMany') };
    default:
      return {
        status: error.status === 503 ? 503 : 502,
        title: t('errors.ledger.down'),
        detail: t('errors.ledger.downDetail'),
        fields: [],
      };
  }
}

const APP_ERROR_TITLES: Partial<Record<string, MessageKey>> = {
  forbidden: 'errors.console.forbidden',
  validation_failed: 'errors.console.invalid',
  not_found: 'errors.console.notFound',
  payload_too_large: 'errors.console.tooLarge',
};

/** Maps anything a handler threw to what the operator is told; unknown errors say nothing about internals. */
export function readableError(error: unknown): ReadableError {
  if (error instanceof OpsApiError) return fromLedger(error);
  if (error instanceof AppError) {
    const title = t(APP_ERROR_TITLES[error.code] ?? 'errors.console.refused');
    return { status: error.status, title, detail: error.detail, fields: error.errors ?? [] };
  }
  const parser = error as { type?: string; status?: number };
  if (parser.type === 'entity.too.large') return { status: 413, title: t('errors.console.tooLarge'), detail: '', fields: [] };
  if (parser.status === 400) return { status: 400, title: t('errors.console.unreadable'), detail: '', fields: [] };
  return {
    status: 500,
    title: t('errors.console.crashed'),
    detail: t('errors.console.crashedDetail'),
    fields: [],
  };
}

/**
 * The ledger's explanation and field errors (English prose from the ops API): on a Turkish page under a line saying
 * whose words they are, marked as English for screen readers.
 */
function details(readable: ReadableError): SafeHtml {
  const fields =
    readable.fields.length > 0
      ? html`<ul>
          ${readable.fields.map((f) => html`<li><strong>${f.field}</strong> ${f.message}</li>`)}
        </ul>`
      : '';
  if (!readable.detail && !fields) return html``;
  if (readable.fromLedger && currentLocale() !== 'en')
    return html`<div class="ledger-said">
      <p>${t('errors.ledger.said')}</p>
      <div lang="en">${readable.detail ? html`<p>${readable.detail}</p>` : ''} ${fields}</div>
    </div>`;
  return html`${readable.detail ? html`<p>${readable.detail}</p>` : ''} ${fields}`;
}

/** Step-up, where an approval asked for it: a code, then back to the page to press the button again. */
function stepUpForm(csrf: string, back: string) {
  return html`<form method="post" action="/account/2fa/verify" class="inline action step-up">
    <input type="hidden" name="_csrf" value="${csrf}" /><input type="hidden" name="_back" value="${back || '/review'}" />
    <label
      >${t('errors.stepUp.code')}
      <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="32" required autofocus
    /></label>
    <button type="submit" class="btn primary">${t('errors.stepUp.submit')}</button>
  </form>`;
}

/** Console 404: an HTML page, not problem details; operators read it, not programs. */
export function notFoundPage(): RequestHandler {
  return (_req, _res, next) => {
    next(new AppError('not_found', t('errors.console.notFoundDetail')));
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
        ${details(readable)}
        ${error instanceof OpsApiError && error.reason === 'step_up_required' && session ? stepUpForm(deps.sessions.csrfToken(session.sid), back) : ''}
        <p class="muted">${th('errors.page.requestId', { id: html`<code>${req.requestId}</code>` })}</p>
      </section>
      ${back ? html`<p><a class="btn plain" href="${safeUrl(back)}">${t('errors.page.back')}</a></p>` : operator ? html`<p><a class="btn plain" href="/review">${t('errors.page.review')}</a></p>` : html`<p><a class="btn plain" href="/login">${t('errors.page.login')}</a></p>`}`;
    res
      .status(readable.status)
      .type('html')
      .send(
        renderPage(
          {
            title: t(readable.status === 404 ? 'errors.page.notFound' : 'errors.page.failed'),
            operator,
            csrf: session && operator ? deps.sessions.csrfToken(session.sid) : null,
            // The language switch reloads a page that was read; after a form it goes back to the form's page.
            here: req.method === 'GET' ? safeLocalPath(req.originalUrl, '/') : back || '/',
          },
          body,
        ),
      );
  };
}
