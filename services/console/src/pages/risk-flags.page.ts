import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import express, { type Router } from 'express';
import { pathParam } from '@kasa/http';
import type { ResponseOf } from '@kasa/contracts';
import { seg, withQuery, type Query } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { currentTimeZone, t, type MessageKey } from '../i18n/index.js';
import { currentTab, facts, tabs } from '../views/components.js';
import { formatTime, formatTry } from '../views/format.js';
import { html, safeUrl, type HtmlValue, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { siteDirectory, siteLink, type SiteDirectory } from './site-names.js';

type RiskFlag = ResponseOf<'RiskFlag'>;
type Rule = RiskFlag['rule'];

const RULES: readonly Rule[] = ['name_mismatch', 'just_under_limit', 'returned_and_resent', 'stranger_credit', 'velocity'];
const STATUS_TABS: Array<[RiskFlag['status'], MessageKey]> = [
  ['OPEN', 'risk.tab.open'],
  ['CLOSED', 'risk.tab.closed'],
];
const DAY_MS = 24 * 60 * 60 * 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A rule as a compliance officer reads it; a rule the console does not know yet shows as the ledger names it. */
function ruleLabel(rule: string): string {
  return (RULES as readonly string[]).includes(rule) ? t(`risk.rule.${rule as Rule}`) : rule;
}

/**
 * The review deadline: the due time with "due in 3 days", or, for an open flag past it, OVERDUE in red with "overdue by
 * 2 days" (as the erasure requests mark their 30-day timer). A reviewed flag shows its due time alone.
 */
function timer(flag: RiskFlag, now: number): SafeHtml {
  const due = new Date(flag.dueAt).getTime();
  if (flag.status !== 'OPEN') return html`${formatTime(flag.dueAt)}`;
  if (flag.overdue) {
    const days = Math.max(1, Math.floor((now - due) / DAY_MS));
    return html`<strong class="badge alert">${t('risk.overdue')}</strong> ${formatTime(flag.dueAt)}
      <small class="overdue-by">${days === 1 ? t('risk.overdueBy.one') : t('risk.overdueBy.other', { days })}</small>`;
  }
  const days = Math.max(0, Math.floor((due - now) / DAY_MS));
  const left = days === 0 ? t('risk.dueIn.today') : days === 1 ? t('risk.dueIn.one') : t('risk.dueIn.other', { days });
  return html`${formatTime(flag.dueAt)} <small class="muted">${left}</small>`;
}

/** The flagged record, linked to its console page: a deposit's or a bank transfer's. */
function subjectLink(flag: RiskFlag): SafeHtml {
  const label = html`${t(`risk.subject.${flag.subjectType}`)} <code>${flag.subjectId}</code>`;
  return flag.subjectType === 'deposit'
    ? html`<a href="/intents/${seg(flag.subjectId)}">${label}</a>`
    : html`<a href="/bank-transfers/${seg(flag.subjectId)}">${label}</a>`;
}

const columns = (sites: SiteDirectory, now: number): Array<Column<RiskFlag>> => [
  { header: t('risk.col.rule'), cell: (f) => html`<a href="/risk-flags/${seg(f.id)}">${ruleLabel(f.rule)}</a>` },
  { header: t('risk.col.site'), cell: (f) => siteLink(sites, f.siteId) },
  {
    header: t('risk.col.user'),
    cell: (f) => (f.externalUserId ? html`<code>${f.externalUserId}</code>` : html`<span class="muted">—</span>`),
  },
  { header: t('risk.col.detected'), cell: (f) => formatTime(f.detectedAt) },
  { header: t('risk.col.due'), cell: (f) => timer(f, now) },
  {
    header: t('risk.col.outcome'),
    cell: (f) => (f.outcome ? t(`risk.outcome.${f.outcome}`) : html`<span class="muted">${t(`risk.status.${f.status}`)}</span>`),
  },
  { header: t('risk.col.flag'), cell: (f) => html`<a class="btn small" href="/risk-flags/${seg(f.id)}">${t('risk.open')}</a>` },
];

/** The rule and site filters; the status tab rides along hidden. */
function filterForm(sites: SiteDirectory, status: string, rule: string | undefined, siteId: string | undefined): SafeHtml {
  const selected = (on: boolean) => (on ? html` selected=""` : '');
  return html`<form method="get" action="/risk-flags" class="filters" aria-label="${t('risk.filter.legend')}">
    <input type="hidden" name="status" value="${status}" />
    <label
      >${t('risk.filter.rule')}
      <select name="rule">
        <option value="">${t('risk.filter.any')}</option>
        ${RULES.map((r) => html`<option value="${r}" ${selected(r === rule)}>${ruleLabel(r)}</option>`)}
      </select></label
    >
    <label
      >${t('risk.filter.site')}
      <select name="siteId">
        <option value="">${t('risk.filter.any')}</option>
        ${[...sites.values()].map((s) => html`<option value="${s.siteId}" ${selected(s.siteId === siteId)}>${s.slug}</option>`)}
      </select></label
    >
    <div class="filter-actions"><button type="submit" class="btn">${t('risk.filter.apply')}</button></div>
  </form>`;
}

/** Today's calendar day in the desk's zone, `YYYY-MM-DD` (the report's days are Istanbul days). */
function deskDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: currentTimeZone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The report for the authority: from and to days, a plain GET form whose answer is the CSV download. */
function reportForm(now: number): SafeHtml {
  const today = deskDay(new Date(now));
  const monthAgo = deskDay(new Date(now - 30 * DAY_MS));
  return html`<section>
    <h2>${t('risk.report.title')}</h2>
    <p class="hint">${t('risk.report.hint')}</p>
    <form method="get" action="/risk-flags/report" class="filters report-form">
      <label>${t('risk.report.from')} <input type="date" name="from" required value="${monthAgo}" /></label>
      <label>${t('risk.report.to')} <input type="date" name="to" required value="${today}" /></label>
      <div class="filter-actions"><button type="submit" class="btn">${t('risk.report.download')}</button></div>
    </form>
  </section>`;
}

/** The keys each rule's facts carry, in the order they read best; keys the console does not know follow as they are. */
const KNOWN_KEYS = [
  'senderName',
  'userName',
  'score',
  'count',
  'total',
  'limit',
  'windowHours',
  'windowMinutes',
  'amount',
  'senderIban',
  'returnId',
  'returnedAt',
  'withdrawalId',
  'payoutReference',
] as const;
type KnownKey = (typeof KNOWN_KEYS)[number];
const MONEY_KEYS = new Set<string>(['total', 'limit', 'amount']);

/** One fact as the console writes it: amounts in lira, times in the desk's zone, ids linked, IBANs as given (masked). */
function factValue(key: string, value: string | number | null | undefined): HtmlValue {
  if (value === null || value === undefined || value === '') return '';
  if (MONEY_KEYS.has(key)) return formatTry(String(value));
  if (key === 'score' && typeof value === 'number') return value.toFixed(2);
  if (key === 'returnedAt') return formatTime(String(value));
  if (key === 'senderIban') return html`<code>${value}</code>`;
  if (key === 'returnId' && UUID.test(String(value))) return html`<a href="/returns/${seg(String(value))}"><code>${value}</code></a>`;
  if (key === 'withdrawalId' && UUID.test(String(value)))
    return html`<a href="/withdrawals/${seg(String(value))}"><code>${value}</code></a>`;
  if (key === 'payoutReference') return html`<code>${value}</code>`;
  return String(value);
}

function factRows(flag: RiskFlag): Array<[string, HtmlValue]> {
  const given = flag.facts as Record<string, string | number | null>;
  const known = KNOWN_KEYS.filter((key) => key in given).map((key): [string, HtmlValue] => [
    t(`risk.key.${key satisfies KnownKey}`),
    factValue(key, given[key]),
  ]);
  const others = Object.keys(given)
    .filter((key) => !(KNOWN_KEYS as readonly string[]).includes(key))
    .map((key): [string, HtmlValue] => [key, factValue(key, given[key])]);
  return [...known, ...others];
}

/** While OPEN: the outcome and the required note, posted to the ledger's review. */
function reviewForm(ctx: PageContext, flag: RiskFlag): SafeHtml {
  return html`<section>
    <h2>${t('risk.reviewTitle')}</h2>
    <form method="post" action="/risk-flags/${seg(flag.id)}/review" class="card risk-review" data-confirm="${t('risk.review.confirm')}">
      <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
      <fieldset>
        <legend>${t('risk.review.outcome')}</legend>
        <label class="check"><input type="radio" name="outcome" value="no_action" required /> ${t('risk.review.noAction')}</label>
        <label class="check"><input type="radio" name="outcome" value="reported" required /> ${t('risk.review.reported')}</label>
      </fieldset>
      <label>${t('risk.review.note')} <textarea name="note" required maxlength="2000" rows="4"></textarea></label>
      <div><button type="submit" class="btn primary">${t('risk.review.submit')}</button></div>
    </form>
  </section>`;
}

/** Once CLOSED: the outcome, the note, who reviewed it and when. */
function reviewed(flag: RiskFlag): SafeHtml {
  return html`<section>
    <h2>${t('risk.reviewedTitle')}</h2>
    ${facts([
      [t('risk.reviewed.outcome'), flag.outcome ? t(`risk.outcome.${flag.outcome}`) : ''],
      [t('risk.reviewed.note'), flag.note ?? ''],
      [t('risk.reviewed.by'), flag.reviewedBy ? (flag.reviewedBy.email ?? flag.reviewedBy.operatorId ?? '') : ''],
      [t('risk.reviewed.at'), formatTime(flag.reviewedAt)],
    ])}
  </section>`;
}

/**
 * `/risk-flags`: the compliance officers' review queue of risk flags (admins; docs/compliance.md, Risk flags and
 * reports), each flag's page with its facts and review, and the CSV report for the authority streamed from the ledger.
 */
export function riskFlagRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/risk-flags', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const status = currentTab(
      STATUS_TABS.map(([value]) => [value, value]),
      ctx.query('status'),
      'OPEN',
    ) as RiskFlag['status'];
    const rule = RULES.find((r) => r === ctx.query('rule'));
    const siteId = ctx.query('siteId') || undefined;
    const query: Query = { status, ...(rule ? { rule } : {}), ...(siteId ? { siteId } : {}) };
    const [flags, sites] = await Promise.all([ctx.ops.call('listRiskFlags', { query }), siteDirectory(ctx.ops)]);
    const now = deps.clock().getTime();
    const body = html`<p class="hint">${t('risk.intro')}</p>
      ${tabs(
        '/risk-flags',
        status,
        STATUS_TABS.map(([value, key]) => [value, t(key)]),
        { ...(rule ? { rule } : {}), ...(siteId ? { siteId } : {}) },
      )}
      ${filterForm(sites, status, rule, siteId)}
      ${table<RiskFlag>({
        columns: columns(sites, now),
        rows: flags.data,
        rowId: (f) => f.id,
        rowClass: (f) => (f.overdue ? 'overdue' : ''),
        empty: t('risk.empty'),
      })}
      ${reportForm(now)}`;
    ctx.render(t('risk.title'), 'risk', body);
  });

  // Before `/risk-flags/:flagId`, which would take `report` for a flag id.
  router.get('/risk-flags/report', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const query: Query = {};
    for (const name of ['from', 'to']) {
      const value = ctx.query(name);
      if (value !== undefined) query[name] = value;
    }
    // The ledger checks the days (400 validation_failed, shown as an error page) before it sends any row.
    const file = await ctx.ops.csvFile('riskReport', query);
    res.status(200).setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await pipeline(Readable.fromWeb(file.body), res);
    } catch (error) {
      // The download is cut short (the browser says so); the file itself (full IBANs) never goes to the logs.
      deps.logger.warn('Risk report download ended early', { requestId: req.requestId, error: (error as Error).message });
    }
  });

  router.get('/risk-flags/:flagId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const flagId = pathParam(req, 'flagId');
    const [flag, sites] = await Promise.all([ctx.ops.call('getRiskFlag', { params: { flagId } }), siteDirectory(ctx.ops)]);
    const now = deps.clock().getTime();
    const body = html`${facts([
        [t('risk.fact.rule'), ruleLabel(flag.rule)],
        [t('risk.fact.status'), t(`risk.status.${flag.status}`)],
        [t('risk.fact.site'), siteLink(sites, flag.siteId)],
        [t('risk.fact.user'), flag.externalUserId ? html`<code>${flag.externalUserId}</code>` : ''],
        [t('risk.fact.subject'), subjectLink(flag)],
        [t('risk.fact.detected'), formatTime(flag.detectedAt)],
        [t('risk.fact.due'), timer(flag, now)],
      ])}
      <h2>${t('risk.factsTitle')}</h2>
      ${facts(factRows(flag))} ${flag.status === 'OPEN' ? reviewForm(ctx, flag) : reviewed(flag)}
      <p><a href="${safeUrl(withQuery('/risk-flags', { status: flag.status }))}">${t('risk.title')}</a></p>`;
    ctx.render(t('risk.detailTitle'), 'risk', body);
  });

  router.post('/risk-flags/:flagId/review', async (req, res) => {
    const flagId = pathParam(req, 'flagId');
    const ctx = actionContext(deps, req, res, `/risk-flags/${seg(flagId)}`);
    // Anything but the two outcomes goes to the ledger as typed, which refuses it (400) and changes nothing.
    const outcome = ctx.field('outcome') as 'no_action' | 'reported';
    await ctx.ops.call('reviewRiskFlag', { params: { flagId }, body: { outcome, note: ctx.field('note') } });
    ctx.done('risk-flag-reviewed', `/risk-flags/${seg(flagId)}`);
  });

  return router;
}
