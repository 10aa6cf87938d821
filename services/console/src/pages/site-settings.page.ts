import express, { type Router } from 'express';
import { pathParam, AppError } from '@kasa/http';
import type { OpsSite, SiteDeliveryHealth } from '@kasa/contracts';
import { seg, waitedFor } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { facts } from '../views/components.js';
import { formatTime, formatTry, liraInputValue, readLira } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { webhookSecretOnce } from './sites.page.js';
import { readSiteNumbers, type SiteNumbers } from './site-form.js';

/** The site's webhook deliveries in one line: success rate, failing since, DEAD events. */
function deliveryLine(health: SiteDeliveryHealth | undefined): SafeHtml | string {
  if (!health) return '';
  const rate = health.successRate === null ? 'no deliveries in 24 h' : `${Math.round(health.successRate * 1000) / 10} % delivered in 24 h`;
  return html`${rate}${
    health.failingSince ? html` · <span class="badge danger">failing for ${waitedFor(health.failingSince, new Date())}</span>` : ''
  }${
    health.deadEvents > 0 ? html` · <a href="/deliveries?status=DEAD&amp;siteId=${seg(health.siteId)}">${health.deadEvents} DEAD</a>` : ''
  }`;
}

/**
 * The form an admin changes the site's other settings with, filled with the current ones (amounts in lira, as the
 * tables write them). One labelled field per setting; {@link changedSettings} reads them back. The webhook URL has
 * its own form ({@link webhookUrlForm}), beside the test webhook it is checked with.
 */
function settingsForm(ctx: PageContext, site: OpsSite): SafeHtml {
  return html`<form
    method="post"
    action="${safeUrl(`/sites/${seg(site.siteId)}/settings`)}"
    class="grid-form"
    data-confirm="Save the settings of ${site.slug}? The change is audited."
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label>Display name <input type="text" name="name" required maxlength="140" value="${site.name}" /></label>
    <label
      >Rate limit (requests/minute)
      <input type="number" name="rateLimitPerMinute" required min="1" max="100000" value="${String(site.rateLimitPerMinute)}"
    /></label>
    <label
      >Deposit lifetime (seconds)
      <input type="number" name="depositTtlSeconds" required min="1" max="604800" value="${String(site.depositTtlSeconds)}"
    /></label>
    <label
      >Minimum amount in lira (TRY)
      <input type="text" name="minAmount" required inputmode="decimal" value="${liraInputValue(site.minAmount)}"
    /></label>
    <label
      >Maximum amount in lira (TRY)
      <input type="text" name="maxAmount" required inputmode="decimal" value="${liraInputValue(site.maxAmount)}"
    /></label>
    <label
      >Return URL <input type="url" name="returnUrl" maxlength="2048" value="${site.returnUrl ?? ''}" /><small
        >Empty: no way back unless a deposit names one.</small
      ></label
    >
    <label
      >Four-eyes above, in lira (TRY)
      <input
        type="text"
        name="dualApprovalAbove"
        inputmode="decimal"
        value="${site.dualApprovalAbove === null ? '' : liraInputValue(site.dualApprovalAbove)}"
      /><small>A withdrawal or return above this needs two operators. Empty: the service default.</small></label
    >
    <div><button type="submit" class="btn primary">Save settings</button></div>
  </form>`;
}

/**
 * The webhook URL alone (admins): saved on its own, it brings the operator back to the site's Webhook section with
 * "Webhook URL saved" and the "Send a test webhook" button, to check the new address at once.
 */
export function webhookUrlForm(ctx: PageContext, siteId: string, webhookUrl: string | null): SafeHtml {
  return html`<form
      method="post"
      action="${safeUrl(`/sites/${seg(siteId)}/webhook-url`)}"
      class="webhook-url-form"
      data-confirm="Send this site's webhooks to the new URL from now on? The change is audited."
    >
      <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
      <label for="webhook-url">Webhook URL</label>
      <input
        id="webhook-url"
        type="url"
        name="webhookUrl"
        required
        maxlength="2048"
        value="${webhookUrl ?? ''}"
        aria-describedby="webhook-url-hint"
      />
      <button type="submit" class="btn primary">Save webhook URL</button>
    </form>
    <p id="webhook-url-hint" class="hint">
      https only; the partner can also change it with its webhook-config call. The change is audited.
    </p>`;
}

