import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import { DEPOSIT_STATUSES, USER_REJECTION_REASONS, type OpsBankTransfer, type RemainderAction } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { USER_REASON_LABELS, depositActions, senderFlag } from '../views/actions.view.js';
import { facts, nextPageLink, statusBadge, statusLabel } from '../views/components.js';
import { formatTime, formatTry, readLira } from '../views/format.js';
import { t, th } from '../i18n/index.js';
import { html } from '../views/html.js';
import { table } from '../views/table.js';
import { transferColumns } from './bank-transfers.page.js';
import { actionContext, pageContext } from './page-context.js';
import { recordFacts } from './record-facts.js';
import type { RecordPage } from './record-page.js';
import { depositColumns, readRecordFilters, recordFilterForm, waitingCell } from './record-lists.js';
import { returnForm } from './returns.page.js';
import { siteDirectory, withSites } from './site-names.js';
import { exportCsvLink } from '../views/export-link.view.js';

/**
 * `/deposits` and `/intents/:intentId`: every deposit, filtered and in pages; one deposit with the transfers that
 * paid it; and its review decisions. The detail keeps its `/intents/...` address (the ops API's word, and every link
 * already made), while the page calls it a deposit (CONTRIBUTING.md, Glossary).
 */
/** The approve form's choice for the rest: `return` (default) or `set_aside` with its reason (the ledger requires one). */
function remainderOf(action: string, reason: string): { action: RemainderAction; reason?: string } | null {
  if (action !== 'set_aside') return action === 'return' ? { action: 'return' } : null;
  return { action: 'set_aside', ...(reason.trim() ? { reason: reason.trim() } : {}) };
}

