import express, { type Router } from 'express';
import { pathParam, AppError } from '@kasa/http';
import type { OpsInput, OpsSite, SiteDeliveryHealth } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { currentLocale, t, th } from '../i18n/index.js';
import { facts } from '../views/components.js';
import { formatTime, formatTry, liraInputValue, readLira } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { waitedText } from './record-lists.js';
import { webhookSecretOnce } from './sites.page.js';
import { readSiteNumbers } from './site-form.js';

/** The site's webhook deliveries in one line: success rate, failing since, DEAD events. */
function deliveryLine(health: SiteDeliveryHealth | undefined): SafeHtml | string {
  if (!health) return '';
  const rate =
    health.successRate === null
      ? t('sites.deliveries.none')
      : t('sites.deliveries.rate', {
          rate: String(Math.round(health.successRate * 1000) / 10).replace('.', currentLocale() === 'tr' ? ',' : '.'),
        });
  return html`${rate}${
    health.failingSince
      ? html` ·
          <span class="badge danger">${t('sites.deliveries.failingFor', { time: waitedText(health.failingSince, new Date()) })}</span>`
      : ''
  }${
    health.deadEvents > 0
      ? html` ·
          <a href="/deliveries?status=DEAD&amp;siteId=${seg(health.siteId)}"
            >${t('sites.deliveries.dead', { count: health.deadEvents })}</a
          >`
      : ''
  }`;
}

/** The straight-through rule in words: off, or on up to its amount, with or without the sender check. */
function autoApproveLine(rule: OpsSite['autoApprove']): string {
  if (!rule.enabled) return t('sites.autoApprove.off');
  return t(rule.requireSenderMatch ? 'sites.autoApprove.onSender' : 'sites.autoApprove.onAnySender', { max: formatTry(rule.maxAmount) });
}

/**
 * The straight-through rule's fields (admins with every site: the ledger refuses the rule to an operator limited to
 * some sites, it is house-wide). The hidden `autoApproveInForm` says the fields were on the form, so an unticked box
 * reads as "off" and a form without them changes nothing of the rule.
 */
function autoApproveFields(rule: OpsSite['autoApprove']): SafeHtml {
  return html`<fieldset class="auto-approve">
    <legend>${t('sites.autoApprove.title')}</legend>
    <p class="hint">${t('sites.autoApprove.about')}</p>
    <input type="hidden" name="autoApproveInForm" value="1" />
    <label class="check"
      ><input type="checkbox" name="autoApproveEnabled" value="on" ${rule.enabled ? html` checked=""` : ''} />
      ${t('sites.autoApprove.enabled')}</label
    >
    <label
      >${t('sites.autoApprove.maxAmount')}
      <input
        type="text"
        name="autoApproveMaxAmount"
        inputmode="decimal"
        value="${rule.maxAmount === '0' ? '' : liraInputValue(rule.maxAmount)}"
      /><small>${t('sites.autoApprove.maxAmountHint')}</small></label
    >
    <label class="check"
      ><input type="checkbox" name="autoApproveRequireSenderMatch" value="on" ${rule.requireSenderMatch ? html` checked=""` : ''} />
      ${t('sites.autoApprove.senderMatch')}</label
    >
  </fieldset>`;
}

/**
 * The screening of deposit senders (admins with every site, like the straight-through rule: a compliance policy). The
 * hidden `screenSendersInForm` says the box was on the form, so an unticked box reads as "off".
 */
