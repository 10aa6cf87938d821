import express, { type Router } from 'express';
import { pathParam, AppError } from '@kasa/http';
import type { OpsSite, SiteDeliveryHealth } from '@kasa/contracts';
import { seg, waitedFor } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { facts } from '../views/components.js';
import { formatTime, formatTry, liraInputValue } from '../views/format.js';
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

/** The form an admin changes settings with, filled with the current ones (amounts in lira). */
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
      >Webhook URL <input type="url" name="webhookUrl" maxlength="2048" value="${site.webhookUrl ?? ''}" /><small
        >https; the partner can also change it with its webhook-config call.</small
      ></label
    >
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
    <div><button type="submit" class="btn primary">Save settings</button></div>
  </form>`;
}

/** A site's settings and delivery health; admins also get the form to change them. */
export function siteSettingsSection(ctx: PageContext, site: OpsSite, health: SiteDeliveryHealth | undefined): SafeHtml {
  return html`<section>
    <h2>Settings</h2>
    <div class="card">
      ${facts([
        ['Webhook URL', site.webhookUrl ? html`<code>${site.webhookUrl}</code>` : 'not set'],
        ['Deliveries', deliveryLine(health)],
        ['Rate limit', `${site.rateLimitPerMinute} requests a minute per key`],
        ['Deposit lifetime', `${site.depositTtlSeconds} s`],
        ['Amounts', `${formatTry(site.minAmount)} to ${formatTry(site.maxAmount)}`],
        ['Return URL', site.returnUrl ? html`<code>${site.returnUrl}</code>` : 'none'],
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
 * the audit entry lists exactly what the admin changed. Bad input names its field.
 */
export function changedSettings(site: OpsSite, field: (name: string) => string): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  const { values, bad } = readSiteNumbers(field, true);
  for (const name of Object.keys(values) as Array<keyof SiteNumbers>)
    if (values[name] !== site[name]) out[name] = values[name] as string | number;
  if (field('name') !== site.name) out.name = field('name');
  if (field('webhookUrl') && field('webhookUrl') !== site.webhookUrl) out.webhookUrl = field('webhookUrl');
  const returnUrl = field('returnUrl') || null;
  if (returnUrl !== site.returnUrl) out.returnUrl = returnUrl;
  if (bad.length > 0) throw AppError.validation(bad, 'The settings are not valid; nothing was changed.');
  return out;
}

/** `POST /sites/:siteId/settings` (admins): the form's changes, sent as one PATCH; the ledger audits them. */
export function siteSettingsRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
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
