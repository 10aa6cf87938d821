import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import { seg } from '@kasa/ops-client';
import { TEST_WEBHOOK_TYPES } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { t, th } from '../i18n/index.js';
import { facts } from '../views/components.js';
import { html, type SafeHtml } from '../views/html.js';
import { pageContext, param, type PageContext } from './page-context.js';
import { WEBHOOK_SAVED_QUERY, webhookUrlForm } from './site-settings.page.js';

/** What marks a test webhook's body (JSON, the same in every language). */
const TEST_FLAG = '"test": true';

/** The test webhook's form: a type (any event type, or `ping`) and the button. */
function testWebhookForm(ctx: PageContext, siteId: string): SafeHtml {
  return html`<form method="post" action="/sites/${seg(siteId)}/test-webhook" class="inline action">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${t('sites.testWebhook.type')}
      <select name="type">
        ${TEST_WEBHOOK_TYPES.map((type) => (type === 'ping' ? html`<option selected>${type}</option>` : html`<option>${type}</option>`))}
      </select></label
    >
    <button type="submit" class="btn plain">${t('sites.testWebhook.send')}</button>
  </form>`;
}

/**
 * A site's webhook on its page: the URL (admins change it with its own small form) and "Send a test webhook": an
 * operator helping a partner sends one signed sample (any event type, or `ping`) to the site's webhook URL and sees
 * at once how the partner's endpoint answered. Nothing is recorded. Right after the URL was saved the section says
 * so, with the test webhook beside the notice, to check the new address at once.
 */
export function testWebhookSection(ctx: PageContext, siteId: string, webhookUrl: string | null): SafeHtml {
  const urlPart = ctx.isAdmin
    ? webhookUrlForm(ctx, siteId, webhookUrl)
    : html`<p>${th('sites.webhook.readOnly', { url: webhookUrl ? html`<code>${webhookUrl}</code>` : t('sites.notSet') })}</p>`;
  if (!webhookUrl) {
    return html`<section id="webhook">
      <h2>${t('sites.webhook.title')}</h2>
      <div class="card">
        ${urlPart}
        <p class="muted">${t('sites.webhook.noUrl')}</p>
      </div>
    </section>`;
  }
  const about = th('sites.testWebhook.about', { flag: html`<code>${TEST_FLAG}</code>`, url: html`<code>${webhookUrl}</code>` });
  return html`<section id="webhook">
    <h2>${t('sites.webhook.title')}</h2>
    <div class="card">
      ${urlPart}
      ${
        ctx.query(WEBHOOK_SAVED_QUERY) === 'saved'
          ? html`<div class="notice webhook-saved" role="status">
              <p>${th('sites.webhook.saved', { strong: html`<strong>${t('sites.webhook.savedTitle')}</strong>` })}</p>
              ${testWebhookForm(ctx, siteId)}
              <p class="detail">${about}</p>
            </div>`
          : html`<h3>${t('sites.testWebhook.title')}</h3>
              ${testWebhookForm(ctx, siteId)}
              <p class="muted">${about}</p>`
      }
    </div>
  </section>`;
}

/** `POST /sites/:siteId/test-webhook`: sends it and shows the answer (rendered, not redirected: nothing was stored). */
export function siteTestWebhookRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.post('/sites/:siteId/test-webhook', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const siteId = pathParam(req, 'siteId');
    const chosen = param(req.body, 'type') ?? 'ping';
    const type = (TEST_WEBHOOK_TYPES as readonly string[]).includes(chosen) ? (chosen as (typeof TEST_WEBHOOK_TYPES)[number]) : 'ping';
    const result = await ctx.ops.call('testSiteWebhook', { params: { siteId }, body: { type } });
    const body = html`<section class="card test-webhook-result">
      <p class="${result.delivered ? 'ok' : 'warn'}">
        ${
          result.delivered
            ? html`<span class="badge ok">${t('sites.testWebhook.delivered')}</span>
                ${t('sites.testWebhook.answered', { status: String(result.statusCode) })}`
            : html`<span class="badge danger">${t('sites.testWebhook.notDelivered')}</span> ${
                  result.statusCode === null
                    ? t('sites.testWebhook.noAnswer')
                    : t('sites.testWebhook.answered', { status: String(result.statusCode) })
                }`
        }
      </p>
      ${facts([
        [t('sites.testWebhook.type'), html`<code>${type}</code>`],
        [t('sites.testWebhook.statusCode'), result.statusCode === null ? t('sites.fact.none') : String(result.statusCode)],
        [t('sites.testWebhook.duration'), t('sites.testWebhook.ms', { ms: result.durationMs })],
        [t('sites.testWebhook.error'), result.error ? html`<code>${result.error}</code>` : null],
      ])}
      <p><a class="btn plain" href="/sites/${seg(siteId)}">${t('sites.testWebhook.back')}</a></p>
    </section>`;
    ctx.render(t('sites.testWebhook.title'), 'sites', body);
  });
  return router;
}
