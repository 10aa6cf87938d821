/**
 * The language and time zone of the request being served. The locale middleware sets them for the rest of the
 * request (AsyncLocalStorage), so the message catalogue and the time formats read them without every view
 * passing them along. Outside a request (a unit test rendering a view) it is English in Europe/Istanbul.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Request, RequestHandler, Response, Router } from 'express';
import express from 'express';
import { preferredLanguage } from '@kasa/html';
import { safeLocalPath } from '../session/session.middleware.js';

export const LOCALES = ['tr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

/** The cookie that remembers an operator's choice of language, for a year, in this browser. */
export const LANGUAGE_COOKIE = 'kasa_console_lang';
const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

interface LocaleContext {
  locale: Locale;
  timeZone: string;
}

const storage = new AsyncLocalStorage<LocaleContext>();
const OUTSIDE: LocaleContext = { locale: 'en', timeZone: 'Europe/Istanbul' };

export function currentLocale(): Locale {
  return (storage.getStore() ?? OUTSIDE).locale;
}

export function currentTimeZone(): string {
  return (storage.getStore() ?? OUTSIDE).timeZone;
}

/** Runs `work` as if serving a request in `locale` (tests and the screenshot tour use it). */
export function withLocale<T>(locale: Locale, work: () => T, timeZone = OUTSIDE.timeZone): T {
  return storage.run({ locale, timeZone }, work);
}

function cookieLocale(req: Request): Locale | null {
  const header = req.get('cookie') ?? '';
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE && (value === 'tr' || value === 'en')) return value;
  }
  return null;
}

/**
 * The operator's language: the one they chose (the cookie), else Turkish for a browser that prefers Turkish to
 * English, else English.
 */
export function requestLocale(req: Request): Locale {
  return cookieLocale(req) ?? preferredLanguage(req.get('accept-language'), LOCALES, 'en');
}

/** Serves the rest of the request in its operator's language and the desk's time zone. */
export function localeMiddleware(timeZone: string): RequestHandler {
  return (req: Request, res: Response, next) => {
    const locale = requestLocale(req);
    res.locals.locale = locale;
    // Pages differ by language: a shared cache must not hand one operator's language to another.
    res.vary('Accept-Language');
    storage.run({ locale, timeZone }, next);
  };
}

/**
 * `GET /language?to=tr&back=/review`: remembers the choice and returns to the page. Open to anyone (the login page
 * has the switch too); it changes nothing but this browser's cookie.
 */
export function languageRoutes(secureCookie: boolean): Router {
  const router = express.Router();
  router.get('/language', (req, res) => {
    const to = req.query.to;
    if (to !== 'tr' && to !== 'en') {
      res.status(400).type('text').send('Unknown language: use to=tr or to=en.');
      return;
    }
    res.cookie(LANGUAGE_COOKIE, to, { maxAge: YEAR_MS, sameSite: 'lax', httpOnly: true, secure: secureCookie, path: '/' });
    res.redirect(303, safeLocalPath(req.query.back, '/'));
  });
  return router;
}
