import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { OpsBankTransfer, OpsIntent } from '@kasa/contracts';
import { t as tr, type MessageKey } from '../i18n/index.js';
import { actionForm, currentTab, nextPageLink, statusBadge, tabs, type FormContext } from '../views/components.js';
import { formatBooked, formatTime, formatTry, maskIban, shortId } from '../views/format.js';
import { html, type HtmlValue, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import { bankTransferDetailRoutes } from './bank-transfer.page.js';
import type { RecordPage } from './record-page.js';
import { returnForm } from './returns.page.js';
import { exportCsvLink } from '../views/export-link.view.js';
import { isAssignable, suggestionsInRow, unmatchedBecause, type Suggestion } from './transfer-matching.js';
import { siteDirectory, type SiteDirectory } from './site-names.js';

const STATUS_TABS: Array<[string, MessageKey]> = [
  ['UNMATCHED', 'review.transfers.tab.UNMATCHED'],
  ['SET_ASIDE', 'review.transfers.tab.SET_ASIDE'],
  ['RETURNING', 'review.transfers.tab.RETURNING'],
  ['RETURNED', 'review.transfers.tab.RETURNED'],
  ['ASSIGNED', 'review.transfers.tab.ASSIGNED'],
  ['MATCHED', 'review.transfers.tab.MATCHED'],
];

/** The status tabs in the request's language. */
const statusTabs = (): Array<[string, string]> => STATUS_TABS.map(([status, key]) => [status, tr(key)]);

function assignForm(ctx: FormContext, transfer: OpsBankTransfer): SafeHtml {
  return actionForm(ctx, {
    action: `/bank-transfers/${seg(transfer.bankTransferId)}/assign`,
    label: tr('review.transfers.assign'),
    tone: 'primary',
    confirm: tr('review.transfers.assignConfirm', { amount: formatTry(transfer.amount) }),
    fields: html`<input
      type="text"
      name="intent"
      required
      size="22"
      maxlength="64"
      placeholder="${tr('review.transfers.assignPlaceholder')}"
      aria-label="${tr('review.transfers.assignLabel')}"
    />`,
  });
}

/** Out of the unmatched queue with a reason (waiting for the sender, a compliance hold); it stays assignable. */
function setAsideForm(ctx: FormContext, transfer: OpsBankTransfer): SafeHtml {
  return actionForm(ctx, {
    action: `/bank-transfers/${seg(transfer.bankTransferId)}/set-aside`,
    label: tr('review.transfers.setAside'),
    tone: 'plain',
    confirm: tr('review.transfers.setAsideConfirm', { amount: formatTry(transfer.amount) }),
    fields: html`<input
      type="text"
      name="reason"
      required
      maxlength="500"
      size="24"
      placeholder="${tr('review.transfers.setAsideWhy')}"
      aria-label="${tr('review.transfers.setAsideLabel')}"
    />`,
  });
}

/** What the list read beside the page: each open transfer's suggested deposits, each decided one's deposit, the sites. */
interface ListExtras {
  suggestions: Map<string, Suggestion[]>;
  deposits: Map<string, OpsIntent | null>;
  sites: SiteDirectory;
}

/** A matched or assigned transfer's deposit by its reference and site, not its id (the id when it cannot be read). */
function depositCell(t: OpsBankTransfer, extras: ListExtras): HtmlValue {
  if (!t.intentId) return '—';
  const deposit = extras.deposits.get(t.intentId);
  if (!deposit) return html`<a href="/intents/${seg(t.intentId)}"><code>${shortId(t.intentId)}</code></a>`;
  const site = extras.sites.get(deposit.siteId);
  return html`<a href="/intents/${seg(t.intentId)}"><code>${deposit.referenceNo}</code></a
    >${site ? html`<br /><span class="muted" title="${site.slug}">${site.name}</span>` : ''}`;
}

function assignCell(ctx: FormContext, t: OpsBankTransfer, extras: ListExtras): HtmlValue {
  const back = returnForm(ctx, t.bankTransferId, t.amount, t.senderName);
  const suggested = suggestionsInRow(ctx, t, extras.suggestions.get(t.bankTransferId) ?? []);
  if (t.status === 'UNMATCHED')
    return html`${suggested}
      <div class="actions">${assignForm(ctx, t)} ${setAsideForm(ctx, t)} ${back}</div>`;
  if (t.status === 'SET_ASIDE')
    return html`${suggested}
      <div class="actions">${assignForm(ctx, t)} ${back}</div>`;
  if (t.status === 'RETURNING') return html`<a href="/returns">${tr('common.nav.returns')}</a>`;
  if (t.status === 'RETURNED') return html`<a href="/returns?status=SENT">${tr('common.nav.returns')}</a>`;
  return depositCell(t, extras);
}

/** The description, why it matched no deposit (a near reference named as such), and why an operator set it aside. */
function describeUnmatched(t: OpsBankTransfer, suggestions: readonly Suggestion[] = []): SafeHtml {
  const because = unmatchedBecause(t, suggestions);
  const why = because ? html`<br /><span class="muted">${because}</span>` : '';
  const aside = t.setAsideReason
    ? html`<br /><span class="muted"
          >${tr('review.transfers.setAsideAt', { at: formatTime(t.setAsideAt), reason: t.setAsideReason })}</span
        >`
    : '';
  const differs = t.bankLineDifference
    ? html`<br /><strong class="error-line"
          >${tr('review.transfers.bankLineDiffers', { amount: formatTry(t.bankLineDifference.bankAmount) })}</strong
        >`
    : '';
  return html`${t.description}${why}${aside}${differs}`;
}

/** A long id that may wrap on a phone after each dash or every 12 characters (its text unchanged: `<wbr>` adds none). */
function breakable(id: string): SafeHtml {
  const parts = id.match(/[^-]{1,12}-?/g) ?? [id];
  return html`${parts.map((part, n) => html`${n > 0 ? html`<wbr />` : ''}${part}`)}`;
}

/** The columns of a bank transfer wherever transfers are listed; `describe` fills the Description cell. */
export function transferColumns(describe: (t: OpsBankTransfer) => HtmlValue): Array<Column<OpsBankTransfer>> {
  return [
    { header: tr('review.col.received'), cell: (t) => formatBooked(t.receivedAt, t.receivedTimeKnown) },
    {
      header: tr('review.transfers.col.bankTxId'),
      cell: (t) => html`<a href="/bank-transfers/${seg(t.bankTransferId)}"><code>${breakable(t.bankTxId)}</code></a>`,
    },
    { header: tr('review.col.amount'), class: 'num', cell: (t) => formatTry(t.amount) },
    { header: tr('review.col.sender'), cell: (t) => html`${t.senderName}<br /><span class="muted">${maskIban(t.senderIban)}</span>` },
    { header: tr('review.transfers.col.description'), cell: describe },
    { header: tr('review.transfers.col.status'), cell: (t) => statusBadge(t.status) },
  ];
}

/**
 * The suggestions of the page's open transfers that a near reference may name, and the deposits of its decided ones,
 * each read from the ledger (a page holds at most 50 transfers).
 */
async function listExtras(ctx: PageContext, transfers: readonly OpsBankTransfer[]): Promise<ListExtras> {
  const open = transfers.filter(
    (t) => isAssignable(t) && (t.unmatchedReason === 'no_reference' || t.unmatchedReason === 'unknown_reference'),
  );
  const decided = [...new Set(transfers.flatMap((t) => (t.intentId && !isAssignable(t) ? [t.intentId] : [])))];
  const [suggested, deposits, sites] = await Promise.all([
    Promise.all(
      open.map(async (t) => {
        const detail = await ctx.ops.call('getBankTransfer', { params: { bankTransferId: t.bankTransferId } });
        return [t.bankTransferId, detail.suggestions ?? []] as const;
      }),
    ),
    Promise.all(
      decided.map(async (intentId) => {
        const deposit = await ctx.ops.call('opsGetIntent', { params: { intentId } }).catch(() => null);
        return [intentId, deposit] as const;
      }),
    ),
    decided.length ? siteDirectory(ctx.ops) : Promise.resolve<SiteDirectory>(new Map()),
  ]);
  return { suggestions: new Map(suggested), deposits: new Map(deposits), sites };
}

/** `/bank-transfers`: money that arrived without a usable reference, and assigning it to the right deposit. */
export function bankTransferRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/bank-transfers', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const statuses = statusTabs();
    const status = currentTab(statuses, ctx.query('status'), 'UNMATCHED');
    // Real money only: the sandboxes' simulated transfers are nobody's work (their deposit pages show them).
    // The declared transfer purpose the bank file gave (docs/statements.md): SALA, SUPP, ...; the ops API refuses what is no code.
    const purpose = ctx.query('purpose')?.trim() || undefined;
    const filters = { status, ...(purpose ? { purpose } : {}) };
    const page = await ctx.ops.call('listBankTransfers', {
      query: { ...filters, mode: 'live', limit: '50', cursor: ctx.query('cursor') },
    });
    const extras = await listExtras(ctx, page.data);
    const body = html`<p class="actions">
        <a class="btn plain" href="/bank-transfers/record">${tr('review.transfers.record')}</a>
        <a class="btn plain" href="/statements">${tr('review.transfers.import')}</a>
      </p>
      ${tabs('/bank-transfers', status, statuses)}
      <form method="get" action="/bank-transfers" class="filters" data-purpose-filter>
        <input type="hidden" name="status" value="${status}" />
        <label
          >${tr('review.transfers.purposeFilter')}
          <input
            type="text"
            name="purpose"
            value="${purpose ?? ''}"
            size="8"
            maxlength="35"
            placeholder="${tr('review.transfers.purposeExample')}"
        /></label>
        <button class="btn plain" type="submit">${tr('review.transfers.filter')}</button>
      </form>
      <p class="hint">${tr('review.transfers.hint')}</p>
      ${table({
        columns: [
          ...transferColumns((t) => describeUnmatched(t, extras.suggestions.get(t.bankTransferId))),
          {
            header:
              status === 'UNMATCHED' || status === 'SET_ASIDE' ? tr('review.transfers.col.assign') : tr('review.transfers.col.deposit'),
            cell: (t) => assignCell(ctx, t, extras),
          },
        ],
        rows: page.data,
        rowId: (t) => t.bankTransferId,
        empty: tr('review.transfers.empty'),
      })}
      ${nextPageLink('/bank-transfers', filters, page.nextCursor)} ${exportCsvLink('bank-transfers', { ...filters, mode: 'live' })}`;
    ctx.render(tr('review.transfers.title'), 'transfers', body);
  });

  router.post('/bank-transfers/:bankTransferId/set-aside', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/bank-transfers');
    await ctx.ops.call('setBankTransferAside', {
      params: { bankTransferId: pathParam(req, 'bankTransferId') },
      body: { reason: ctx.field('reason') },
    });
    ctx.done('transfer-set-aside');
  });

  router.post('/bank-transfers/:bankTransferId/assign', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/bank-transfers');
    const entered = ctx.field('intent').trim();
    let intentId = entered;
    // Operators know deposits by the reference the sender should have written; ids are for copy-paste.
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(entered)) {
      const found = await ctx.ops.call('opsListIntents', { query: { referenceNo: entered, limit: '2' } });
      if (found.data.length !== 1 || !found.data[0]) {
        throw AppError.validation([{ field: 'intent', message: tr('review.transfers.noSuchDeposit') }]);
      }
      intentId = found.data[0].intentId;
    }
    const result = await ctx.ops.call('assignBankTransfer', {
      params: { bankTransferId: pathParam(req, 'bankTransferId') },
      body: { intentId },
    });
    ctx.done('transfer-assigned', `/intents/${seg(result.intent.intentId)}`);
  });

  router.post('/bank-transfers/:bankTransferId/top-up', async (req, res) => {
    const bankTransferId = pathParam(req, 'bankTransferId');
    const ctx = actionContext(deps, req, res, `/bank-transfers/${seg(bankTransferId)}`);
    const result = await ctx.ops.call('topUpBankTransfer', { params: { bankTransferId }, body: { intentId: ctx.field('intent') } });
    ctx.done('transfer-topped-up', `/intents/${seg(result.intent.intentId)}`);
  });

  return router;
}

/**
 * Bank transfers as a kind of reviewed record (record-pages.ts): the list and its decisions here, one transfer's page
 * and the hand-typed transfer in bank-transfer.page.ts. The audit log names a transfer without linking to its page.
 */
export const bankTransfersPage = {
  section: 'transfers',
  routes: [bankTransferRoutes, bankTransferDetailRoutes],
  audit: { entityType: 'bank_transfer', detailPrefix: '/bank-transfers/' },
} as const satisfies RecordPage;
