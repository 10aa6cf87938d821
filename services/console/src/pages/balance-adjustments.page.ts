import express, { type Router } from 'express';
import type { ResponseOf } from '@kasa/contracts';
import { AppError, pathParam } from '@kasa/http';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { t, th, type MessageKey } from '../i18n/index.js';
import { actionForm, currentTab, facts, nextPageLink, statusBadge, statusLabel, tabs } from '../views/components.js';
import { formatTime, formatTry, readLira, shortId } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import type { RecordPage } from './record-page.js';
import { siteLink, withSites, type SiteDirectory } from './site-names.js';

type Adjustment = ResponseOf<'OpsBalanceAdjustment'>;

const STATUS_TABS: Array<[string, MessageKey]> = [
  ['PENDING_REVIEW', 'records.adjustments.tab.review'],
  ['APPLIED', 'records.adjustments.tab.applied'],
  ['REJECTED', 'records.adjustments.tab.rejected'],
];

/** The status tabs in the request's language. */
const statusTabs = (): Array<[string, string]> => STATUS_TABS.map(([status, key]) => [status, t(key)]);

const DIRECTIONS = ['credit', 'debit'] as const;
type Direction = (typeof DIRECTIONS)[number];
const isDirection = (value: string): value is Direction => (DIRECTIONS as readonly string[]).includes(value);

const proposer = (a: Adjustment) => a.proposedByEmail ?? shortId(a.proposedByOperatorId);
const siteName = (sites: SiteDirectory, siteId: string) => sites.get(siteId)?.slug ?? shortId(siteId);

const columns = (sites: SiteDirectory): Array<Column<Adjustment>> => [
  { header: t('records.col.created'), cell: (a) => formatTime(a.createdAt) },
  { header: t('records.col.site'), cellClass: 'nowrap', cell: (a) => siteLink(sites, a.siteId) },
  {
    header: t('records.col.reference'),
    cell: (a) => html`<a href="/balance-adjustments/${seg(a.adjustmentId)}"><code>${a.referenceNo}</code></a>`,
  },
  { header: t('records.adjustments.col.direction'), cell: (a) => t(`records.adjustment.direction.${a.direction}`) },
  { header: t('records.col.amount'), class: 'num', cell: (a) => formatTry(a.amount) },
  { header: t('records.adjustments.col.proposedBy'), cell: proposer },
  { header: t('records.col.status'), cell: (a) => statusBadge(a.status) },
];

/** The admins' form to propose an adjustment of a live site's balance; nothing is posted until a second admin applies it. */
function proposeForm(ctx: PageContext, sites: SiteDirectory): SafeHtml {
  const live = [...sites.values()].filter((s) => s.livemode);
  if (live.length === 0) return html`<p class="hint">${t('records.adjustments.noSite')}</p>`;
  return html`<form
    method="post"
    action="/balance-adjustments"
    class="card grid-form"
    data-confirm="${t('records.adjustments.proposeConfirm')}"
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${t('records.col.site')}
      <select name="siteId" required>
        ${live.map((s) => html`<option value="${s.siteId}">${s.slug}</option>`)}
      </select></label
    >
    <label
      >${t('records.adjustments.col.direction')}
      <select name="direction" required>
        ${DIRECTIONS.map((d) => html`<option value="${d}">${t(`records.adjustments.option.${d}`)}</option>`)}
      </select></label
    >
    <label
      >${t('records.adjustments.amount')}
      <input type="text" name="amount" required inputmode="decimal" maxlength="32" />
      <small>${t('records.adjustments.amountHint')}</small></label
    >
    <label
      >${t('records.adjustments.reason')}
      <input type="text" name="reason" required maxlength="500" />
      <small>${t('records.adjustments.reasonHint')}</small></label
    >
    <div class="form-end"><button type="submit" class="btn primary">${t('records.adjustments.propose')}</button></div>
  </form>`;
}

/**
 * What an operator may do with an adjustment in review. Always four-eyes: its proposer is offered no Apply button (and
 * the ledger refuses them 409 `second_approver_required`, as it does an admin tied to them, shown as the error page).
 */
function nextStep(ctx: PageContext, a: Adjustment, sites: SiteDirectory): SafeHtml {
  if (a.status !== 'PENDING_REVIEW') return html`<p class="muted">${t('records.adjustment.none', { status: statusLabel(a.status) })}</p>`;
  if (!ctx.isAdmin)
    return html`<p class="muted">${t('records.adjustment.waiting')}</p>
      <p class="hint">${t('records.adjustments.adminOnly')}</p>`;
  const base = `/balance-adjustments/${seg(a.adjustmentId)}`;
  const params = { amount: formatTry(a.amount), site: siteName(sites, a.siteId) };
  const own = a.proposedByOperatorId === ctx.operator.operatorId;
  const apply = own
    ? html`<p class="hint">${t('records.adjustment.ownProposal')}</p>`
    : actionForm(ctx, {
        action: `${base}/approve`,
        label: t('records.adjustment.apply'),
        tone: 'primary',
        confirm: t(`records.adjustment.applyConfirm.${a.direction}`, params),
      });
  const reject = actionForm(ctx, {
    action: `${base}/reject`,
    label: t('records.adjustment.reject'),
    tone: 'danger',
    confirm: t('records.adjustment.rejectConfirm', params),
    fields: html`<input
      type="text"
      name="reason"
      required
      maxlength="500"
      placeholder="${t('records.adjustment.rejectReason')}"
      aria-label="${t('records.adjustment.rejectReason')}"
    />`,
  });
  return html`<p class="hint">${t('records.adjustment.fourEyes')}</p>
    <div class="actions">${apply} ${reject}</div>`;
}

