import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { OpsApiKey } from '@kasa/contracts';
import { siteSettingsSection } from './site-settings.page.js';
import { testWebhookSection } from './site-test-webhook.page.js';
import { actionForm, facts, type FormContext } from '../views/components.js';
import { formatTime, formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';

function revokeForm(ctx: FormContext, apiKeyId: string, siteId: string): SafeHtml {
  return actionForm(ctx, {
    action: '/api-keys/revoke',
    label: 'Revoke',
    tone: 'danger',
    confirm: `Revoke API key ${apiKeyId}? The partner's requests with it fail from the next one on.`,
    fields: html`<input type="hidden" name="apiKeyId" value="${apiKeyId}" /><input type="hidden" name="siteId" value="${siteId}" />`,
  });
}

/** The keys of a site; admins get a column to revoke the active ones. */
function keyColumns(ctx: PageContext, siteId: string): Array<Column<OpsApiKey>> {
  const columns: Array<Column<OpsApiKey>> = [
    { header: 'Key id', cell: (k) => html`<code>${k.apiKeyId}</code>` },
    { header: 'Prefix', cell: (k) => html`<code>${k.keyPrefix}</code>` },
    { header: 'Issued', cell: (k) => formatTime(k.createdAt) },
    { header: 'Revoked', cell: (k) => (k.revokedAt ? formatTime(k.revokedAt) : html`<span class="badge ok">active</span>`) },
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
      ? html`<a href="/sites/${seg(settings.testSiteId)}">its sandbox</a> (test keys, test records, no real money)`
      : 'none yet: issuing a test key creates it';
    const body = html`<section class="card">
        ${
          settings.livemode
            ? ''
            : html`<p class="warn">
                <span class="badge info">TEST</span> This is a sandbox: test keys, simulated money and test records only. Its live site is
                <a href="/sites/${seg(settings.liveSiteId ?? '')}">here</a>.
              </p>`
        }
        ${facts([
          ['Name', site.name],
          ['Slug', html`<code>${site.slug}</code>`],
          ['Sandbox', settings.livemode ? sandbox : null],
          ['Site id', html`<code>${site.siteId}</code>`],
          ['Available', formatTry(site.available)],
          ['Reserved', formatTry(site.reserved)],
          ['Received in total', formatTry(site.receivedTotal)],
          ['Paid out in total', formatTry(site.paidOutTotal)],
        ])}
      </section>
      ${siteSettingsSection(ctx, settings, health.data[0])} ${testWebhookSection(ctx, siteId, settings.webhookUrl)}
      <section>
        <h2>API keys</h2>
        ${table({
          columns: keyColumns(ctx, siteId),
          rows: keyList.data,
          rowId: (k) => k.apiKeyId,
          empty: 'No key has been issued for this site.',
        })}
        <p class="muted">
          Who issued or revoked each key is in the <a href="/audit?siteId=${seg(siteId)}&amp;entityType=api_key">audit log</a>.
        </p>
        ${
          !ctx.isAdmin
            ? html`<p class="hint">Issuing and revoking keys needs the admin role.</p>`
            : settings.livemode
              ? html`<div class="actions">
                  ${actionForm(ctx, {
                    action: `/sites/${seg(siteId)}/api-keys`,
                    label: 'Issue a new API key',
                    tone: 'primary',
                    confirm: `Issue a new live API key for ${site.slug}? It is shown once.`,
                  })}
                  ${actionForm(ctx, {
                    action: `/sites/${seg(siteId)}/api-keys`,
                    label: 'Issue a test key',
                    confirm: `Issue a test key (sk_test_) for ${site.slug}'s sandbox? It is shown once.`,
                    fields: html`<input type="hidden" name="mode" value="test" />`,
                  })}
                </div>`
              : html`<p class="hint">Test keys are issued on the live site's page.</p>`
        }
      </section>`;
    ctx.render(`Site ${site.slug}`, 'sites', body);
  });

  router.post('/sites/:siteId/api-keys', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const mode = (req.body as Record<string, unknown> | undefined)?.mode === 'test' ? 'test' : 'live';
    const key = await ctx.ops.call('issueApiKey', { params: { siteId: pathParam(req, 'siteId') }, body: { mode } });
    // Rendered directly, not redirected: the key exists nowhere else, so it must not go into a URL or a cookie.
    const body = html`<section class="card key-once">
      <p class="warn">
        <strong>Copy this key now.</strong> It is shown only this once; Kasa stores only its hash. Send it to the partner over a secure
        channel.
      </p>
      ${facts([
        ['API key', html`<code class="secret" data-copy="${key.apiKey}">${key.apiKey}</code>`],
        ['Mode', key.mode === 'test' ? html`<span class="badge info">TEST</span> the sandbox: simulated money only` : 'live'],
        ['Key id', html`<code>${key.apiKeyId}</code>`],
        ['Prefix', html`<code>${key.keyPrefix}</code>`],
        ['Issued', formatTime(key.createdAt)],
      ])}
      <p><a class="btn plain" href="/sites/${seg(key.siteId)}">Done — back to the site</a></p>
    </section>`;
    ctx.render('New API key', 'sites', body, 201);
  });

  router.post('/api-keys/revoke', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/sites');
    await ctx.ops.call('revokeApiKey', { params: { apiKeyId: ctx.field('apiKeyId') } });
    const siteId = ctx.field('siteId');
    ctx.done('key-revoked', siteId ? `/sites/${seg(siteId)}` : ctx.back);
  });

  return router;
}
