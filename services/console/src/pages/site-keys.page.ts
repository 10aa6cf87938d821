import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { OpsApiKey } from '@kasa/contracts';
import { siteSettingsSection } from './site-settings.page.js';
import { testWebhookSection } from './site-test-webhook.page.js';
import { t, th } from '../i18n/index.js';
import { actionForm, facts, type FormContext } from '../views/components.js';
import { formatTime, formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';

function revokeForm(ctx: FormContext, apiKeyId: string, siteId: string): SafeHtml {
  return actionForm(ctx, {
    action: '/api-keys/revoke',
    label: t('sites.keys.revoke'),
    tone: 'danger',
    confirm: t('sites.keys.revokeConfirm', { id: apiKeyId }),
    fields: html`<input type="hidden" name="apiKeyId" value="${apiKeyId}" /><input type="hidden" name="siteId" value="${siteId}" />`,
  });
}

/** The keys of a site; admins get a column to revoke the active ones. */
function keyColumns(ctx: PageContext, siteId: string): Array<Column<OpsApiKey>> {
  const columns: Array<Column<OpsApiKey>> = [
    { header: t('sites.keys.id'), cell: (k) => html`<code>${k.apiKeyId}</code>` },
    { header: t('sites.keys.prefix'), cell: (k) => html`<code>${k.keyPrefix}</code>` },
    { header: t('sites.keys.issued'), cell: (k) => formatTime(k.createdAt) },
    {
      header: t('sites.keys.revoked'),
      cell: (k) => (k.revokedAt ? formatTime(k.revokedAt) : html`<span class="badge ok">${t('sites.keys.active')}</span>`),
    },
  ];
  if (ctx.isAdmin) columns.push({ header: '', cell: (k) => (k.revokedAt ? '' : revokeForm(ctx, k.apiKeyId, siteId)) });
  return columns;
}

/** `/sites/:siteId`: balance and keys of one site; admins issue keys (shown once) and revoke them. */
export function siteKeyRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/sites/:siteId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const siteId = pathParam(req, 'siteId');
    const [site, keyList, settings, health] = await Promise.all([
      ctx.ops.call('getSiteBalance', { params: { siteId } }),
      ctx.ops.call('listApiKeys', { params: { siteId } }),
      ctx.ops.call('getSite', { params: { siteId } }),
      ctx.ops.call('deliveryHealth', { query: { siteId } }),
    ]);
    const sandbox = settings.testSiteId
      ? th('sites.sandbox.link', { link: html`<a href="/sites/${seg(settings.testSiteId)}">${t('sites.sandbox.its')}</a>` })
      : t('sites.sandbox.none');
    const body = html`<section class="card">
        ${
          settings.livemode
            ? ''
            : html`<p class="warn">
                <span class="badge info">${t('sites.badge.test')}</span>
                ${th('sites.sandbox.warn', { link: html`<a href="/sites/${seg(settings.liveSiteId ?? '')}">${t('sites.sandbox.here')}</a>` })}
              </p>`
        }
        ${facts([
          [t('sites.field.name'), site.name],
          [t('sites.field.slug'), html`<code>${site.slug}</code>`],
          [t('sites.fact.sandbox'), settings.livemode ? sandbox : null],
          [t('sites.fact.siteId'), html`<code>${site.siteId}</code>`],
          [t('sites.fact.available'), formatTry(site.available)],
          [t('sites.fact.reserved'), formatTry(site.reserved)],
          [t('sites.fact.received'), formatTry(site.receivedTotal)],
          [t('sites.fact.paidOut'), formatTry(site.paidOutTotal)],
          [t('sites.fact.adjusted'), formatTry(site.adjustedTotal)],
        ])}
      </section>
      ${siteSettingsSection(ctx, settings, health.data[0])} ${testWebhookSection(ctx, siteId, settings.webhookUrl)}
      <section>
        <h2>${t('sites.keys.title')}</h2>
        ${table({
          columns: keyColumns(ctx, siteId),
          rows: keyList.data,
          rowId: (k) => k.apiKeyId,
          empty: t('sites.keys.empty'),
        })}
        <p class="muted">
          ${th('sites.keys.audited', {
            link: html`<a href="/audit?siteId=${seg(siteId)}&amp;entityType=api_key">${t('sites.settings.auditLink')}</a>`,
          })}
        </p>
        ${
          !ctx.isAdmin
            ? html`<p class="hint">${t('sites.keys.adminOnly')}</p>`
            : settings.livemode
              ? html`<div class="actions">
                  ${actionForm(ctx, {
                    action: `/sites/${seg(siteId)}/api-keys`,
                    label: t('sites.keys.issueLive'),
                    tone: 'primary',
                    confirm: t('sites.keys.issueLiveConfirm', { slug: site.slug }),
                  })}
                  ${actionForm(ctx, {
                    action: `/sites/${seg(siteId)}/api-keys`,
                    label: t('sites.keys.issueTest'),
                    confirm: t('sites.keys.issueTestConfirm', { slug: site.slug }),
                    fields: html`<input type="hidden" name="mode" value="test" />`,
                  })}
                </div>`
              : html`<p class="hint">${t('sites.keys.testOnLive')}</p>`
        }
      </section>`;
    ctx.render(t('sites.site.title', { slug: site.slug }), 'sites', body);
  });

  router.post('/sites/:siteId/api-keys', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const mode = (req.body as Record<string, unknown> | undefined)?.mode === 'test' ? 'test' : 'live';
    const key = await ctx.ops.call('issueApiKey', { params: { siteId: pathParam(req, 'siteId') }, body: { mode } });
    // Rendered directly, not redirected: the key exists nowhere else, so it must not go into a URL or a cookie.
    const body = html`<section class="card key-once">
      <p class="warn">${th('sites.keys.onceWarn', { strong: html`<strong>${t('sites.keys.copyNow')}</strong>` })}</p>
      ${facts([
        [t('sites.keys.key'), html`<code class="secret" data-copy="${key.apiKey}">${key.apiKey}</code>`],
        [
          t('sites.keys.mode'),
          key.mode === 'test'
            ? html`<span class="badge info">${t('sites.badge.test')}</span> ${t('sites.keys.modeTest')}`
            : t('sites.keys.modeLive'),
        ],
        [t('sites.keys.id'), html`<code>${key.apiKeyId}</code>`],
        [t('sites.keys.prefix'), html`<code>${key.keyPrefix}</code>`],
        [t('sites.keys.issued'), formatTime(key.createdAt)],
      ])}
      <p><a class="btn plain" href="/sites/${seg(key.siteId)}">${t('sites.keys.done')}</a></p>
    </section>`;
    ctx.render(t('sites.keys.newTitle'), 'sites', body, 201);
  });

  router.post('/api-keys/revoke', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/sites');
    await ctx.ops.call('revokeApiKey', { params: { apiKeyId: ctx.field('apiKeyId') } });
    const siteId = ctx.field('siteId');
    ctx.done('key-revoked', siteId ? `/sites/${seg(siteId)}` : ctx.back);
  });

  return router;
}
