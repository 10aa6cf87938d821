import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import { seg } from '@kasa/ops-client';
import { TEST_WEBHOOK_TYPES } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { facts } from '../views/components.js';
import { html, type SafeHtml } from '../views/html.js';
import { pageContext, param, type PageContext } from './page-context.js';
import { WEBHOOK_SAVED_QUERY, webhookUrlForm } from './site-settings.page.js';

/** The test webhook's form: a type (any event type, or `ping`) and the button. */
function testWebhookForm(ctx: PageContext, siteId: string): SafeHtml {
  return html`<form method="post" action="/sites/${seg(siteId)}/test-webhook" class="inline action">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >Type
      <select name="type">
        ${TEST_WEBHOOK_TYPES.map((type) => html`<option${type === 'ping' ? html` selected` : ''}>${type}</option>`)}
      </select></label
    >
    <button type="submit" class="btn plain">Send a test webhook</button>
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
    : html`<p>Webhook URL: ${webhookUrl ? html`<code>${webhookUrl}</code>` : 'not set'}. Changing it needs the admin role.</p>`;
  if (!webhookUrl) {
    return html`<section id="webhook">
      <h2>Webhook</h2>
      <div class="card">
        ${urlPart}
        <p class="muted">The site has no webhook URL yet, so there is nowhere to send a test webhook.</p>
      </div>
    </section>`;
  }
  const about = html`A signed sample with <code>"test": true</code>, sent now to <code>${webhookUrl}</code>; it is not retried and not
    written to the deliveries.`;
  return html`<section id="webhook">
    <h2>Webhook</h2>
    <div class="card">
      ${urlPart}
      ${
        ctx.query(WEBHOOK_SAVED_QUERY) === 'saved'
          ? html`<div class="notice webhook-saved" role="status">
              <p><strong>Webhook URL saved.</strong> Send a test webhook to check that the partner's endpoint answers there.</p>
              ${testWebhookForm(ctx, siteId)}
              <p class="detail">${about}</p>
            </div>`
          : html`<h3>Test webhook</h3>
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
            ? html`<span class="badge ok">delivered</span> The endpoint answered ${result.statusCode}.`
            : html`<span class="badge danger">not delivered</span> ${
                  result.statusCode === null ? 'No answer arrived.' : `The endpoint answered ${result.statusCode}.`
                }`
        }
      </p>
      ${facts([
        ['Type', html`<code>${type}</code>`],
        ['Status code', result.statusCode === null ? 'none' : String(result.statusCode)],
        ['Duration', `${result.durationMs} ms`],
        ['Error', result.error ? html`<code>${result.error}</code>` : null],
      ])}
      <p><a class="btn plain" href="/sites/${seg(siteId)}">Back to the site</a></p>
    </section>`;
    ctx.render('Test webhook', 'sites', body);
  });
  return router;
}