/** A site's settings and delivery health; admins also get the form to change them. */
export function siteSettingsSection(ctx: PageContext, site: OpsSite, health: SiteDeliveryHealth | undefined): SafeHtml {
  return html`<section>
    <h2>Settings</h2>
    <div class="card">
      ${facts([
        ['Deliveries', deliveryLine(health)],
        ['Rate limit', `${site.rateLimitPerMinute} requests a minute per key`],
        ['Deposit lifetime', `${site.depositTtlSeconds} s`],
        ['Amounts', `${formatTry(site.minAmount)} to ${formatTry(site.maxAmount)}`],
        ['Return URL', site.returnUrl ? html`<code>${site.returnUrl}</code>` : 'none'],
        ['Four-eyes above', site.dualApprovalAbove === null ? 'the service default' : formatTry(site.dualApprovalAbove)],
        ['Created', formatTime(site.createdAt)],
      ])}
      <p class="muted">
        Every change is in the <a href="/audit?entityType=site&amp;entityId=${seg(site.siteId)}">audit log</a> with its before and after.
      </p>
      ${ctx.isAdmin ? settingsForm(ctx, site) : html`<p class="hint">Changing settings needs the admin role.</p>`}
    </div>
  </section>`;
}

/**
 * The settings the form changed, in the ops API's types: only what differs from the site now is sent, so
 * the audit entry lists exactly what the admin changed. Bad input names its field. (The webhook URL is not
 * among them: {@link webhookUrlForm} saves it.)
 */
export function changedSettings(site: OpsSite, field: (name: string) => string): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  const { values, bad } = readSiteNumbers(field, true);
  for (const name of Object.keys(values) as Array<keyof SiteNumbers>)
    if (values[name] !== site[name]) out[name] = values[name] as string | number;
  if (field('name') !== site.name) out.name = field('name');
  const returnUrl = field('returnUrl') || null;
  if (returnUrl !== site.returnUrl) out.returnUrl = returnUrl;
  // Four-eyes threshold: empty goes back to the service default (null), else an amount in lira (0 allowed).
  const dual = field('dualApprovalAbove').trim();
  if (!dual) {
    if (site.dualApprovalAbove !== null) out.dualApprovalAbove = null;
  } else {
    // 0 (every payout needs two) is a threshold, though no amount a deposit or withdrawal may have.
    const read = /^0+(?:[.,]0{1,2})?$/.test(dual) ? { minor: '0' } : readLira(dual);
    if ('minor' in read) {
      if (read.minor !== site.dualApprovalAbove) out.dualApprovalAbove = read.minor;
    } else bad.push({ field: 'dualApprovalAbove', message: read.problem });
  }
  if (bad.length > 0) throw AppError.validation(bad, 'The settings are not valid; nothing was changed.');
  return out;
}

/** Where a saved webhook URL lands: the site's Webhook section, saying so, with the test webhook at hand. */
export const WEBHOOK_SAVED_QUERY = 'webhook';

/**
 * `POST /sites/:siteId/settings` (admins): the form's changes, sent as one PATCH; the ledger audits them.
 * `POST /sites/:siteId/webhook-url` (admins): the webhook URL alone, the same way.
 */
export function siteSettingsRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.post('/sites/:siteId/webhook-url', async (req, res) => {
    const siteId = pathParam(req, 'siteId');
    const ctx = actionContext(deps, req, res, `/sites/${seg(siteId)}`);
    const webhookUrl = ctx.field('webhookUrl');
    if (!webhookUrl)
      throw AppError.validation([{ field: 'webhookUrl', message: 'is required' }], 'Enter the webhook URL; nothing was changed.');
    const site = await ctx.ops.call('getSite', { params: { siteId } });
    if (webhookUrl === site.webhookUrl) {
      ctx.done('site-unchanged', `/sites/${seg(siteId)}`);
      return;
    }
    const saved = await ctx.ops.call('updateSite', { params: { siteId }, body: { webhookUrl } });
    if (saved.webhookSecret) {
      // A first webhook URL came with the site's signing secret: shown here, this once.
      pageContext(deps, req, res).render(`Site ${saved.slug}`, 'sites', webhookSecretOnce(saved));
      return;
    }
    res.redirect(303, `/sites/${seg(siteId)}?${WEBHOOK_SAVED_QUERY}=saved#webhook`);
  });

  router.post('/sites/:siteId/settings', async (req, res) => {
    const siteId = pathParam(req, 'siteId');
    const ctx = actionContext(deps, req, res, `/sites/${seg(siteId)}`);
    const site = await ctx.ops.call('getSite', { params: { siteId } });
    const changes = changedSettings(site, (name) => ctx.field(name));
    if (Object.keys(changes).length === 0) {
      ctx.done('site-unchanged', `/sites/${seg(siteId)}`);
      return;
    }
    const saved = await ctx.ops.call('updateSite', { params: { siteId }, body: changes });
    if (saved.webhookSecret) {
      // A first webhook URL came with the site's signing secret: shown here, this once.
      pageContext(deps, req, res).render(`Site ${saved.slug}`, 'sites', webhookSecretOnce(saved));
      return;
    }
    ctx.done('site-settings-saved', `/sites/${seg(siteId)}`);
  });
  return router;
}
