import express, { type Router } from 'express';
import type { OpsResponse } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { currentLocale, t } from '../i18n/index.js';
import { facts } from '../views/components.js';
import { formatBooked, formatTime, formatTry, maskIban } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { pageContext } from './page-context.js';

type Reconciliation = OpsResponse<'getReconciliation'>;
type Line = Reconciliation['unconfirmedLines'][number];
type Gap = Reconciliation['gaps'][number];

/** The difference, red when the statement and Kasa's bookings disagree. */
function differenceCell(r: Reconciliation): SafeHtml | string {
  if (r.difference === null) return '—';
  return r.difference === '0'
    ? html`<span class="badge ok">${formatTry(r.difference)}</span>`
    : html`<strong class="badge danger">${formatTry(r.difference)}</strong>`;
}

/** "As of" when there are balances; else why not (the ledger's words in English, by the status in Turkish). */
function asOfOrReason(r: Reconciliation): string {
  if (r.asOf) return formatTime(r.asOf);
  if (r.status === 'no_statement' && currentLocale() === 'tr') return t('money.recon.noStatement');
  return r.reason ?? '';
}

/** A line's direction: credit or debit. */
const direction = (d: 'credit' | 'debit') => t(d === 'credit' ? 'money.credit' : 'money.debit');

const columns = (): Array<Column<Reconciliation>> => [
  {
    header: t('money.col.account'),
    cell: (r) => html`<a href="/reconciliation/${seg(r.accountId)}">${r.bankName} · ${maskIban(r.iban)}</a>`,
  },
  { header: t('money.recon.col.statementClosing'), class: 'num', cell: (r) => formatTry(r.statementClosingBalance) },
  { header: t('money.recon.col.bookedByKasa'), class: 'num', cell: (r) => formatTry(r.bookedBalance) },
  { header: t('money.recon.col.difference'), class: 'num', cell: differenceCell },
  { header: t('money.recon.col.asOf'), cell: (r) => (r.asOf ? formatTime(r.asOf) : html`<span class="muted">${asOfOrReason(r)}</span>`) },
  { header: t('money.recon.col.unconfirmed'), class: 'num', cell: (r) => String(r.unconfirmedTotal) },
  {
    header: t('money.recon.col.gaps'),
    class: 'num',
    cell: (r) => (r.gaps.length ? html`<span class="badge warn">${r.gaps.length}</span>` : '0'),
  },
];

const lineColumns = (): Array<Column<Line>> => [
  { header: t('money.col.booked'), cell: (l) => formatBooked(l.bookedAt, l.timeKnown) },
  { header: t('money.recon.col.direction'), cell: (l) => direction(l.direction) },
  {
    header: t('money.recon.col.bankTxId'),
    cell: (l) =>
      l.bankTransferId
        ? html`<a href="/bank-transfers/${seg(l.bankTransferId)}"><code>${l.bankTxId}</code></a>`
        : html`<code>${l.bankTxId}</code>`,
  },
  { header: t('money.col.counterparty'), cell: (l) => l.counterpartyName ?? '—' },
  { header: t('money.col.amount'), class: 'num', cell: (l) => formatTry(l.direction === 'debit' ? `-${l.amount}` : l.amount) },
];

const gapColumns = (): Array<Column<Gap>> => [
  { header: t('money.recon.col.afterStatement'), cell: (g) => html`<code>${g.afterStatementRef}</code>` },
  { header: t('money.recon.col.closedAt'), class: 'num', cell: (g) => formatTry(g.closingBalance) },
  { header: t('money.recon.col.nextStatement'), cell: (g) => html`<code>${g.beforeStatementRef}</code>` },
  { header: t('money.recon.col.openedAt'), class: 'num', cell: (g) => formatTry(g.openingBalance) },
  { header: t('money.recon.col.movedUncovered'), class: 'num', cell: (g) => formatTry(g.difference) },
  { header: t('money.recon.col.between'), cell: (g) => `${formatTime(g.from)} – ${formatTime(g.to)}` },
];

/** What the lines counted were: credits and debits from statements, and those no statement carries. */
function linesCounted(counts: Reconciliation['counts']): string {
  return t('money.recon.linesCounted', {
    statementCredits: credits(counts.statementCredits),
    statementDebits: debits(counts.statementDebits),
    unconfirmedCredits: credits(counts.unconfirmedCredits),
    unconfirmedDebits: debits(counts.unconfirmedDebits),
  });
}

function detail(r: Reconciliation): SafeHtml {
  const more =
    r.unconfirmedTotal > r.unconfirmedLines.length
      ? html`<p class="hint">${t('money.recon.showingFirst', { shown: r.unconfirmedLines.length, total: r.unconfirmedTotal })}</p>`
      : '';
  return html`${facts([
      [t('money.col.account'), `${r.bankName} · ${maskIban(r.iban)}`],
      [t('money.recon.fact.statementClosing'), formatTry(r.statementClosingBalance)],
      [t('money.recon.col.bookedByKasa'), formatTry(r.bookedBalance)],
      [t('money.recon.col.difference'), differenceCell(r)],
      [t('money.recon.col.asOf'), asOfOrReason(r) || '—'],
      [t('money.recon.fact.countedFrom'), formatTime(r.anchorAt)],
      [t('money.recon.fact.latestStatement'), r.statementRef ? html`<code>${r.statementRef}</code>` : '—'],
      [t('money.recon.fact.statements'), String(r.statements)],
      [t('money.recon.fact.linesCounted'), linesCounted(r.counts)],
    ])}
    <section class="card" aria-labelledby="unconfirmed">
      <h2 id="unconfirmed">${t('money.recon.unconfirmed.title')}</h2>
      <p class="hint">${t('money.recon.unconfirmed.hint')}</p>
      ${table({ columns: lineColumns(), rows: r.unconfirmedLines, rowId: (l) => l.lineId, empty: t('money.recon.unconfirmed.empty') })}
      ${more}
    </section>
    <section class="card" aria-labelledby="gaps">
      <h2 id="gaps">${t('money.recon.gaps.title')}</h2>
      ${table({ columns: gapColumns(), rows: r.gaps, rowId: (g) => g.beforeStatementId, empty: t('money.recon.gaps.empty') })}
    </section>`;
}

/** `GET /reconciliation`: every receiving account's statement against Kasa's bookings; `/reconciliation/:accountId` one in detail. */
export function reconciliationRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/reconciliation', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const list = await ctx.ops.call('listReconciliations');
    const body = html`<p class="hint">${t('money.recon.explain')}</p>
      ${table({
        columns: columns(),
        rows: list.data,
        rowId: (r) => r.accountId,
        rowClass: (r) => (r.status === 'difference' ? 'dead' : ''),
        empty: t('money.noAccounts'),
      })}`;
    ctx.render(t('common.nav.reconciliation'), 'reconciliation', body);
  });

  router.get('/reconciliation/:accountId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const r = await ctx.ops.call('getReconciliation', { params: { accountId: pathParam(req, 'accountId') } });
    ctx.render(
      t('money.recon.detailTitle', { bank: r.bankName }),
      'reconciliation',
      html`<p><a href="/reconciliation">${t('money.recon.back')}</a></p>
        ${detail(r)}`,
    );
  });

  return router;
}

/** `1 credit`, `2 credits` (in Turkish a noun after a number stays singular: `2 alacak`). */
const credits = (count: number) => t(count === 1 ? 'money.recon.credits.one' : 'money.recon.credits.other', { count });
const debits = (count: number) => t(count === 1 ? 'money.recon.debits.one' : 'money.recon.debits.other', { count });
