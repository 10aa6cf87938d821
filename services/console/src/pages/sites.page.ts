import express, { type Router } from 'express';
import { AppError } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '../ledger/ledger-ops.client.js';
import type { CreatedSite, SiteBalance } from '../ledger/ops-types.js';
import { emptyRow } from '../views/components.js';
import { formatTry, parseTryInput } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';

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
    <label>Rate limit (requests/minute) <input type="number" name="rateLimitPerMinute" min="1" max="100000" placeholder="60" /></label>
    <label>Deposit lifetime (seconds) <input type="number" name="depositTtlSeconds" min="1" max="604800" placeholder="1800" /></label>
    <label>Minimum amount (TRY) <input type="text" name="minAmount" inputmode="decimal" placeholder="10" /></label>
    <label>Maximum amount (TRY) <input type="text" name="maxAmount" inputmode="decimal" placeholder="1000000" /></label>
    <div><button type="submit" class="btn primary">Create site</button></div>
  </form>`;
}

/** The optional settings of a new site, from form text to the ops API's types; bad input names its field. */
function siteSettings(field: (name: string) => string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  const bad: Array<{ field: string; message: string }> = [];
  for (const name of ['rateLimitPerMinute', 'depositTtlSeconds']) {
    const value = field(name);
    if (!value) continue;
    if (/^\d{1,9}$/.test(value)) out[name] = Number(value);
    else bad.push({ field: name, message: 'must be a whole number' });
  }
  for (const name of ['minAmount', 'maxAmount']) {
    const value = field(name);
    if (!value) continue;
    const minor = parseTryInput(value);
    if (minor) out[name] = minor;
    else bad.push({ field: name, message: 'must be a lira amount such as 10 or 2500,50' });
  }
  if (field('webhookUrl')) out.webhookUrl = field('webhookUrl');
  if (bad.length > 0) throw AppError.validation(bad);
  return out;
}

/** `/sites`: every site with its available balance; admins also create sites here. */
export function siteRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/sites', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const sites = await ctx.ops.get<{ data: SiteBalance[] }>('/balances');
    const body = html`<table class="list">
        <thead>
          <tr>
            <th>Slug</th>
            <th>Name</th>
            <th>Site id</th>
            <th class="num">Available</th>
          </tr>
        </thead>
        <tbody>
          ${
            sites.data.length === 0
              ? emptyRow(4, 'No sites yet.')
              : sites.data.map(
                  (s) =>
                    html`<tr data-id="${s.siteId}">
                      <td><a href="/sites/${seg(s.siteId)}">${s.slug}</a></td>
                      <td>${s.name}</td>
                      <td><code>${s.siteId}</code></td>
                      <td class="num">${formatTry(s.available)}</td>
                    </tr>`,
                )
          }
        </tbody>
      </table>
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
    const site = await ctx.ops.post<CreatedSite>('/sites', {
      slug: ctx.field('slug'),
      name: ctx.field('name'),
      ...siteSettings(ctx.field),
    });
    ctx.done('site-created', `/sites/${seg(site.siteId)}`);
  });

  return router;
}
