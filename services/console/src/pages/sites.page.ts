import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { CreatedSite, OpsSite } from '@kasa/contracts';
import { t, th } from '../i18n/index.js';
import { facts } from '../views/components.js';
import { formatTry } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { readSiteNumbers } from './site-form.js';

/** Addresses shown as examples in the new-site form (URLs: the same in every language). */
const EXAMPLE_WEBHOOK_URL = 'https://partner.example/webhooks/kasa';
const EXAMPLE_RETURN_URL = 'https://partner.example/wallet';

function createSiteForm(ctx: PageContext): SafeHtml {
  return html`<form method="post" action="/sites" class="card grid-form" data-confirm="${t('sites.create.confirm')}">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${t('sites.field.slug')}
      <input
        type="text"
        name="slug"
        required
        minlength="2"
        maxlength="32"
        pattern="[a-z0-9]+(-[a-z0-9]+)*"
        placeholder="${t('sites.create.slugExample')}"
      /><small>${t('sites.create.slugHint')}</small></label
    >
    <label
      >${t('sites.field.name')} <input type="text" name="name" required maxlength="140" placeholder="${t('sites.create.nameExample')}"
    /></label>
    <label
      >${t('sites.field.webhookUrl')} <input type="url" name="webhookUrl" maxlength="2048" placeholder="${EXAMPLE_WEBHOOK_URL}" /><small
        >${t('sites.create.webhookHint')}</small
      ></label
    >
    <label
      >${t('sites.field.returnUrl')} <input type="url" name="returnUrl" maxlength="2048" placeholder="${EXAMPLE_RETURN_URL}" /><small
        >${t('sites.create.returnUrlHint')}</small
      ></label
    >
    <label>${t('sites.field.rateLimit')} <input type="number" name="rateLimitPerMinute" min="1" max="100000" placeholder="60" /></label>
    <label>${t('sites.field.depositTtl')} <input type="number" name="depositTtlSeconds" min="1" max="604800" placeholder="1800" /></label>
    <label>${t('sites.field.minAmount')} <input type="text" name="minAmount" inputmode="decimal" placeholder="10,00" /></label>
    <label>${t('sites.field.maxAmount')} <input type="text" name="maxAmount" inputmode="decimal" placeholder="1.000.000,00" /></label>
    <div><button type="submit" class="btn primary">${t('sites.create.button')}</button></div>
  </form>`;
}

/** The optional settings of a new site, from form text to the ops API's types; bad input names its field. */
function siteSettings(field: (name: string) => string): Record<string, string | number> {
  const { values, bad } = readSiteNumbers(field, false);
  const out: Record<string, string | number> = { ...values };
  for (const name of ['webhookUrl', 'returnUrl']) if (field(name)) out[name] = field(name);
  if (bad.length > 0) throw AppError.validation(bad, t('sites.create.invalid'));
  return out;
}

/** Each site's settings, with its available balance from `available` (site id -> kuruş). */
function siteColumns(available: Map<string, string>): Array<Column<OpsSite>> {
  return [
    {
      header: t('sites.field.slug'),
      cell: (s) =>
        html`<a href="/sites/${seg(s.siteId)}">${s.slug}</a>${
            s.livemode ? '' : html` <span class="badge info" title="${t('sites.badge.sandboxTitle')}">${t('sites.badge.test')}</span>`
          }`,
    },
    { header: t('sites.field.name'), cell: (s) => s.name },
    { header: t('sites.field.webhookUrl'), cell: (s) => s.webhookUrl ?? html`<span class="muted">${t('sites.notSet')}</span>` },
    { header: t('sites.column.limit'), class: 'num', cell: (s) => String(s.rateLimitPerMinute) },
    { header: t('sites.fact.available'), class: 'num', cell: (s) => formatTry(available.get(s.siteId) ?? '0') },
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
    const body = html`${table({ columns: siteColumns(available), rows: sites.data, rowId: (s) => s.siteId, empty: t('sites.list.empty') })}
    ${sites.nextCursor ? html`<p><a href="/sites?cursor=${encodeURIComponent(sites.nextCursor)}">${t('sites.list.next')}</a></p>` : ''}
    ${
      ctx.isAdmin
        ? html`<section>
            <h2>${t('sites.create.title')}</h2>
            ${createSiteForm(ctx)}
          </section>`
        : html`<p class="hint">${t('sites.list.adminOnly')}</p>`
    }`;
    ctx.render(t('sites.list.title'), 'sites', body);
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
    pageContext(deps, req, res).render(t('sites.create.title'), 'sites', webhookSecretOnce(site), 201);
  });

  return router;
}

/** A site's new webhook signing secret, on the page that answers the action that made it: shown this once. */
export function webhookSecretOnce(site: CreatedSite): SafeHtml {
  // The signing secret exists nowhere else in clear: shown here once, never put in a URL or a cookie.
  return html`<section class="card key-once">
    <p class="warn">${th('sites.secret.warn', { strong: html`<strong>${t('sites.secret.copyNow')}</strong>` })}</p>
    ${facts([
      [t('sites.fact.site'), html`<code>${site.slug}</code>`],
      [t('sites.field.webhookUrl'), site.webhookUrl ?? ''],
      [t('sites.secret.label'), html`<code class="secret" data-copy="${site.webhookSecret}">${site.webhookSecret}</code>`],
    ])}
    <p><a class="btn plain" href="/sites/${seg(site.siteId)}">${t('sites.secret.done')}</a></p>
  </section>`;
}
