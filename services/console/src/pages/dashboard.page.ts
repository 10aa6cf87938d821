import express, { type Router } from 'express';
import type { QueueHead } from '@kasa/contracts';
import { seg, waitedFor, waitedLongerThan } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { formatTime } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { type QueueKey } from './live-counts.routes.js';
import { pageContext } from './page-context.js';

interface Queue {
  key: QueueKey;
  label: string;
  /** What the count means, in a few words. */
  what: string;
  /** The whole queue, worked oldest first. */
  list: string;
  /** The page of the item that has waited longest. */
  item: (id: string) => string;
  /** DEAD events, failing partners and deposits waiting for the rest are not a wait to keep short: no waiting limit. */
  timed: boolean;
  /** A fault to fix (DEAD events, failing partners): marked whenever the count is not zero. */
  fault?: boolean;
}

const QUEUES: Queue[] = [
  {
    key: 'depositsToReview',
    label: 'Deposits to review',
    what: 'money arrived, waiting for a decision',
    list: '/review',
    item: (id) => `/intents/${seg(id)}`,
    timed: true,
  },
  {
    key: 'lateArrivals',
    label: 'Late arrivals',
    what: 'money arrived after the deposit expired',
    list: '/deposits?status=LATE_ARRIVAL&order=oldest',
    item: (id) => `/intents/${seg(id)}`,
    timed: true,
  },
  {
    key: 'waitingForRest',
    label: 'Waiting for the rest',
    what: 'paid in part, waiting for the rest of the money',
    list: '/review#waiting',
    item: (id) => `/intents/${seg(id)}`,
    // Waiting is the operator's choice, for the user's bank: no waiting limit.
    timed: false,
  },
  {
    key: 'unmatchedTransfers',
    label: 'Unmatched transfers',
    what: 'money with no deposit to credit',
    list: '/bank-transfers',
    item: () => '/bank-transfers',
    timed: true,
  },
  {
    key: 'bankLineDifferences',
    label: 'Bank line differences',
    what: "recorded by hand, the bank's own line disagrees",
    list: '/bank-transfers',
    item: (id) => `/bank-transfers/${seg(id)}`,
    timed: false,
    fault: true,
  },
  {
    key: 'withdrawalsToReview',
    label: 'Withdrawals to review',
    what: 'partners asked to pay a user',
    list: '/review',
    item: (id) => `/withdrawals/${seg(id)}`,
    timed: true,
  },
  {
    key: 'withdrawalsToSend',
    label: 'Withdrawals to send',
    what: 'approved, the money is not sent yet',
    list: '/withdrawals?status=APPROVED',
    item: (id) => `/withdrawals/${seg(id)}`,
    timed: true,
  },
  {
    key: 'returnsToReview',
    label: 'Returns to review',
    what: 'money asked to go back to its sender',
    list: '/returns?status=PENDING_REVIEW',
    item: (id) => `/returns/${seg(id)}`,
    timed: true,
  },
  {
    key: 'returnsToSend',
    label: 'Returns to send',
    what: 'approved, the money is not sent back yet',
    list: '/returns?status=APPROVED',
    item: (id) => `/returns/${seg(id)}`,
    timed: true,
  },
  {
    key: 'deadEvents',
    label: 'DEAD webhooks',
    what: 'every attempt failed; replay once fixed',
    list: '/deliveries?status=DEAD',
    item: (id) => `/deliveries/${seg(id)}`,
    timed: false,
    fault: true,
  },
  {
    key: 'failingPartners',
    label: 'Failing partners',
    what: 'last delivery failed, or DEAD events',
    list: '/deliveries',
    item: (id) => `/sites/${seg(id)}`,
    timed: false,
    fault: true,
  },
];

/** Shown only while some receiving account's last statement disagrees with Kasa's bookings: a fault, not a queue. */
function reconciliationCard(head: QueueHead): SafeHtml | '' {
  if (head.count === 0) return '';
  return html`<section class="queue-card alert" data-queue="reconciliationDifferences">
    <h2><a href="/reconciliation">Reconciliation differences</a></h2>
    <p class="count">${head.count}</p>
    <p class="what">receiving accounts whose last statement disagrees with Kasa's bookings</p>
    ${head.oldestId ? html`<p class="oldest"><a href="${safeUrl(`/reconciliation/${seg(head.oldestId)}`)}">Oldest</a>: as of ${formatTime(head.oldestAt)}</p>` : ''}
  </section>`;
}

/** Not a queue, so a line: DEAD events the webhook auto-replay sent again after their site answered (docs/webhooks.md). */
function autoReplayLine(head: QueueHead): SafeHtml {
  return html`<p class="hint" data-queue="autoReplayed">
    Webhook auto-replay, last 24 hours: <strong data-live-count="autoReplayed">${head.count}</strong> DEAD events replayed after their site
    answered (<a href="/deliveries">deliveries</a>).
  </p>`;
}

function card(queue: Queue, head: QueueHead, now: Date, warnMinutes: number): SafeHtml {
  const late = queue.timed && waitedLongerThan(head.oldestAt, warnMinutes, now);
  const tone = head.count === 0 ? 'clear' : late || queue.fault ? 'alert' : 'busy';
  const oldest =
    head.count > 0 && head.oldestAt
      ? html`<p class="oldest">
          <a href="${safeUrl(queue.item(head.oldestId ?? ''))}">Oldest</a>: ${queue.timed ? 'waiting' : 'since'}
          <strong title="${formatTime(head.oldestAt)}">${waitedFor(head.oldestAt, now)}</strong>${
            late ? html` <span class="badge danger">over ${warnMinutes} min</span>` : ''
          }
        </p>`
      : html`<p class="oldest muted">Nothing waiting.</p>`;
  // data-live-*: the page script (console.client.js) updates the count in place from /live/counts.
  return html`<section
    class="queue-card ${tone}"
    data-queue="${queue.key}"
    data-live-queue="${queue.key}"
    data-fault="${queue.fault ? 'yes' : 'no'}"
  >
    <h2><a href="${safeUrl(queue.list)}">${queue.label}</a></h2>
    <p class="count" data-live-count="${queue.key}">${head.count}</p>
    <p class="what">${queue.what}</p>
    ${oldest}
  </section>`;
}

/**
 * `/`, where the console opens after login: what needs an operator now, each queue with its count and how long its
 * oldest item has waited. The counts follow the ledger live (the page script polls /live/counts).
 */
export function dashboardRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();
  router.get('/', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const dashboard = await ctx.ops.call('opsDashboard');
    const now = new Date(dashboard.generatedAt);
    const warn = deps.config.reviewWaitWarnMinutes;
    const body = html`<p class="hint">
        As of <time datetime="${dashboard.generatedAt}" data-live-asof>${formatTime(dashboard.generatedAt)}</time> (Türkiye time), counts
        kept up to date while this page is open. A queue whose oldest item has waited over ${warn} minutes is marked.
      </p>
      ${autoReplayLine(dashboard.autoReplayed)}
      <div class="queue-cards">
        ${QUEUES.map((queue) => card(queue, dashboard[queue.key], now, warn))}${reconciliationCard(dashboard.reconciliationDifferences)}
      </div>`;
    ctx.render('Dashboard', 'dashboard', body);
  });
  return router;
}
