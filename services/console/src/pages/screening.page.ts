import { pathParam } from '@kasa/http';
import express, { type Router } from 'express';
import type { ScreeningHit } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { t, type MessageKey } from '../i18n/index.js';
import { actionForm, currentTab, tabs } from '../views/components.js';
import { formatTime } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table } from '../views/table.js';
import { actionContext, pageContext } from './page-context.js';

const TABS: Array<[ScreeningHit['status'] | 'DECIDED', MessageKey]> = [
  ['OPEN', 'screening.tab.open'],
  ['DECIDED', 'screening.tab.decided'],
  ['CLEARED', 'screening.tab.cleared'],
  ['CONFIRMED', 'screening.tab.confirmed'],
];

/** The held record, linked to its page. */
function recordCell(hit: ScreeningHit): SafeHtml {
  const kind = t(hit.subjectType === 'deposit' ? 'screening.kind.deposit' : 'screening.kind.withdrawal');
  const label = html`${kind} <code>${hit.referenceNo ?? hit.subjectId}</code>`;
  return hit.subjectType === 'deposit'
    ? html`<a href="/intents/${seg(hit.subjectId)}">${label}</a>`
    : html`<a href="/withdrawals/${seg(hit.subjectId)}">${label}</a>`;
}

/** The list entry matched: its list, its reference (or list id) and the name that matched. */
function entryCell(hit: ScreeningHit): SafeHtml {
  return html`<strong>${hit.entry.matchedName}</strong><br /><span class="muted"
      >${hit.entry.source} · <code>${hit.entry.reference ?? hit.entry.entryId}</code></span
    >`;
}

function decisionsCell(hit: ScreeningHit): SafeHtml | string {
  if (hit.decisions.length === 0) return html`<span class="muted">${t('screening.none')}</span>`;
  return html`${hit.decisions.map(
    (given) =>
      html`<div title="${given.note}">
        ${t('screening.decidedBy', {
          decision: t(given.decision === 'clear' ? 'screening.decision.clear' : 'screening.decision.confirm'),
          who: given.email ?? given.operatorId,
        })}
      </div>`,
  )}`;
}

/** `/screening`: the compliance queue of sanctions screening hits, and the four-eyes decisions on them (admins). */
export function screeningRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/screening', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(
      TABS.map(([value]) => [value, value]),
      ctx.query('status'),
      'OPEN',
    ) as (typeof TABS)[number][0];
    const hits = await ctx.ops.call('listScreeningHits', { query: { status } });
    const decideCell = (hit: ScreeningHit): SafeHtml | string => {
      if (hit.status !== 'OPEN') return html`<span class="muted">${t(`screening.status.${hit.status}`)}</span>`;
      const action = `/screening/${seg(hit.hitId)}/decision`;
      const note = html`<input
        type="text"
        name="note"
        required
        maxlength="500"
        placeholder="${t('screening.note')}"
        aria-label="${t('screening.note')}"
      />`;
      return html`${actionForm(ctx, {
          action,
          label: t('screening.clear'),
          tone: 'primary',
          fields: html`${note}<input type="hidden" name="decision" value="clear" />`,
        })}
        ${actionForm(ctx, {
          action,
          label: t('screening.confirm'),
          tone: 'danger',
          confirm: t('screening.confirmConfirm'),
          fields: html`${note}<input type="hidden" name="decision" value="confirm" />`,
        })}
        <p class="hint">${t('screening.firstOfTwo')}</p>`;
    };
    const body = html`<p class="hint">${t('screening.intro')}</p>
      ${tabs(
        '/screening',
        status,
        TABS.map(([value, key]) => [value, t(key)]),
      )}
      ${table<ScreeningHit>({
        columns: [
          { header: t('screening.col.record'), cell: recordCell },
          { header: t('screening.col.name'), cell: (hit) => hit.screenedName },
          { header: t('screening.col.entry'), cell: entryCell },
          { header: t('screening.col.score'), class: 'num', cell: (hit) => hit.score.toFixed(2) },
          { header: t('screening.col.age'), cell: (hit) => formatTime(hit.createdAt) },
          { header: t('screening.col.decisions'), cell: decisionsCell },
          { header: t('screening.col.decide'), cell: decideCell },
        ],
        rows: hits.data,
        rowId: (hit) => hit.hitId,
        empty: t('screening.empty'),
      })}`;
    ctx.render(t('screening.title'), 'screening', body);
  });

  router.post('/screening/:hitId/decision', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/screening');
    const decision = ctx.field('decision') === 'confirm' ? 'confirm' : 'clear';
    const hit = await ctx.ops.call('decideScreeningHit', {
      params: { hitId: pathParam(req, 'hitId') },
      body: { decision, note: ctx.field('note') },
    });
    ctx.done(hit.status === 'OPEN' ? 'screening-first-decision' : hit.status === 'CLEARED' ? 'screening-cleared' : 'screening-confirmed');
  });

  return router;
}
