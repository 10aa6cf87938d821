import express, { type Router } from 'express';
import type { QueueHead } from '@kasa/contracts';
import { seg, waitedLongerThan } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { DECLARED_KINDS } from '../i18n/declared.js';
import { t, th } from '../i18n/index.js';
import { formatTime } from '../views/format.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { type QueueKey } from './live-counts.routes.js';
import { pageContext } from './page-context.js';
import { waitedText } from './record-lists.js';

interface Queue {
  /** The reconciliation differences and the auto-replayed events are shown apart: not queues. */
  key: Exclude<QueueKey, 'reconciliationDifferences' | 'autoReplayed'>;
  /** The whole queue, worked oldest first. */
  list: string;
  /** The page of the item that has waited longest. */
  item: (id: string) => string;
  /** DEAD events, failing partners and deposits waiting for the rest are not a wait to keep short: no waiting limit. */
  timed: boolean;
  /** A fault to fix (DEAD events, failing partners): marked whenever the count is not zero. */
  fault?: boolean;
}

// Each queue's name and what its count means are `dashboard.queue.<key>` and `dashboard.queue.<key>.what`; a declared
// queue's come from its declaration (i18n/declared.ts).
const RECORD_QUEUES: Queue[] = [
  { key: 'depositsToReview', list: '/review', item: (id) => `/intents/${seg(id)}`, timed: true },
  { key: 'lateArrivals', list: '/deposits?status=LATE_ARRIVAL&order=oldest', item: (id) => `/intents/${seg(id)}`, timed: true },
  // Waiting is the operator's choice, for the user's bank: no waiting limit.
  { key: 'waitingForRest', list: '/review#waiting', item: (id) => `/intents/${seg(id)}`, timed: false },
  { key: 'unmatchedTransfers', list: '/bank-transfers', item: () => '/bank-transfers', timed: true },
  { key: 'bankLineDifferences', list: '/bank-transfers', item: (id) => `/bank-transfers/${seg(id)}`, timed: false, fault: true },
  { key: 'withdrawalsToReview', list: '/review', item: (id) => `/withdrawals/${seg(id)}`, timed: true },
  { key: 'withdrawalsToSend', list: '/withdrawals?status=APPROVED', item: (id) => `/withdrawals/${seg(id)}`, timed: true },
  { key: 'returnsToReview', list: '/returns?status=PENDING_REVIEW', item: (id) => `/returns/${seg(id)}`, timed: true },
  { key: 'returnsToSend', list: '/returns?status=APPROVED', item: (id) => `/returns/${seg(id)}`, timed: true },
];

/**
 * The queues the kinds declare (their `desk` part): records waiting for an operator, so timed. The card opens the
 * kind's list on the queue's status, its first tab (held so by OpsRecordDeskOf), which reads oldest first.
 */
const DECLARED_QUEUES: Queue[] = DECLARED_KINDS.flatMap((kind) =>
  'desk' in kind
    ? [
        {
          key: kind.desk.queue,
          list: `${kind.console.path}?status=${kind.desk.status}`,
          item: (id: string) => `${kind.console.path}/${seg(id)}`,
          timed: true,
        },
      ]
    : [],
);

const FAULTS: Queue[] = [
  { key: 'deadEvents', list: '/deliveries?status=DEAD', item: (id) => `/deliveries/${seg(id)}`, timed: false, fault: true },
  { key: 'failingPartners', list: '/deliveries', item: (id) => `/sites/${seg(id)}`, timed: false, fault: true },
];

/** The record queues written for the first kinds, then the declared ones, then the faults: the desk's order. */
const QUEUES: Queue[] = [...RECORD_QUEUES, ...DECLARED_QUEUES, ...FAULTS];

/** Shown only while some receiving account's last statement disagrees with Kasa's bookings: a fault, not a queue. */
function reconciliationCard(head: QueueHead): SafeHtml | '' {
  if (head.count === 0) return '';
  return html`<section class="queue-card alert" data-queue="reconciliationDifferences">
    <h3><a href="/reconciliation">${t('dashboard.reconciliation')}</a></h3>
    <p class="count">${head.count}</p>
    <p class="what">${t('dashboard.reconciliation.what')}</p>
    ${
      head.oldestId
        ? html`<p class="oldest">
            ${th('dashboard.oldest.asOf', {
              link: html`<a href="${safeUrl(`/reconciliation/${seg(head.oldestId)}`)}">${t('dashboard.oldest')}</a>`,
              time: formatTime(head.oldestAt),
            })}
          </p>`
        : ''
    }
  </section>`;
}

