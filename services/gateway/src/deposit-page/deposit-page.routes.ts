import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { GatewayDeps } from '../gateway-deps.js';
import type { DepositPageView } from '@kasa/contracts';
import { localUrl, safeUrl } from '@kasa/html';
import { renderCrossSitePage, renderDepositPage, renderLinkNotFoundPage } from './render.js';
import { LANGUAGES, pickLanguage } from './i18n.js';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
// Read once at start: the page's script and stylesheet never change while the gateway runs.
const CLIENT_SCRIPT = readFileSync(new URL('./deposit-page.client.js', import.meta.url), 'utf8');
const STYLESHEET = readFileSync(new URL('./deposit-page.css', import.meta.url), 'utf8');
const SCRIPT_URL = safeUrl('/deposit/assets/deposit-page.js');
const STYLESHEET_URL = safeUrl('/deposit/assets/deposit-page.css');

const NOT_FOUND_PAGES = Object.fromEntries(LANGUAGES.map((lang) => [lang, renderLinkNotFoundPage(STYLESHEET_URL, lang)]));

/**
 * A browser says where a request comes from in Sec-Fetch-Site; only the page itself (same-origin) may post.
 * Older browsers send no Sec-Fetch-Site: an Origin naming another host is refused there. (The page's
 * no-referrer policy makes a browser send `Origin: null` for its own form posts, so null is not a verdict.)
 */
function postedFromElsewhere(fetchSite: string | undefined, origin: string | undefined, host: string | undefined): boolean {
  if (fetchSite !== undefined) return fetchSite !== 'same-origin';
  if (origin === undefined || origin === 'null') return false;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

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

  /**
   * Links that name no deposit are counted per client address (UNKNOWN_PAGE_TOKEN_ATTEMPTS_PER_MINUTE); an address
   * past its allowance gets the 429 contract (Retry-After, RateLimit headers) for every link until the window ends,
   * without a ledger call, so guessing links costs the guesser.
   */
  const guard = async (req: express.Request): Promise<string> => {
    const address = req.ip ?? 'unknown';
    const refusal = await deps.unknownPageTokens.refusalFor(address);
    if (refusal) throw refusal;
    return address;
  };
  const unknown = async (address: string): Promise<null> => {
    await deps.unknownPageTokens.recordFailure(address);
    return null;
  };

  const load = async (token: string, req: express.Request): Promise<DepositPageView | null> => {
    const address = await guard(req);
    if (!TOKEN.test(token)) return unknown(address);
    const hash = createHash('sha256').update(token).digest('hex');
    try {
      const res = await deps.ledger.call('getDepositPage', { tokenHash: hash }, req.requestId);
      return JSON.parse(res.body) as DepositPageView;
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return unknown(address);
      throw error;
    }
  };

  router.get('/:token', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    // The answer depends on the browser's language unless ?lang= chooses.
    res.setHeader('Vary', 'Accept-Language');
    const lang = pickLanguage(req.query.lang, req.get('accept-language'));
    const view = await load(String(req.params.token), req);
    if (!view) {
      res.status(404).type('html').send(NOT_FOUND_PAGES[lang]);
      return;
    }
    const token = String(req.params.token);
    const urls = {
      status: localUrl`/deposit/${token}/status`,
      page: localUrl`/deposit/${token}?lang=${lang}`,
      script: SCRIPT_URL,
      stylesheet: STYLESHEET_URL,
      otherLanguage: localUrl`/deposit/${token}?lang=${lang === 'tr' ? 'en' : 'tr'}`,
      confirm: localUrl`/deposit/${token}/confirm?lang=${lang}`,
      simulate: localUrl`/deposit/${token}/simulate?lang=${lang}`,
    };
    res
      .status(view.status === 'AUTO_CANCELLED' ? 410 : 200)
      .type('html')
      .send(renderDepositPage(view, urls, lang));
  });

  /**
   * A post from the page itself: refused when a browser says another site made it; otherwise the ledger's route
   * for this token's hash, then back to the page (303), which now shows what changed.
   */
  const postFromPage =
    (ledgerAction: 'confirmDepositPage' | 'simulateDepositPageTransfer'): express.RequestHandler =>
    async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const lang = pickLanguage(req.query.lang, req.get('accept-language'));
      if (postedFromElsewhere(req.get('sec-fetch-site'), req.get('origin'), req.get('host'))) {
        res.status(403).type('html').send(renderCrossSitePage(STYLESHEET_URL, lang));
        return;
      }
      const token = String(req.params.token);
      const address = await guard(req);
      if (!TOKEN.test(token)) {
        await unknown(address);
        res.status(404).type('html').send(NOT_FOUND_PAGES[lang]);
        return;
      }
      const hash = createHash('sha256').update(token).digest('hex');
      try {
        await deps.ledger.call(ledgerAction, { tokenHash: hash }, req.requestId, { body: {} });
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found') {
          await unknown(address);
          res.status(404).type('html').send(NOT_FOUND_PAGES[lang]);
          return;
        }
        throw error;
      }
      res.redirect(303, localUrl`/deposit/${token}?lang=${lang}`.value);
    };

  // "I have sent the transfer": a form POST from the page itself, recorded once by the ledger, then back to
  // the page (303), which now says what happens next. The token is the capability; a post another site makes
  // a browser send (Sec-Fetch-Site, or an Origin that is not this host) is refused.
  router.post('/:token/confirm', postFromPage('confirmDepositPage'));
  // A test deposit's "Simulate the transfer", under the same rule: the ledger's simulator sends the money, and the
  // page comes back received or approved. The ledger answers 404 for a live deposit, whatever the post says.
  router.post('/:token/simulate', postFromPage('simulateDepositPageTransfer'));

  router.get('/:token/status', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const view = await load(String(req.params.token), req);
    if (!view) throw new AppError('not_found', 'No deposit page for this link.');
    // What the page's script compares with what it shows; when it differs, it fetches the page and swaps it in.
    res.json({
      status: view.status,
      expiresAt: view.expiresAt,
      secondsLeft: view.secondsLeft,
      creditedAmount: view.creditedAmount,
      userConfirmed: view.userConfirmedAt !== null,
    });
  });

  return router;
}
