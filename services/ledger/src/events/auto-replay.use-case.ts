import { randomUUID } from 'node:crypto';
import type { KasaConfig } from '@kasa/config';
import type { AutoReplayTrigger } from '@kasa/queue';
import type { RedisClient } from '@kasa/redis';
import type { Actor } from '../shared/audit.repository.js';
import type { ReplayDeps } from './replay-event.use-case.js';
import { replayDeadEvents } from './recover-events.use-case.js';

/** The rule that replays a recovered site's DEAD events: the audit entries' SYSTEM actor id. */
export const AUTO_REPLAY_RULE = 'webhook-auto-replay';
const ACTOR: Actor = { type: 'SYSTEM', id: AUTO_REPLAY_RULE };

/**
 * The site lock's lease: a replaying ledger renews it every third of this while the replay runs, so a ledger
 * killed mid-replay frees its site within this (docs/webhooks.md, Auto-replay). It is also the auto-replay
 * job's BullMQ lock (auto-replay.worker.ts), so the killed ledger's job is handed to another one as soon.
 */
export const AUTO_REPLAY_LEASE_MS = 6_000;

export interface AutoReplayDeps extends ReplayDeps {
  redis: RedisClient;
  redisPrefix: string;
  config: ReplayDeps['config'] & Pick<KasaConfig, 'webhookAutoReplayWindowHours' | 'webhookSiteConcurrency' | 'webhookTimeoutMs'>;
  /** Waits between looks at the replayed events' progress (tests pass a short one). */
  pollMs?: number;
  /** The site lock's lease; {@link AUTO_REPLAY_LEASE_MS} unless a test shortens it. */
  leaseMs?: number;
}

export interface AutoReplayRequest {
  siteId: string;
  trigger: AutoReplayTrigger;
}

/**
 * `replayed` events in `batches` (each a refill of the window); why it ended: `done` (no DEAD event left in
 * the window), `failing` (a replayed event's attempt failed: the site stopped answering again, the rest stays
 * DEAD until it answers), `stalled` (no replayed event was attempted within the wait), `busy` (another ledger
 * replays this site and keeps its lease), `lost` (the lease could not be renewed for a whole lease: another
 * ledger may take over, so this one stops), `off`.
 */
