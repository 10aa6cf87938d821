import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '@kasa/http';
import { t } from '../i18n/index.js';
import type { ConsoleSession, SessionOperator, SessionSealer } from './session.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Locals {
      /** The browser's session as its cookie carried it; null when there is none or it did not open. */
      consoleSession?: ConsoleSession | null;
    }
  }
}

/** What the session middleware needs: the sealer, a clock and where the console is served from. */
export interface SessionDeps {
  sessions: SessionSealer;
  clock: () => Date;
  config: { consolePublicUrl: string };
}

/**
 * Over https the cookie is Secure and takes the `__Host-` prefix, which browsers accept only from a secure
 * origin with Path=/ and no Domain, so a sibling subdomain cannot plant or overwrite it.
 */
export function cookieName(publicUrl: string): string {
  return publicUrl.startsWith('https:') ? '__Host-kasa_console' : 'kasa_console';
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

/** Opens the session cookie of every request into `res.locals.consoleSession`. */
export function loadSession(deps: SessionDeps): RequestHandler {
  const name = cookieName(deps.config.consolePublicUrl);
  return (req, res, next) => {
    res.locals.consoleSession = deps.sessions.open(readCookie(req, name), deps.clock());
    next();
  };
}

/** Sets the sealed cookie; a logged-in session's cookie expires with the ledger token inside it. */
export function writeSession(res: Response, deps: SessionDeps, session: ConsoleSession): void {
  res.locals.consoleSession = session;
  res.cookie(cookieName(deps.config.consolePublicUrl), deps.sessions.seal(session), {
    httpOnly: true,
    sameSite: 'strict',
    secure: deps.config.consolePublicUrl.startsWith('https:'),
    path: '/',
    ...(session.operator ? { expires: new Date(session.expiresAt) } : {}),
  });
}

export function clearSession(res: Response, deps: SessionDeps): void {
  res.locals.consoleSession = null;
  res.clearCookie(cookieName(deps.config.consolePublicUrl), {
    httpOnly: true,
    sameSite: 'strict',
    secure: deps.config.consolePublicUrl.startsWith('https:'),
    path: '/',
  });
}

/** A relative path on this console, or `fallback`: never lets a link or form send the browser elsewhere. */
export function safeLocalPath(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.length < 2048 && /^\/(?![/\\])[^\s]*$/.test(value) ? value : fallback;
}

/** Lets logged-in operators through; anyone else goes to the login form (and comes back after). */
export const requireOperator: RequestHandler = (req, res, next) => {
  if (res.locals.consoleSession?.operator) {
    next();
    return;
  }
  const next_ = req.method === 'GET' ? safeLocalPath(req.originalUrl, '/') : '/';
  res.redirect(303, next_ === '/' ? '/login' : `/login?next=${encodeURIComponent(next_)}`);
};

/** The logged-in operator of a request that passed {@link requireOperator}. */
export function operatorOf(res: Response): SessionOperator {
  const operator = res.locals.consoleSession?.operator;
  if (!operator) throw new AppError('unauthorized', t('auth.session.loginFirst'));
  return operator;
}

/**
 * Refuses a state-changing request unless its `_csrf` field is the HMAC of this session's id. A browser
 * that is not ours cannot read the token (it is only in our pages), and SameSite=Strict keeps the cookie
 * off cross-site requests as a second line. A cross-origin Origin header is refused outright.
 */
export function verifyCsrf(deps: SessionDeps): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    const origin = req.get('origin');
    // Under Referrer-Policy: no-referrer browsers send `Origin: null` even for our own forms, so only a
    // real foreign origin is refused here; the token below is the check that always applies.
    const crossOrigin = origin !== undefined && origin !== 'null' && hostOf(origin) !== req.get('host');
    const session = res.locals.consoleSession;
    const body = req.body as Record<string, unknown> | undefined;
    if (crossOrigin || !session || !deps.sessions.verifyCsrf(session.sid, body?._csrf)) {
      next(new AppError('forbidden', t('auth.session.csrf')));
      return;
    }
    next();
  };
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