function screenSendersFields(on: boolean): SafeHtml {
  return html`<fieldset class="screen-senders">
    <legend>${t('sites.screenSenders.title')}</legend>
    <input type="hidden" name="screenSendersInForm" value="1" />
    <label class="check"
      ><input type="checkbox" name="screenDepositSenders" value="on" ${on ? html` checked=""` : ''} />
      ${t('sites.screenSenders.label')}</label
    >
    <p class="hint">${t('sites.screenSenders.hint')}</p>
  </fieldset>`;
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
    data-confirm="${t('sites.settings.confirm', { slug: site.slug })}"
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label>${t('sites.field.displayName')} <input type="text" name="name" required maxlength="140" value="${site.name}" /></label>
    <label
      >${t('sites.field.rateLimit')}
      <input type="number" name="rateLimitPerMinute" required min="1" max="100000" value="${String(site.rateLimitPerMinute)}"
    /></label>
    <label
      >${t('sites.field.depositTtl')}
      <input type="number" name="depositTtlSeconds" required min="1" max="604800" value="${String(site.depositTtlSeconds)}"
    /></label>
    <label
      >${t('sites.field.minAmount')}
      <input type="text" name="minAmount" required inputmode="decimal" value="${liraInputValue(site.minAmount)}"
    /></label>
    <label
      >${t('sites.field.maxAmount')}
      <input type="text" name="maxAmount" required inputmode="decimal" value="${liraInputValue(site.maxAmount)}"
    /></label>
    <label
      >${t('sites.field.returnUrl')} <input type="url" name="returnUrl" maxlength="2048" value="${site.returnUrl ?? ''}" /><small
        >${t('sites.field.returnUrlHint')}</small
      ></label
    >
    <label
      >${t('sites.field.dualApproval')}
      <input
        type="text"
        name="dualApprovalAbove"
        inputmode="decimal"
        value="${site.dualApprovalAbove === null ? '' : liraInputValue(site.dualApprovalAbove)}"
      /><small>${t('sites.field.dualApprovalHint')}</small></label
    >
    ${ctx.operator.scoped ? '' : autoApproveFields(site.autoApprove)}
    ${ctx.operator.scoped ? '' : screenSendersFields(site.screenDepositSenders)}
    <div class="form-end"><button type="submit" class="btn primary">${t('sites.settings.save')}</button></div>
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
      data-confirm="${t('sites.webhook.confirm')}"
    >
      <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
      <label for="webhook-url">${t('sites.field.webhookUrl')}</label>
      <input
        id="webhook-url"
        type="url"
        name="webhookUrl"
        required
        maxlength="2048"
        value="${webhookUrl ?? ''}"
        aria-describedby="webhook-url-hint"
      />
      <button type="submit" class="btn primary">${t('sites.webhook.save')}</button>
    </form>
    <p id="webhook-url-hint" class="hint">${t('sites.webhook.hint')}</p>`;
}

/** A site's settings and delivery health; admins also get the form to change them. */
export function siteSettingsSection(ctx: PageContext, site: OpsSite, health: SiteDeliveryHealth | undefined): SafeHtml {
  return html`<section>
    <h2>${t('sites.settings.title')}</h2>
    <div class="card">
      ${facts([
        [t('sites.fact.deliveries'), deliveryLine(health)],
        [t('sites.fact.rateLimit'), t('sites.fact.rateLimitValue', { count: site.rateLimitPerMinute })],
        [t('sites.fact.depositTtl'), t('sites.fact.seconds', { count: site.depositTtlSeconds })],
        [t('sites.fact.amounts'), t('sites.fact.amountsValue', { min: formatTry(site.minAmount), max: formatTry(site.maxAmount) })],
        [t('sites.fact.returnUrl'), site.returnUrl ? html`<code>${site.returnUrl}</code>` : t('sites.fact.none')],
        [
          t('sites.fact.dualApproval'),
          site.dualApprovalAbove === null ? t('sites.fact.serviceDefault') : formatTry(site.dualApprovalAbove),
        ],
        [t('sites.fact.autoApprove'), autoApproveLine(site.autoApprove)],
        [t('sites.fact.screenSenders'), t(site.screenDepositSenders ? 'sites.screenSenders.on' : 'sites.screenSenders.off')],
        [t('sites.fact.created'), formatTime(site.createdAt)],
      ])}
      <p class="muted">
        ${th('sites.settings.audited', {
          link: html`<a href="/audit?entityType=site&amp;entityId=${seg(site.siteId)}">${t('sites.settings.auditLink')}</a>`,
        })}
      </p>
      ${ctx.isAdmin ? settingsForm(ctx, site) : html`<p class="hint">${t('sites.settings.adminOnly')}</p>`}
      ${ctx.isAdmin && ctx.operator.scoped ? html`<p class="hint">${t('sites.autoApprove.houseWide')}</p>` : ''}
    </div>
  </section>`;
}

/** The settings the update call takes. */
type SiteChanges = NonNullable<OpsInput<'updateSite'>['body']>;

/**
 * The straight-through rule as the form holds it, when its fields were on the form: `enabled` always (the ops API
 * needs it), the amount and the sender check only when they changed. Null when the form changes nothing of the rule.
 */
function changedAutoApprove(
  rule: OpsSite['autoApprove'],
  field: (name: string) => string,
  bad: Array<{ field: string; message: string }>,
): SiteChanges['autoApprove'] | null {
  if (field('autoApproveInForm') !== '1') return null;
  const enabled = field('autoApproveEnabled') === 'on';
  const requireSenderMatch = field('autoApproveRequireSenderMatch') === 'on';
  // A site whose rule was never set has no limit (0): the field is empty, and switching the rule on needs one.
  const typed = field('autoApproveMaxAmount').trim();
  const read = typed ? readLira(typed) : { minor: rule.maxAmount };
  if (!('minor' in read) || (enabled && read.minor === '0')) {
    bad.push({ field: 'autoApproveMaxAmount', message: 'minor' in read ? t('sites.autoApprove.maxRequired') : read.problem });
    return null;
  }
  const change = {
    enabled,
    ...(read.minor !== rule.maxAmount ? { maxAmount: read.minor } : {}),
    ...(requireSenderMatch !== rule.requireSenderMatch ? { requireSenderMatch } : {}),
  };
  return enabled !== rule.enabled || Object.keys(change).length > 1 ? change : null;
}

/**
 * The settings the form changed, in the ops API's types: only what differs from the site now is sent, so
 * the audit entry lists exactly what the admin changed. Bad input names its field. (The webhook URL is not
 * among them: {@link webhookUrlForm} saves it.)
 */
export function changedSettings(site: OpsSite, field: (name: string) => string): SiteChanges {
  const out: SiteChanges = {};
  const { values, bad } = readSiteNumbers(field, true);
  if (values.rateLimitPerMinute !== undefined && values.rateLimitPerMinute !== site.rateLimitPerMinute)
    out.rateLimitPerMinute = values.rateLimitPerMinute;
  if (values.depositTtlSeconds !== undefined && values.depositTtlSeconds !== site.depositTtlSeconds)
    out.depositTtlSeconds = values.depositTtlSeconds;
  if (values.minAmount !== undefined && values.minAmount !== site.minAmount) out.minAmount = values.minAmount;
  if (values.maxAmount !== undefined && values.maxAmount !== site.maxAmount) out.maxAmount = values.maxAmount;
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
  const autoApprove = changedAutoApprove(site.autoApprove, field, bad);
  if (autoApprove) out.autoApprove = autoApprove;
  if (field('screenSendersInForm') === '1') {
    const screenDepositSenders = field('screenDepositSenders') === 'on';
    if (screenDepositSenders !== site.screenDepositSenders) out.screenDepositSenders = screenDepositSenders;
  }
  if (bad.length > 0) throw AppError.validation(bad, t('sites.settings.invalid'));
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
    if (!webhookUrl) throw AppError.validation([{ field: 'webhookUrl', message: t('sites.webhook.required') }], t('sites.webhook.missing'));
    const site = await ctx.ops.call('getSite', { params: { siteId } });
    if (webhookUrl === site.webhookUrl) {
      ctx.done('site-unchanged', `/sites/${seg(siteId)}`);
      return;
    }
    const saved = await ctx.ops.call('updateSite', { params: { siteId }, body: { webhookUrl } });
    if (saved.webhookSecret) {
      // A first webhook URL came with the site's signing secret: shown here, this once.
      pageContext(deps, req, res).render(t('sites.site.title', { slug: saved.slug }), 'sites', webhookSecretOnce(saved));
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
      pageContext(deps, req, res).render(t('sites.site.title', { slug: saved.slug }), 'sites', webhookSecretOnce(saved));
      return;
    }
    ctx.done('site-settings-saved', `/sites/${seg(siteId)}`);
  });
  return router;
}
