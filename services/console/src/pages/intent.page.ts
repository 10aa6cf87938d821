import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import type { ConsoleDeps } from '../console-deps.js';
import { seg } from '@kasa/ops-client';
import type { OpsIntentDetail } from '@kasa/contracts';
import { intentActions } from '../views/actions.view.js';
import { emptyRow, facts, statusBadge } from '../views/components.js';
import { formatTime, formatTry, maskIban, readLira } from '../views/format.js';
import { html } from '../views/html.js';
import { actionContext, pageContext } from './page-context.js';
import { siteDirectory, siteLink } from './site-names.js';

/** `/intents/:intentId`: one deposit with the transfers that paid it, and its review decisions. */
export function intentRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/intents/:intentId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [intent, sites] = await Promise.all([
      ctx.ops.get<OpsIntentDetail>(`/intents/${seg(pathParam(req, 'intentId'))}`),
      siteDirectory(ctx.ops),
    ]);
    const body = html`<section class="card">
        ${facts([
          ['Status', statusBadge(intent.status)],
          ['Reference', html`<code>${intent.referenceNo}</code>`],
          ['Intent id', html`<code>${intent.intentId}</code>`],
          ['Site', siteLink(sites, intent.siteId)],
          ['User', html`<code>${intent.externalUserId}</code> ${intent.externalUserLabel ?? ''}`],
          ['Requested', formatTry(intent.requestedAmount)],
          ['Received', formatTry(intent.receivedAmount)],
          ['Approved amount', intent.status === 'APPROVED' ? formatTry(intent.amount) : null],
          ['Created', formatTime(intent.createdAt)],
          ['Expires', formatTime(intent.expiresAt)],
          ['Approved at', formatTime(intent.approvedAt)],
          ['Rejected at', intent.rejectedAt ? html`${formatTime(intent.rejectedAt)} — ${intent.rejectedReason ?? ''}` : null],
        ])}
        <h2>Decision</h2>
        ${intentActions(ctx, intent)}
      </section>
      <section>
        <h2>Bank transfers</h2>
        <table class="list">
          <thead>
            <tr>
              <th>Received</th>
              <th>Bank tx id</th>
              <th class="num">Amount</th>
              <th>Sender</th>
              <th>Description</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            ${
              intent.bankTransfers.length === 0
                ? emptyRow(6, 'No transfer has been matched to this deposit.')
                : intent.bankTransfers.map(
                    (t) =>
                      html`<tr>
                        <td>${formatTime(t.receivedAt)}</td>
                        <td><code>${t.bankTxId}</code></td>
                        <td class="num">${formatTry(t.amount)}</td>
                        <td>${t.senderName}<br /><span class="muted">${maskIban(t.senderIban)}</span></td>
                        <td>${t.description}</td>
                        <td>${statusBadge(t.status)}</td>
                      </tr>`,
                  )
            }
          </tbody>
        </table>
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
    await action.ops.post(`/intents/${seg(pathParam(req, 'intentId'))}/reject`, { reason: action.field('reason') });
    action.done('intent-rejected');
  });

  return router;
}
