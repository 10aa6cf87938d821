import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import type { LoginResult } from '@kasa/contracts';
import { OpsApiError } from '@kasa/ops-client';
import { clearSession, operatorOf, requireOperator, safeLocalPath, verifyCsrf, writeSession } from '../session/session.middleware.js';
import { consoleRole, newSession } from '../session/session.js';
import { t, type MessageKey } from '../i18n/index.js';
import { html } from '../views/html.js';
import { renderPage } from '../views/layout.js';
import { noticeText } from '../views/notices.js';
import { param } from './page-context.js';

/** How long a login form stays usable: its anonymous session carries the CSRF token for the POST. */
const LOGIN_FORM_TTL_MS = 2 * 3600 * 1000;

interface LoginView {
  csrf: string;
  next: string;
  email?: string;
  error?: string | null;
  notice?: string | null;
  /** The ledger asked for the second-factor code: the form asks for it (and the password again, which is never kept). */
  askCode?: boolean;
}

/** The login page's own path and query, where the language switch returns to (with the page to go on to). */
function loginPath(next: string): string {
  return next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`;
}

function loginPage(view: LoginView): string {
  const body = html`<form method="post" action="/login" class="card login">
    ${view.error ? html`<p class="error-line" role="alert">${view.error}</p>` : ''}
    <input type="hidden" name="_csrf" value="${view.csrf}" />
    <input type="hidden" name="next" value="${view.next}" />
    <label
      >${t('auth.login.email')} <input type="email" name="email" value="${view.email ?? ''}" autocomplete="username" required autofocus
    /></label>
    <label>${t('auth.login.password')} <input type="password" name="password" autocomplete="current-password" required /></label>
    ${
      view.askCode
        ? html`<label
            >${t('auth.login.code')}
            <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="32" required placeholder="123456" />
            <small>${t('auth.login.codeHint')}</small></label
          >`
        : ''
    }
    <button type="submit" class="btn primary">${t('auth.login.submit')}</button>
  </form>`;
  return renderPage(
    { title: t('auth.login.title'), operator: null, csrf: null, notice: view.notice ?? null, here: loginPath(view.next) },
    body,
  );
}

// The ledger refuses a bank connector's account (403): a machine, never a person at the console.
const LOGIN_ERRORS: Record<number, MessageKey> = {
  400: 'auth.login.invalidInput',
  401: 'auth.login.wrongCredentials',
  403: 'auth.login.connectorRefused',
};

/** "Try again in 4 minutes" from the ledger's Retry-After; the same words whichever allowance ran out. */
export function throttledMessage(retryAfterSeconds: number | null): string {
  if (retryAfterSeconds === null) return t('auth.login.throttled');
  if (retryAfterSeconds < 60) {
    const count = Math.max(1, retryAfterSeconds);
    return count === 1 ? t('auth.login.throttled.second') : t('auth.login.throttled.seconds', { count });
  }
  const count = Math.ceil(retryAfterSeconds / 60);
  return count === 1 ? t('auth.login.throttled.minute') : t('auth.login.throttled.minutes', { count });
}

/**
 * `GET/POST /login` (open to anyone) and `POST /logout`. Login trades e-mail and password for a ledger
 * token and keeps it only inside the sealed cookie; the session id is new at every login, so a session
 * planted before login is worthless after it.
 */
export function loginRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/login', (req, res) => {
    const current = res.locals.consoleSession;
    const next = safeLocalPath(param(req.query, 'next'), '/');
    if (current?.operator) {
      res.redirect(303, next);
      return;
    }
    const session = current ?? newSession(deps.clock(), LOGIN_FORM_TTL_MS);
    if (!current) writeSession(res, deps, session);
    res.type('html').send(loginPage({ csrf: deps.sessions.csrfToken(session.sid), next, notice: noticeText(req.query.notice) }));
  });

  router.post('/login', async (req, res) => {
    const next = safeLocalPath(param(req.body, 'next'), '/');
    const email = (param(req.body, 'email') ?? '').trim();
    const password = param(req.body, 'password') ?? '';
    // Every failure starts a fresh anonymous session, so the re-rendered form always carries a valid token.
    const code = (param(req.body, 'code') ?? '').trim();
    const fail = (status: number, error: string, retryAfterSeconds: number | null = null, askCode = code !== '') => {
      const session = newSession(deps.clock(), LOGIN_FORM_TTL_MS);
      writeSession(res, deps, session);
      if (retryAfterSeconds !== null) res.setHeader('Retry-After', String(retryAfterSeconds));
      res
        .status(status)
        .type('html')
        .send(loginPage({ csrf: deps.sessions.csrfToken(session.sid), next, email, error, askCode }));
    };
    const current = res.locals.consoleSession;
    if (!current || !deps.sessions.verifyCsrf(current.sid, param(req.body, '_csrf'))) {
      fail(403, t('auth.login.formExpired'));
      return;
    }
    if (!email || !password) {
      fail(400, t('auth.login.missing'));
      return;
    }
    let result: LoginResult;
    try {
      // The ledger counts attempts per client address: the browser's, vouched for with the internal token.
      // Proxy headers count only from the proxies TRUST_PROXY names; by default the browser is whoever opened the socket.
      const address = req.ip;
      const client = address ? { address, internalToken: deps.config.internalToken } : undefined;
      result = await deps.ledger.with({ requestId: req.requestId }).login({ email, password, ...(code ? { code } : {}) }, client);
    } catch (error) {
      if (!(error instanceof OpsApiError)) throw error;
      if (error.reason === 'otp_required' || error.reason === 'otp_invalid') {
        fail(401, t(error.reason === 'otp_invalid' ? 'auth.login.codeWrong' : 'auth.login.codeAsked'), null, true);
        return;
      }
      const throttled = error.status === 429;
      const known = LOGIN_ERRORS[error.status];
      const message = throttled ? throttledMessage(error.retryAfterSeconds) : known && t(known);
      fail(throttled || message ? error.status : 503, message ?? t('auth.login.ledgerDown'), error.retryAfterSeconds);
      return;
    }
    const { operator } = result;
    const role = consoleRole(operator.role);
    if (!role) {
      fail(403, t('auth.login.connectorRefused'));
      return;
    }
    const expiresAt = Date.parse(result.expiresAt);
    const now = deps.clock();
    const session = newSession(now, expiresAt - now.getTime(), {
      token: result.token,
      tokenId: result.tokenId,
      operatorId: operator.operatorId,
      email: operator.email,
      name: operator.name,
      role,
      ...(operator.siteIds.length > 0 ? { scoped: true } : {}),
    });
    writeSession(res, deps, session);
    res.redirect(303, next);
  });

  router.post('/logout', requireOperator, verifyCsrf(deps), async (req, res) => {
    const operator = operatorOf(res);
    let notice = 'signed-out';
    try {
      await deps.ledger.with({ token: operator.token, requestId: req.requestId }).logout();
    } catch (error) {
      // 401: the token was already expired or revoked, which is what logging out wants anyway.
      if (!(error instanceof OpsApiError && error.status === 401)) {
        deps.logger.warn('logout could not revoke the operator token', { requestId: req.requestId, tokenId: operator.tokenId, error });
        notice = 'signed-out-locally';
      }
    }
    clearSession(res, deps);
    res.redirect(303, `/login?notice=${notice}`);
  });

  return router;
}
