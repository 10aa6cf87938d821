import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import type { DepositPageView } from '@kasa/contracts';
import { localUrl, safeUrl } from '@kasa/html';
import { renderDepositPage, renderLinkNotFoundPage } from './render.js';
import { LANGUAGES, pickLanguage } from './i18n.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
// Read once at start: the page's script and stylesheet never change while the gateway runs.
const CLIENT_SCRIPT = readFileSync(new URL('./deposit-page.client.js', import.meta.url), 'utf8');
const STYLESHEET = readFileSync(new URL('./deposit-page.css', import.meta.url), 'utf8');
const SCRIPT_URL = safeUrl('/deposit/assets/deposit-page.js');
const STYLESHEET_URL = safeUrl('/deposit/assets/deposit-page.css');

const NOT_FOUND_PAGES = Object.fromEntries(LANGUAGES.map((lang) => [lang, renderLinkNotFoundPage(STYLESHEET_URL, lang)]));

/**
 * The hosted deposit page `/deposit/:token`, rendered on the server so the first byte already shows the
 * amount, bank details and reference. The token is hashed here and never forwarded or logged in clear.
 */
export function depositPageRoutes(deps: GatewayDeps): Router {
  const router = express.Router();

  router.get('/assets/deposit-page.js', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/javascript').send(CLIENT_SCRIPT);
  });
  router.get('/assets/deposit-page.css', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('text/css').send(STYLESHEET);
  });

  const load = async (token: string, requestId: string): Promise<DepositPageView | null> => {
    if (!TOKEN.test(token)) return null;
    const hash = createHash('sha256').update(token).digest('hex');
    try {
      const res = await deps.ledger.request('GET', `/internal/v1/deposit-pages/${hash}`, requestId);
      return JSON.parse(res.body) as DepositPageView;
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }
  };

  router.get('/:token', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // The answer depends on the browser's language unless ?lang= chooses.
    res.setHeader('Vary', 'Accept-Language');
    const lang = pickLanguage(req.query.lang, req.get('accept-language'));
    const view = await load(String(req.params.token), req.requestId);
    if (!view) {
      res.status(404).type('html').send(NOT_FOUND_PAGES[lang]);
      return;
    }
    const token = String(req.params.token);
    const urls = {
      status: localUrl`/deposit/${token}/status`,
      script: SCRIPT_URL,
      stylesheet: STYLESHEET_URL,
      otherLanguage: localUrl`/deposit/${token}?lang=${lang === 'tr' ? 'en' : 'tr'}`,
    };
    res
      .status(view.status === 'AUTO_CANCELLED' ? 410 : 200)
      .type('html')
      .send(renderDepositPage(view, urls, lang));
  });

  router.get('/:token/status', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const view = await load(String(req.params.token), req.requestId);
    if (!view) throw new AppError('not_found', 'No deposit page for this link.');
    res.json({ status: view.status, expiresAt: view.expiresAt });
  });

  return router;
}
