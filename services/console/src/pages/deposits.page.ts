import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import { DEPOSIT_STATUSES, USER_REJECTION_REASONS, type OpsBankTransfer, type RemainderAction } from '@kasa/contracts';
import type { ConsoleDeps } from '../console-deps.js';
import { USER_REASON_LABELS, depositActions, senderFlag } from '../views/actions.view.js';
import { facts, nextPageLink, statusBadge } from '../views/components.js';
import { formatTime, formatTry, readLira } from '../views/format.js';
import { html } from '../views/html.js';
import { table } from '../views/table.js';
import { transferColumns } from './bank-transfers.page.js';
import { actionContext, pageContext } from './page-context.js';
import { recordFacts } from './record-facts.js';
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
      <p class="hint">Amounts are what was requested; received differs when the user sent another figure. Days are in Türkiye time.</p>
      ${table({
        columns: [
          ...depositColumns(sites),
          { header: 'Requested', class: 'num', cell: (i) => formatTry(i.requestedAmount) },
          {
            header: 'Received',
            class: 'num',
            // Marked when the user sent another figure than was asked.
            cellClass: (i) => (i.receivedAmount !== null && i.receivedAmount !== i.requestedAmount ? 'num differs' : 'num'),
            cell: (i) => formatTry(i.receivedAmount),
          },
          { header: 'Status', cell: (i) => statusBadge(i.status) },
          {
            header: 'Waiting',
            cell: (i) =>
              i.status === 'PENDING_REVIEW' || i.status === 'LATE_ARRIVAL'
                ? waitingCell(i.awaitingReviewSince, now, deps.config.reviewWaitWarnMinutes)
                : '',
          },
        ],
        rows: page.data,
        rowId: (i) => i.intentId,
        empty: 'No deposit matches these filters.',
      })}
      ${nextPageLink('/deposits', filters.typed, page.nextCursor)} ${exportCsvLink('deposits', filters.api)}`;
    ctx.render('Deposits', 'deposits', body);
  });

  router.get('/intents/:intentId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [deposit, sites] = await withSites(ctx.ops, ctx.ops.call('opsGetIntent', { params: { intentId: pathParam(req, 'intentId') } }));
    const body = html`<section class="card">
        ${facts([
          ...recordFacts(sites, deposit, 'Intent id', deposit.intentId),
          ['Requested', formatTry(deposit.requestedAmount)],
          ['Received', formatTry(deposit.receivedAmount)],
          [
            'Waiting for the rest',
            deposit.waitingForRestSince
              ? `since ${formatTime(deposit.waitingForRestSince)}: it returns to the review queue when more money arrives`
              : null,
          ],
          [
            'Sender check',
            deposit.senderNameMismatch === null || deposit.senderNameMismatch === undefined
              ? 'nothing to compare (no user label or no transfer)'
              : deposit.senderNameMismatch.length === 0
                ? 'every sender resembles the user'
                : html`${senderFlag(deposit)} sent by ${deposit.senderNameMismatch.join(', ')}; the user is
                  ${deposit.externalUserLabel ?? ''}`,
          ],
          ['Approved amount', deposit.status === 'APPROVED' ? formatTry(deposit.amount) : null],
          ['Created', formatTime(deposit.createdAt)],
          ['Expires', formatTime(deposit.expiresAt)],
          ['Approved at', formatTime(deposit.approvedAt)],
          ['Rejected at', deposit.rejectedAt ? html`${formatTime(deposit.rejectedAt)} — ${deposit.rejectedReason ?? ''}` : null],
          [
            'User was told',
            deposit.rejectedAt ? (deposit.rejectedUserReason ? USER_REASON_LABELS[deposit.rejectedUserReason] : 'general text') : null,
          ],
          ['User said sent', deposit.userConfirmedAt ? formatTime(deposit.userConfirmedAt) : null],
        ])}
        <h2>Decision</h2>
        ${depositActions(ctx, deposit)}
      </section>
      <section>
        <h2>Bank transfers</h2>
        ${table({
          columns: [
            ...transferColumns((t) => t.description),
            // A rejected deposit kept none of its money: it may go back to the sender.
            ...(deposit.status === 'REJECTED'
              ? [
                  {
                    header: 'Money back',
                    cell: (t: OpsBankTransfer) =>
                      t.status === 'MATCHED' || t.status === 'ASSIGNED'
                        ? returnForm(ctx, t.bankTransferId, t.amount, t.senderName)
                        : html`<a href="/returns">${t.status.toLowerCase()}</a>`,
                  },
                ]
              : []),
          ],
          rows: deposit.bankTransfers,
          rowId: (t) => t.bankTransferId,
          empty: 'No transfer has been matched to this deposit.',
        })}
      </section>`;
    ctx.render(`Deposit ${deposit.referenceNo}`, 'review', body);
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
    if (typed && !userReason) throw AppError.validation([{ field: 'userReason', message: 'is not a reason the hosted page knows' }]);
    await action.ops.call('rejectIntent', {
      params: { intentId: pathParam(req, 'intentId') },
      body: { reason: action.field('reason'), ...(userReason ? { userReason } : {}) },
    });
    action.done('intent-rejected');
  });

  return router;
}