/** Not a queue, so a line: DEAD events the webhook auto-replay sent again after their site answered (docs/webhooks.md). */
function autoReplayLine(head: QueueHead): SafeHtml {
  return html`<p class="hint" data-queue="autoReplayed">
    ${th('dashboard.autoReplay', {
      count: html`<strong data-live-count="autoReplayed">${head.count}</strong>`,
      link: html`<a href="/deliveries">${t('dashboard.autoReplay.link')}</a>`,
    })}
  </p>`;
}

/** How a queue's card is marked: nothing waiting, work waiting, or past its waiting limit (or a fault). */
type Tone = 'clear' | 'busy' | 'alert';

function toneOf(queue: Queue, head: QueueHead, now: Date, warnMinutes: number): Tone {
  if (head.count === 0) return 'clear';
  return queue.fault || (queue.timed && waitedLongerThan(head.oldestAt, warnMinutes, now)) ? 'alert' : 'busy';
}

function card(queue: Queue, head: QueueHead, now: Date, warnMinutes: number): SafeHtml {
  const late = queue.timed && waitedLongerThan(head.oldestAt, warnMinutes, now);
  const tone = toneOf(queue, head, now, warnMinutes);
  const time = html`<strong title="${formatTime(head.oldestAt)}">${waitedText(head.oldestAt, now)}</strong>`;
  const over = late ? html` <span class="badge danger">${t('dashboard.overLimit', { minutes: warnMinutes })}</span>` : '';
  const oldest =
    head.count > 0 && head.oldestAt
      ? html`<p class="oldest">
          ${th(queue.timed ? 'dashboard.oldest.waiting' : 'dashboard.oldest.since', {
            link: html`<a href="${safeUrl(queue.item(head.oldestId ?? ''))}">${t('dashboard.oldest')}</a>`,
            time,
            over,
          })}
        </p>`
      : html`<p class="oldest muted">${t('dashboard.nothingWaiting')}</p>`;
  // data-live-*: the page script (console.client.js) updates the count in place from /live/counts.
  return html`<section
    class="queue-card ${tone}"
    data-queue="${queue.key}"
    data-live-queue="${queue.key}"
    data-fault="${queue.fault ? 'yes' : 'no'}"
  >
    <h3><a href="${safeUrl(queue.list)}">${t(`dashboard.queue.${queue.key}`)}</a></h3>
    <p class="count" data-live-count="${queue.key}">${head.count}</p>
    <p class="what">${t(`dashboard.queue.${queue.key}.what`)}</p>
    ${oldest}
  </section>`;
}

/** What needs an operator first: past the limit or a fault, then other work waiting, each in the queues' own order. */
const TONE_ORDER: Record<Tone, number> = { alert: 0, busy: 1, clear: 2 };

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
    const ranked = QUEUES.map((queue, index) => ({ queue, index, tone: toneOf(queue, dashboard[queue.key], now, warn) })).sort(
      (a, b) => TONE_ORDER[a.tone] - TONE_ORDER[b.tone] || a.index - b.index,
    );
    const waiting = ranked.filter((r) => r.tone !== 'clear');
    const clear = ranked.filter((r) => r.tone === 'clear');
    const reconciliation = reconciliationCard(dashboard.reconciliationDifferences);
    // What needs an operator comes first on every screen: the queues with work (past the limit and faults first),
    // then the empty ones in a compact group, then the page's notes.
    const body = html`<section class="queue-group" aria-labelledby="needs-action">
        <h2 id="needs-action">${t('dashboard.needsAction')}</h2>
        ${
          waiting.length > 0 || reconciliation
            ? html`<div class="queue-cards">${reconciliation}${waiting.map((r) => card(r.queue, dashboard[r.queue.key], now, warn))}</div>`
            : html`<p class="all-clear">${t('dashboard.allClear')}</p>`
        }
      </section>
      ${
        clear.length > 0
          ? html`<section class="queue-group" aria-labelledby="nothing-waiting">
              <h2 id="nothing-waiting">${t('dashboard.clearTitle')}</h2>
              <div class="queue-cards clear-cards">${clear.map((r) => card(r.queue, dashboard[r.queue.key], now, warn))}</div>
            </section>`
          : ''
      }
      <p class="hint">
        ${th('dashboard.asOf', {
          time: html`<time datetime="${dashboard.generatedAt}" data-live-asof>${formatTime(dashboard.generatedAt)}</time>`,
          minutes: warn,
        })}
      </p>
      ${autoReplayLine(dashboard.autoReplayed)}`;
    ctx.render(t('dashboard.title'), 'dashboard', body);
  });
  return router;
}
