import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { OpsBankTransfer, OpsIntentDetail } from '@kasa/contracts';
import { returnForm } from './returns.page.js';
import { USER_REASON_LABELS, intentActions, senderFlag } from '../views/actions.view.js';
import { facts } from '../views/components.js';
import { formatTime, formatTry, readLira } from '../views/format.js';
import { html } from '../views/html.js';
import { table } from '../views/table.js';
import { transferColumns } from './bank-transfers.page.js';
import { actionContext, pageContext } from './page-context.js';
import { recordFacts } from './record-facts.js';
import { getWithSites } from './site-names.js';

/** `/intents/:intentId`: one deposit with the transfers that paid it, and its review decisions. */
export function intentRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/intents/:intentId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [intent, sites] = await getWithSites<OpsIntentDetail>(ctx.ops, `/intents/${seg(pathParam(req, 'intentId'))}`);
    const body = html`<section class="card">
        ${facts([
          ...recordFacts(sites, intent, 'Intent id', intent.intentId),
          ['Requested', formatTry(intent.requestedAmount)],
          ['Received', formatTry(intent.receivedAmount)],
          [
            'Sender check',
            intent.senderNameMismatch === null || intent.senderNameMismatch === undefined
              ? 'nothing to compare (no user label or no transfer)'
              : intent.senderNameMismatch.length === 0
                ? 'every sender resembles the user'
                : html`${senderFlag(intent)} sent by ${intent.senderNameMismatch.join(', ')}; the user is ${intent.externalUserLabel ?? ''}`,
          ],
          ['Approved amount', intent.status === 'APPROVED' ? formatTry(intent.amount) : null],
          ['Created', formatTime(intent.createdAt)],
          ['Expires', formatTime(intent.expiresAt)],
          ['Approved at', formatTime(intent.approvedAt)],
          ['Rejected at', intent.rejectedAt ? html`${formatTime(intent.rejectedAt)} — ${intent.rejectedReason ?? ''}` : null],
          [
            'User was told',
            intent.rejectedAt ? (intent.rejectedUserReason ? USER_REASON_LABELS[intent.rejectedUserReason] : 'general text') : null,
          ],
          ['User said sent', intent.userConfirmedAt ? formatTime(intent.userConfirmedAt) : null],
        ])}
        <h2>Decision</h2>
        ${intentActions(ctx, intent)}
      </section>
      <section>
        <h2>Bank transfers</h2>
        ${table({
          columns: [
            ...transferColumns((t) => t.description),
            // A rejected deposit kept none of its money: it may go back to the sender.
            ...(intent.status === 'REJECTED'
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
          rows: intent.bankTransfers,
          rowId: (t) => t.bankTransferId,
          empty: 'No transfer has been matched to this deposit.',
        })}
      </section>`;
    ctx.render(`Deposit ${intent.referenceNo}`, 'review', body);
  });

  router.post('/intents/:intentId/approve', async (req, res) => {
    const action = actionContext(deps, req, res, '/review');
    const typed = action.field('amount');
    const read = typed ? readLira(typed) : null;
    if (read && 'problem' in read) throw AppError.validation([{ field: 'amount', message: read.problem }]);
    await action.ops.post(`/intents/${seg(pathParam(req, 'intentId'))}/approve`, read ? { amount: read.minor } : {});
    action.done('intent-approved');
  });

  router.post('/intents/:intentId/reject', async (req, res) => {
    const action = actionContext(deps, req, res, '/review');
    const userReason = action.field('userReason');
    await action.ops.post(`/intents/${seg(pathParam(req, 'intentId'))}/reject`, {
      reason: action.field('reason'),
      ...(userReason ? { userReason } : {}),
    });
    action.done('intent-rejected');
  });

  return router;
}
