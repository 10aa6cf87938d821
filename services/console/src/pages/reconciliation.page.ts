import express, { type Router } from 'express';
import type { OpsResponse } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import { pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
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

const COLUMNS: Array<Column<Reconciliation>> = [
  {
    header: 'Account',
    cell: (r) => html`<a href="/reconciliation/${seg(r.accountId)}">${r.bankName} · ${maskIban(r.iban)}</a>`,
  },
  { header: 'Statement closing', class: 'num', cell: (r) => formatTry(r.statementClosingBalance) },
  { header: 'Booked by Kasa', class: 'num', cell: (r) => formatTry(r.bookedBalance) },
  { header: 'Difference', class: 'num', cell: differenceCell },
  { header: 'As of', cell: (r) => (r.asOf ? formatTime(r.asOf) : html`<span class="muted">${r.reason ?? ''}</span>`) },
  { header: 'Unconfirmed lines', class: 'num', cell: (r) => String(r.unconfirmedTotal) },
  { header: 'Gaps', class: 'num', cell: (r) => (r.gaps.length ? html`<span class="badge warn">${r.gaps.length}</span>` : '0') },
];

const LINE_COLUMNS: Array<Column<Line>> = [
  { header: 'Booked', cell: (l) => formatBooked(l.bookedAt, l.timeKnown) },
  { header: 'Direction', cell: (l) => l.direction },
  {
    header: 'Bank tx id',
    cell: (l) =>
      l.bankTransferId
        ? html`<a href="/bank-transfers/${seg(l.bankTransferId)}"><code>${l.bankTxId}</code></a>`
        : html`<code>${l.bankTxId}</code>`,
  },
  { header: 'Counterparty', cell: (l) => l.counterpartyName ?? '—' },
  { header: 'Amount', class: 'num', cell: (l) => formatTry(l.direction === 'debit' ? `-${l.amount}` : l.amount) },
];

const GAP_COLUMNS: Array<Column<Gap>> = [
  { header: 'After statement', cell: (g) => html`<code>${g.afterStatementRef}</code>` },
  { header: 'Closed at', class: 'num', cell: (g) => formatTry(g.closingBalance) },
  { header: 'Next statement', cell: (g) => html`<code>${g.beforeStatementRef}</code>` },
  { header: 'Opened at', class: 'num', cell: (g) => formatTry(g.openingBalance) },
  { header: 'Moved uncovered', class: 'num', cell: (g) => formatTry(g.difference) },
  { header: 'Between', cell: (g) => `${formatTime(g.from)} – ${formatTime(g.to)}` },
];

const EXPLAIN = html`<p class="hint">
  Each receiving account's latest statement closing balance against what Kasa booked on it: the earliest statement's opening balance, plus
  every credit and minus every debit recorded on the account up to the latest statement's end. A difference is usually a line no statement
  carries (recorded by hand or by the bank connector), listed on the account's page.
</p>`;

function detail(r: Reconciliation): SafeHtml {
  const more =
    r.unconfirmedTotal > r.unconfirmedLines.length
      ? html`<p class="hint">Showing the first ${r.unconfirmedLines.length} of ${r.unconfirmedTotal}.</p>`
      : '';
  return html`${facts([
      ['Account', `${r.bankName} · ${maskIban(r.iban)}`],
      ['Statement closing balance', formatTry(r.statementClosingBalance)],
      ['Booked by Kasa', formatTry(r.bookedBalance)],
      ['Difference', differenceCell(r)],
      ['As of', r.asOf ? formatTime(r.asOf) : (r.reason ?? '—')],
      ['Counted from', formatTime(r.anchorAt)],
      ['Latest statement', r.statementRef ? html`<code>${r.statementRef}</code>` : '—'],
      ['Statements imported', String(r.statements)],
      [
        'Lines counted',
        `${lines(r.counts.statementCredits, 'credit')} and ${lines(r.counts.statementDebits, 'debit')} from statements; ` +
          `${lines(r.counts.unconfirmedCredits, 'credit')} and ${lines(r.counts.unconfirmedDebits, 'debit')} no statement carries`,
      ],
    ])}
    <section class="card" aria-labelledby="unconfirmed">
      <h2 id="unconfirmed">Lines no statement carries</h2>
      <p class="hint">
        Recorded by hand or by the bank connector in the period, but on no imported statement: the usual cause of a difference.
      </p>
      ${table({ columns: LINE_COLUMNS, rows: r.unconfirmedLines, rowId: (l) => l.lineId, empty: 'None: every line is on a statement.' })}
      ${more}
    </section>
    <section class="card" aria-labelledby="gaps">
      <h2 id="gaps">Gaps between statements</h2>
      ${table({ columns: GAP_COLUMNS, rows: r.gaps, rowId: (g) => g.beforeStatementId, empty: 'None: each statement opens where the one before closed.' })}
    </section>`;
}

/** `GET /reconciliation`: every receiving account's statement against Kasa's bookings; `/reconciliation/:accountId` one in detail. */
export function reconciliationRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/reconciliation', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const list = await ctx.ops.call('listReconciliations');
    const body = html`${EXPLAIN}
    ${table({
      columns: COLUMNS,
      rows: list.data,
      rowId: (r) => r.accountId,
      rowClass: (r) => (r.status === 'difference' ? 'dead' : ''),
      empty: 'No receiving accounts yet.',
    })}`;
    ctx.render('Reconciliation', 'reconciliation', body);
  });

  router.get('/reconciliation/:accountId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const r = await ctx.ops.call('getReconciliation', { params: { accountId: pathParam(req, 'accountId') } });
    ctx.render(
      `Reconciliation · ${r.bankName}`,
      'reconciliation',
      html`<p><a href="/reconciliation">← Every account</a></p>
        ${detail(r)}`,
    );
  });

  return router;
}

/** `1 credit`, `2 credits`. */
function lines(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