export function depositRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/deposits', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const filters = readRecordFilters((name) => ctx.query(name), DEPOSIT_STATUSES);
    const [page, sites] = await Promise.all([
      ctx.ops.call('opsListIntents', { query: { ...filters.api, limit: '50', cursor: ctx.query('cursor') } }),
      siteDirectory(ctx.ops),
    ]);
    const now = new Date();
    const body = html`${recordFilterForm('/deposits', sites, filters, { statuses: DEPOSIT_STATUSES })}
      <p class="hint">${t('records.deposits.hint')}</p>
      ${table({
        columns: [
          ...depositColumns(sites),
          { header: t('records.col.requested'), class: 'num', cell: (i) => formatTry(i.requestedAmount) },
          {
            header: t('records.col.received'),
            class: 'num',
            // Marked when the user sent another figure than was asked.
            cellClass: (i) => (i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? 'num differs' : 'num'),
            cell: (i) => formatTry(i.receivedAmount),
          },
          { header: t('records.col.status'), cell: (i) => statusBadge(i.status) },
          {
            header: t('records.col.waiting'),
            cell: (i) =>
              i.status === 'PENDING_REVIEW' || i.status === 'LATE_ARRIVAL'
                ? waitingCell(i.awaitingReviewSince, now, deps.config.reviewWaitWarnMinutes)
                : '',
          },
        ],
        rows: page.data,
        rowId: (i) => i.intentId,
        empty: t('records.deposits.empty'),
      })}
      ${nextPageLink('/deposits', filters.typed, page.nextCursor)} ${exportCsvLink('deposits', filters.api)}`;
    ctx.render(t('records.deposits.title'), 'deposits', body);
  });

  router.get('/intents/:intentId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [deposit, sites] = await withSites(ctx.ops, ctx.ops.call('opsGetIntent', { params: { intentId: pathParam(req, 'intentId') } }));
    const body = html`<section class="card">
        ${facts([
          ...recordFacts(sites, deposit, t('records.deposit.id'), deposit.intentId),
          [t('records.col.requested'), formatTry(deposit.requestedAmount)],
          [t('records.col.received'), formatTry(deposit.receivedAmount)],
          [
            t('records.deposit.waitingForRest'),
            deposit.waitingForRestSince
              ? t('records.deposit.waitingForRestSince', { time: formatTime(deposit.waitingForRestSince) })
              : null,
          ],
          [
            t('records.deposit.senderCheck'),
            deposit.senderNameMismatch === null || deposit.senderNameMismatch === undefined
              ? t('records.deposit.senderNothing')
              : deposit.senderNameMismatch.length === 0
                ? t('records.deposit.senderAlike')
                : th('records.deposit.senderDiffers', {
                    flag: senderFlag(deposit),
                    senders: deposit.senderNameMismatch.join(', '),
                    user: deposit.externalUserLabel ?? '',
                  }),
          ],
          [t('records.deposit.approvedAmount'), deposit.status === 'APPROVED' ? formatTry(deposit.amount) : null],
          [t('records.col.created'), formatTime(deposit.createdAt)],
          [t('records.deposit.expires'), formatTime(deposit.expiresAt)],
          [t('records.fact.approvedAt'), formatTime(deposit.approvedAt)],
          [
            t('records.fact.rejectedAt'),
            deposit.rejectedAt ? html`${formatTime(deposit.rejectedAt)} — ${deposit.rejectedReason ?? ''}` : null,
          ],
          [
            t('records.deposit.userTold'),
            deposit.rejectedAt
              ? deposit.rejectedUserReason
                ? USER_REASON_LABELS[deposit.rejectedUserReason]
                : t('records.deposit.generalText')
              : null,
          ],
          [t('records.deposit.userSaidSent'), deposit.userConfirmedAt ? formatTime(deposit.userConfirmedAt) : null],
        ])}
        <h2>${t('records.deposit.decision')}</h2>
        ${depositActions(ctx, deposit)}
      </section>
      <section>
        <h2>${t('records.deposit.transfers')}</h2>
        ${table({
          columns: [
            ...transferColumns((transfer) => transfer.description),
            // A rejected deposit kept none of its money: it may go back to the sender.
            ...(deposit.status === 'REJECTED'
              ? [
                  {
                    header: t('records.deposit.moneyBack'),
                    cell: (transfer: OpsBankTransfer) =>
                      transfer.status === 'MATCHED' || transfer.status === 'ASSIGNED'
                        ? returnForm(ctx, transfer.bankTransferId, transfer.amount, transfer.senderName)
                        : html`<a href="/returns">${statusLabel(transfer.status)}</a>`,
                  },
                ]
              : []),
          ],
          rows: deposit.bankTransfers,
          rowId: (transfer) => transfer.bankTransferId,
          empty: t('records.deposit.noTransfer'),
        })}
      </section>`;
    ctx.render(t('records.deposit.title', { reference: deposit.referenceNo }), 'review', body);
  });

  router.post('/intents/:intentId/approve', async (req, res) => {
    const action = actionContext(deps, req, res, '/review');
    const typed = action.field('amount');
    const read = typed ? readLira(typed) : null;
    if (read && 'problem' in read) throw AppError.validation([{ field: 'amount', message: read.problem }]);
    // The rest's fate matters only for a typed amount (empty credits everything); the ledger ignores it when nothing is left.
    const remainder = read ? remainderOf(action.field('remainder'), action.field('remainder_reason')) : null;
    await action.ops.call('approveIntent', {
      params: { intentId: pathParam(req, 'intentId') },
      body: read ? { amount: read.minor, ...(remainder ? { remainder } : {}) } : {},
    });
    action.done('intent-approved');
  });

  router.post('/intents/:intentId/wait-for-rest', async (req, res) => {
    const action = actionContext(deps, req, res, '/review');
    await action.ops.call('waitForRest', { params: { intentId: pathParam(req, 'intentId') } });
    action.done('intent-waiting');
  });

  router.post('/intents/:intentId/reject', async (req, res) => {
    const action = actionContext(deps, req, res, '/review');
    const typed = action.field('userReason');
    const userReason = USER_REJECTION_REASONS.find((known) => known === typed);
    if (typed && !userReason) throw AppError.validation([{ field: 'userReason', message: t('records.deposit.unknownUserReason') }]);
    await action.ops.call('rejectIntent', {
      params: { intentId: pathParam(req, 'intentId') },
      body: { reason: action.field('reason'), ...(userReason ? { userReason } : {}) },
    });
    action.done('intent-rejected');
  });

  return router;
}

/** Deposits as a kind of reviewed record (record-pages.ts): a deposit's page is `/intents/<id>`. */
export const depositsPage = {
  section: 'deposits',
  routes: [depositRoutes],
  audit: { entityType: 'deposit_intent', detailPrefix: '/intents/' },
} as const satisfies RecordPage;