export interface AutoReplayResult {
  outcome: 'done' | 'failing' | 'stalled' | 'busy' | 'lost' | 'off';
  replayed: number;
  batches: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Replays the DEAD events of the last WEBHOOK_AUTO_REPLAY_WINDOW_HOURS of a site that answers again (the webhook
 * worker saw a delivery or a probe succeed), oldest first, through {@link replayDeadEvents}: each a normal replay
 * (a new delivery cycle, the same eventId, an `EVENT.REPLAYED` audit entry by SYSTEM `webhook-auto-replay`),
 * each refill of the window one transaction and one enqueue.
 *
 * Paced by a window: at most WEBHOOK_SITE_CONCURRENCY replayed events wait for their first attempt at any time
 * (as many as one worker delivers to the site at once), and each one attempted makes room for the next at the
 * next look (every 50 ms), so the site's slots stay busy without the backlog being queued ahead of them; a
 * refill is one transaction whatever its size. A failed attempt stops the replay: the site
 * went down again, and its backlog should stay DEAD (not turn into retries) until it answers again.
 *
 * One ledger replays a site at a time: a lease per site in Redis ({@link AUTO_REPLAY_LEASE_MS}), renewed by a
 * heartbeat while the replay runs, so two requests (two workers, a redelivered job) never replay together, and a
 * ledger killed mid-replay holds the site for at most one lease. A request that finds the lease held waits up to
 * one lease for it: a live holder renews it (this request is `busy`), a dead one's runs out (this one resumes).
 */
export async function autoReplaySite(deps: AutoReplayDeps, request: AutoReplayRequest): Promise<AutoReplayResult> {
  const { siteId, trigger } = request;
  const windowHours = deps.config.webhookAutoReplayWindowHours;
  if (windowHours <= 0) return { outcome: 'off', replayed: 0, batches: 0 };
  const windowSize = deps.config.webhookSiteConcurrency;
  // A replayed event's first attempt may wait out a timeout behind a slow start of one slot.
  const stallMs = 2 * deps.config.webhookTimeoutMs + 10_000;
  const pollMs = deps.pollMs ?? 50;
  const leaseMs = deps.leaseMs ?? AUTO_REPLAY_LEASE_MS;
  const key = `${deps.redisPrefix}:auto-replay:${siteId}`;
  const token = randomUUID();
  if (!(await acquire(deps.redis, key, token, leaseMs, pollMs))) return { outcome: 'busy', replayed: 0, batches: 0 };
  const lease = heartbeat(deps.redis, key, token, leaseMs);

  const requestId = `auto-replay-${token}`;
  /** Replayed events not yet attempted in their new cycle, with when they were replayed. */
  const waiting = new Map<string, Date>();
  let replayed = 0;
  let batches = 0;
  let drained = false;
  let progressAt = Date.now();
  let outcome: AutoReplayResult['outcome'] = 'done';
  try {
    for (;;) {
      if (!lease.held()) {
        outcome = 'lost';
        break;
      }
      const room = windowSize - waiting.size;
      if (room > 0 && !drained) {
        const now = deps.clock.now();
        const since = new Date(now.getTime() - windowHours * 3_600_000);
        const batch = await replayDeadEvents(deps, {
          siteId,
          since,
          until: now,
          actor: ACTOR,
          requestId,
          limit: room,
        });
        for (const eventId of batch.eventIds) waiting.set(eventId, now);
        replayed += batch.replayed;
        if (batch.replayed > 0) batches += 1;
        // Nothing more to replay for now; looked at again once every replayed event has had its attempt.
        drained = batch.replayed < room;
      }
      if (waiting.size === 0) {
        if (drained) break;
        continue;
      }
      await sleep(pollMs);
      const progress = await attempts(deps, waiting);
      if (progress === 'failing') {
        outcome = 'failing';
        break;
      }
      if (progress > 0) {
        progressAt = Date.now();
        if (waiting.size === 0) drained = false;
      } else if (Date.now() - progressAt > stallMs) {
        outcome = 'stalled';
        break;
      }
    }
  } finally {
    lease.stop();
    await deps.redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
  deps.logger.info('dead events auto-replayed', { requestId, siteId, trigger, replayed, batches, outcome });
  return { outcome, replayed, batches };
}

/**
 * Takes the site's lease, or waits for it up to one lease and a poll: a holder that is alive renews it
 * meanwhile, so the wait ends `false`; a holder that died lets it run out.
 */
async function acquire(redis: RedisClient, key: string, token: string, leaseMs: number, pollMs: number): Promise<boolean> {
  const deadline = Date.now() + leaseMs + pollMs;
  for (;;) {
    if ((await redis.set(key, token, 'PX', leaseMs, 'NX')) === 'OK') return true;
    if (Date.now() > deadline) return false;
    await sleep(Math.max(pollMs, leaseMs / 12));
  }
}

/**
 * Renews the lease every third of it. `held()` turns false when Redis says another holder has it, or when no
 * renewal has succeeded for a whole lease (Redis unreachable: the key may have run out and been taken).
 */
function heartbeat(redis: RedisClient, key: string, token: string, leaseMs: number): { held(): boolean; stop(): void } {
  let renewedAt = Date.now();
  let taken = false;
  const timer = setInterval(() => {
    redis.eval(RENEW, 1, key, token, String(leaseMs)).then(
      (renewed) => {
        if (renewed === 1) renewedAt = Date.now();
        else taken = true;
      },
      () => undefined,
    );
  }, leaseMs / 3);
  timer.unref();
  return {
    held: () => !taken && Date.now() - renewedAt < leaseMs,
    stop: () => clearInterval(timer),
  };
}

/**
 * Removes from `waiting` the events attempted in their new cycle and answers how many; `failing` as soon as one
 * attempt failed (the event went DEAD again, or is PENDING with an attempt since its replay).
 */
async function attempts(deps: AutoReplayDeps, waiting: Map<string, Date>): Promise<number | 'failing'> {
  const rows = await deps.events.deliveryProgress([...waiting.keys()]);
  let attempted = 0;
  for (const row of rows) {
    const replayedAt = waiting.get(row.id) as Date;
    const tried = row.status !== 'PENDING' || (row.lastAttemptAt !== null && row.lastAttemptAt >= replayedAt);
    if (row.status === 'DEAD' || (row.status === 'PENDING' && tried)) return 'failing';
    if (tried) {
      waiting.delete(row.id);
      attempted += 1;
    }
  }
  return attempted;
}