/**
 * `/balance-adjustments`: corrections of what the service owes a site with no bank movement behind them
 * (docs/operations.md, Balance adjustments), by status; the admins' proposal form; one adjustment with its decision.
 */
export function balanceAdjustmentRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/balance-adjustments', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(statusTabs(), ctx.query('status'), 'PENDING_REVIEW');
    // The queue waiting for a second admin is read oldest first; what was decided, newest first.
    const order = status === 'PENDING_REVIEW' ? { order: 'oldest' } : {};
    const [page, sites] = await withSites(
      ctx.ops,
      ctx.ops.call('opsListBalanceAdjustments', { query: { status, ...order, limit: '50', cursor: ctx.query('cursor') } }),
    );
    const body = html`${tabs('/balance-adjustments', status, statusTabs())}
      <p class="hint">${t('records.adjustments.hint')}</p>
      ${table({ columns: columns(sites), rows: page.data, rowId: (a) => a.adjustmentId, empty: t('records.adjustments.empty') })}
      ${nextPageLink('/balance-adjustments', { status }, page.nextCursor)}
      ${
        ctx.isAdmin
          ? html`<section>
              <h2>${t('records.adjustments.new')}</h2>
              <p class="hint">${t('records.adjustments.newHint')}</p>
              ${proposeForm(ctx, sites)}
            </section>`
          : html`<p class="hint">${t('records.adjustments.adminOnly')}</p>`
      }`;
    ctx.render(t('records.adjustments.title'), 'adjustments', body);
  });

  router.get('/balance-adjustments/:adjustmentId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [a, sites] = await withSites(
      ctx.ops,
      ctx.ops.call('opsGetBalanceAdjustment', { params: { adjustmentId: pathParam(req, 'adjustmentId') } }),
    );
    const available = sites.get(a.siteId)?.available;
    const body = html`<section class="card">
      ${facts([
        [t('records.col.status'), statusBadge(a.status)],
        [t('records.col.reference'), html`<code>${a.referenceNo}</code>`],
        [t('records.adjustment.id'), html`<code>${a.adjustmentId}</code>`],
        [t('records.col.site'), siteLink(sites, a.siteId)],
        [t('records.adjustments.col.direction'), t(`records.adjustment.effect.${a.direction}`)],
        [t('records.col.amount'), html`<strong>${formatTry(a.amount)}</strong>`],
        [t('records.adjustments.reason'), a.reason],
        [t('records.adjustments.col.proposedBy'), html`${proposer(a)} · ${formatTime(a.createdAt)}`],
        [t('records.adjustment.decidedBy'), a.decidedByOperatorId ? (a.decidedByEmail ?? shortId(a.decidedByOperatorId)) : null],
        [t('records.adjustment.appliedAt'), a.appliedAt ? formatTime(a.appliedAt) : null],
        [t('records.fact.rejectedAt'), a.rejectedAt ? html`${formatTime(a.rejectedAt)} — ${a.rejectedReason ?? ''}` : null],
        [t('records.adjustment.available'), available === undefined ? null : formatTry(available)],
      ])}
      <h2>${t('records.col.nextStep')}</h2>
      ${nextStep(ctx, a, sites)}
      <p class="muted">
        ${th('records.adjustment.steps', {
          link: html`<a href="/audit?entityType=balance_adjustment&amp;entityId=${seg(a.adjustmentId)}"
            >${t('records.adjustment.auditLog')}</a
          >`,
        })}
      </p>
    </section>`;
    ctx.render(t('records.adjustment.title', { reference: a.referenceNo }), 'adjustments', body);
  });

  router.post('/balance-adjustments', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/balance-adjustments');
    const direction = ctx.field('direction');
    const amount = readLira(ctx.field('amount'));
    // Refused here, naming the field, before the ledger is asked: a typed amount is read as lira as on every surface.
    if (!isDirection(direction) || 'problem' in amount)
      throw AppError.validation(
        [
          ...(isDirection(direction) ? [] : [{ field: 'direction', message: t('records.adjustments.chooseDirection') }]),
          ...('problem' in amount ? [{ field: 'amount', message: amount.problem }] : []),
        ],
        t('records.adjustments.invalid'),
      );
    const proposed = await ctx.ops.call('proposeBalanceAdjustment', {
      params: { siteId: ctx.field('siteId') },
      body: { direction, amount: amount.minor, reason: ctx.field('reason') },
    });
    ctx.done('adjustment-proposed', `/balance-adjustments/${seg(proposed.adjustmentId)}`);
  });

  router.post('/balance-adjustments/:adjustmentId/approve', async (req, res) => {
    const adjustmentId = pathParam(req, 'adjustmentId');
    const ctx = actionContext(deps, req, res, `/balance-adjustments/${seg(adjustmentId)}`);
    await ctx.ops.call('approveBalanceAdjustment', { params: { adjustmentId } });
    ctx.done('adjustment-applied');
  });

  router.post('/balance-adjustments/:adjustmentId/reject', async (req, res) => {
    const adjustmentId = pathParam(req, 'adjustmentId');
    const ctx = actionContext(deps, req, res, `/balance-adjustments/${seg(adjustmentId)}`);
    await ctx.ops.call('rejectBalanceAdjustment', { params: { adjustmentId }, body: { reason: ctx.field('reason') } });
    ctx.done('adjustment-rejected');
  });

  return router;
}

/** Balance adjustments as a kind of reviewed record (record-pages.ts). */
export const balanceAdjustmentsPage = {
  section: 'adjustments',
  routes: [balanceAdjustmentRoutes],
  audit: { entityType: 'balance_adjustment', detailPrefix: '/balance-adjustments/' },
} as const satisfies RecordPage;
