import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { CreatedSite, OpsSite } from '@kasa/contracts';
import { facts } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { readSiteNumbers } from './site-form.js';

function createSiteForm(ctx: PageContext): SafeHtml {
  return html`<form method="post" action="/sites" class="card grid-form" data-confirm="Create this site?">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >Slug
      <input
        type="text"
        name="slug"
        required
        minlength="2"
        maxlength="32"
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        placeholder="ornek-bahis"
      /><small>Lower-case letters, digits, hyphens; becomes part of the API keys.</small></label
    >
    <label>Name <input type="text" name="name" required maxlength="140" placeholder="Örnek Bahis" /></label>
    <label
      >Webhook URL <input type="url" name="webhookUrl" maxlength="2048" placeholder="https://partner.example/webhooks/kasa" /><small
        >Optional; https only.</small
      ></label
    >
    <label
      >Return URL <input type="url" name="returnUrl" maxlength="2048" placeholder="https://partner.example/wallet" /><small
        >Optional; where the deposit page sends users back when a deposit names no returnUrl.</small
      ></label
    >
    <label>Rate limit (requests/minute) <input type="number" name="rateLimitPerMinute" min="1" max="100000" placeholder="60" /></label>
    <label>Deposit lifetime (seconds) <input type="number" name="depositTtlSeconds" min="1" max="604800" placeholder="1800" /></label>
    <label>Minimum amount in lira (TRY) <input type="text" name="minAmount" inputmode="decimal" placeholder="10,00" /></label>
    <label>Maximum amount in lira (TRY) <input type="text" name="maxAmount" inputmode="decimal" placeholder="1.000.000,00" /></label>
    <div><button type="submit" class="btn primary">Create site</button></div>
  </form>`;
}

/** The optional settings of a new site, from form text to the ops API's types; bad input names its field. */
function siteSettings(field: (name: string) => string): Record<string, string | number> {
  const { values, bad } = readSiteNumbers(field, false);
  const out: Record<string, string | number> = { ...values };
  for (const name of ['webhookUrl', 'returnUrl']) if (field(name)) out[name] = field(name);
  if (bad.length > 0) throw AppError.validation(bad);
  return out;
}

/** Each site's settings, with its available balance from `available` (site id -> kuruş). */
function siteColumns(available: Map<string, string>): Array<Column<OpsSite>> {
  return [
    {
      header: 'Slug',
      cell: (s) =>
        html`<a href="/sites/${seg(s.siteId)}">${s.slug}</a>${
            s.livemode ? '' : html` <span class="badge info" title="The sandbox of a live site: test keys, simulated money">TEST</span>`
          }`,
    },
    { header: 'Name', cell: (s) => s.name },
    { header: 'Webhook URL', cell: (s) => s.webhookUrl ?? html`<span class="muted">not set</span>` },
    { header: 'Limit / min', class: 'num', cell: (s) => String(s.rateLimitPerMinute) },
    { header: 'Available', class: 'num', cell: (s) => formatTry(available.get(s.siteId) ?? '0') },
  ];
}

/** `/sites`: every site with its settings and available balance; admins also create sites here. */
export function siteRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/sites', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [sites, balances] = await Promise.all([
      ctx.ops.call('listSites', { query: { limit: '100', cursor: ctx.query('cursor') } }),
      ctx.ops.call('listBalances'),
    ]);
    const available = new Map(balances.data.map((b) => [b.siteId, b.available]));
    const body = html`${table({ columns: siteColumns(available), rows: sites.data, rowId: (s) => s.siteId, empty: 'No sites yet.' })}
    ${sites.nextCursor ? html`<p><a href="/sites?cursor=${encodeURIComponent(sites.nextCursor)}">Next page</a></p>` : ''}
    ${
      ctx.isAdmin
        ? html`<section>
            <h2>New site</h2>
            ${createSiteForm(ctx)}
          </section>`
        : html`<p class="hint">Creating sites and issuing or revoking API keys needs the admin role.</p>`
    }`;
    ctx.render('Sites & keys', 'sites', body);
  });

  router.post('/sites', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/sites');
    const site = await ctx.ops.call('createSite', {
      body: { slug: ctx.field('slug'), name: ctx.field('name'), ...siteSettings((name) => ctx.field(name)) },
    });
    if (!site.webhookSecret) {
      ctx.done('site-created', `/sites/${seg(site.siteId)}`);
      return;
    }
    pageContext(deps, req, res).render('New site', 'sites', webhookSecretOnce(site), 201);
  });

  return router;
}

/** A site's new webhook signing secret, on the page that answers the action that made it: shown this once. */
export function webhookSecretOnce(site: CreatedSite): SafeHtml {
  // The signing secret exists nowhere else in clear: shown here once, never put in a URL or a cookie.
  return html`<section class="card key-once">
    <p class="warn">
      <strong>Copy this webhook signing secret now.</strong> It is shown only this once; send it to the partner over a secure channel (or
      they rotate their own with the webhook-config call).
    </p>
    ${facts([
      ['Site', html`<code>${site.slug}</code>`],
      ['Webhook URL', site.webhookUrl ?? ''],
      ['Signing secret', html`<code class="secret" data-copy="${site.webhookSecret}">${site.webhookSecret}</code>`],
    ])}
    <p><a class="btn plain" href="/sites/${seg(site.siteId)}">Done — on to the site's page</a></p>
  </section>`;
}
