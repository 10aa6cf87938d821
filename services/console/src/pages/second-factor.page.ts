import express, { type Router } from 'express';
import type { OpsPrincipal, SecondFactorConfirmed, SecondFactorEnrollment } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { facts } from '../views/components.js';
import { formatTime } from '../views/format.js';
import { t, th } from '../i18n/index.js';
import { html, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';

/** Where the operator's own second factor is managed (the e-mail in the header leads here). */
export const SECOND_FACTOR_PAGE = '/account/2fa';

/**
 * The QR code of an enrollment, drawn from the ledger's SVG: only its size and the one path of dark modules are
 * read back out and put into markup of our own, so nothing from the answer reaches the page as markup.
 */
export function qrCode(dataUrl: string): SafeHtml {
  const svg = Buffer.from(dataUrl.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString('utf8');
  const viewBox = /viewBox="([\d. ]+)"/.exec(svg)?.[1] ?? '0 0 0 0';
  const modules = /<path stroke="[^"]*" d="([MmHhVv\d. ]+)"/.exec(svg)?.[1] ?? '';
  return html`<svg
    class="qr"
    xmlns="http://www.w3.org/2000/svg"
    viewBox="${viewBox}"
    shape-rendering="crispEdges"
    role="img"
    aria-label="${t('auth.2fa.qr')}"
  >
    <rect width="100%" height="100%" fill="#ffffff" />
    <path stroke="#000000" d="${modules}" />
  </svg>`;
}

function codeInput(): SafeHtml {
  return html`<label
    >${t('auth.2fa.code')}
    <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="32" required placeholder="123456"
  /></label>`;
}

function hidden(ctx: PageContext): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />`;
}

function statusView(ctx: PageContext, me: OpsPrincipal): SafeHtml {
  if (me.secondFactor === 'ENROLLED') {
    return html`<section class="card">
        <p><span class="badge ok">${t('auth.2fa.badgeOn')}</span> ${t('auth.2fa.enrolled')}</p>
        <p class="muted">${t('auth.2fa.stepUpNote')}</p>
        <form method="post" action="/account/2fa/verify" class="inline action">
          ${hidden(ctx)} ${codeInput()}
          <button type="submit" class="btn primary">${t('auth.2fa.verify')}</button>
        </form>
      </section>
      <section class="card">
        <h2>${t('auth.2fa.turnOffTitle')}</h2>
        <p class="muted">${t('auth.2fa.turnOffNote')}</p>
        <form method="post" action="/account/2fa/disable" class="inline action" data-confirm="${t('auth.2fa.turnOffConfirm')}">
          ${hidden(ctx)} ${codeInput()}
          <button type="submit" class="btn danger">${t('auth.2fa.turnOff')}</button>
        </form>
      </section>`;
  }
  return html`<section class="card">
    ${
      me.secondFactor === 'REQUIRED'
        ? html`<p class="warn"><strong>${t('auth.2fa.required')}</strong> ${t('auth.2fa.requiredNext')}</p>`
        : html`<p><span class="badge">${t('auth.2fa.badgeOff')}</span> ${t('auth.2fa.passwordOnly')}</p>`
    }
    <p>${t('auth.2fa.needApp')}</p>
    <form method="post" action="/account/2fa/enroll" class="inline action">
      ${hidden(ctx)}
      <button type="submit" class="btn primary">${t('auth.2fa.setUp')}</button>
    </form>
  </section>`;
}

/** The started enrollment: the QR and the secret to type, shown on this one answer, and the form for the first code. */
function enrollmentView(ctx: PageContext, enrollment: SecondFactorEnrollment): SafeHtml {
  return html`<section class="card enroll-2fa">
    <ol>
      <li>${t('auth.2fa.scan')}</li>
      <li>${t('auth.2fa.digits')}</li>
    </ol>
    ${qrCode(enrollment.qrDataUrl)}
    <p class="muted">${th('auth.2fa.typeKey', { key: html`<code class="secret">${enrollment.secret}</code>` })}</p>
    <form method="post" action="/account/2fa/confirm" class="inline action">
      ${hidden(ctx)} ${codeInput()}
      <button type="submit" class="btn primary">${t('auth.2fa.turnOn')}</button>
    </form>
  </section>`;
}

function recoveryCodesView(confirmed: SecondFactorConfirmed): SafeHtml {
  return html`<section class="card key-once">
    <p class="warn"><strong>${t('auth.2fa.saveCodes')}</strong> ${t('auth.2fa.codesOnce')}</p>
    <ul class="recovery-codes">
      ${confirmed.recoveryCodes.map((recovery) => html`<li><code>${recovery}</code></li>`)}
    </ul>
    ${facts([[t('auth.2fa.onSince'), formatTime(confirmed.enrolledAt)]])}
    <p><a class="btn plain" href="/review">${t('auth.2fa.done')}</a></p>
  </section>`;
}

/**
 * `/account/2fa`: the operator's own second factor. Enroll (QR and key shown once, confirmed with a first code,
 * then the recovery codes shown once), step up with a code, turn it off with a code.
 */
export function secondFactorRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get(SECOND_FACTOR_PAGE, async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const me = await ctx.ops.call('whoAmI');
    ctx.render(t('auth.2fa.title'), 'account', statusView(ctx, me));
  });

  router.post('/account/2fa/enroll', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    ctx.render(t('auth.2fa.enrollTitle'), 'account', enrollmentView(ctx, await ctx.ops.call('enrollSecondFactor')), 201);
  });

  router.post('/account/2fa/confirm', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const code = actionContext(deps, req, res, SECOND_FACTOR_PAGE).field('code');
    ctx.render(t('auth.2fa.onTitle'), 'account', recoveryCodesView(await ctx.ops.call('confirmSecondFactor', { body: { code } })));
  });

  // Step-up: the page that asked (an approval) is where the operator goes back to, to press the button again.
  router.post('/account/2fa/verify', async (req, res) => {
    const action = actionContext(deps, req, res, SECOND_FACTOR_PAGE);
    await action.ops.call('verifySecondFactor', { body: { code: action.field('code') } });
    action.done('code-verified');
  });

  router.post('/account/2fa/disable', async (req, res) => {
    const action = actionContext(deps, req, res, SECOND_FACTOR_PAGE);
    const code = action.field('code');
    await action.ops.call('disableSecondFactor', { params: { operatorId: action.operator.operatorId }, body: code ? { code } : {} });
    action.done('two-factor-off', SECOND_FACTOR_PAGE);
  });

  return router;
}
