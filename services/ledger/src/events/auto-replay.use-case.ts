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

export interface AutoReplayDeps extends ReplayDeps {
  redis: RedisClient;
  redisPrefix: string;
  config: ReplayDeps['config'] & Pick<KasaConfig, 'webhookAutoReplayWindowHours' | 'webhookSiteConcurrency' | 'webhookTimeoutMs'>;
  /** Waits between looks at a wave's progress (tests pass a short one). */
  pollMs?: number;
}

export interface AutoReplayRequest {
  siteId: string;
  trigger: AutoReplayTrigger;
}

/**
 * `replayed` events in `waves`; why it ended: `done` (no DEAD event left in the window), `failing` (a replayed
 * event's attempt failed: the site stopped answering again, the rest stays DEAD until it answers), `stalled`
 * (a wave was not attempted within its wait), `busy` (another ledger replays this site now), `off`.
 */
export interface AutoReplayResult {
  outcome: 'done' | 'failing' | 'stalled' | 'busy' | 'off';
  replayed: number;
  waves: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Replays the DEAD events of the last WEBHOOK_AUTO_REPLAY_WINDOW_HOURS of a site that answers again (the webhook
 * worker saw a delivery or a probe succeed), oldest first, each through {@link replayDeadEvents}: a normal replay
 * (a new delivery cycle, the same eventId, an `EVENT.REPLAYED` audit entry by SYSTEM `webhook-auto-replay`).
 *
 * Paced to the site's slots: a wave of WEBHOOK_SITE_CONCURRENCY events, and the next wave only once each event
 * of this one has had its first attempt, so the replay never queues more for the site than one worker lets run
 * at once. A failed attempt in a wave stops the replay: the site went down again, and its backlog should stay
 * DEAD (not turn into retries) until it answers again. One ledger replays a site at a time: a Redis lock per
 * site, held while the waves run, so two requests (two workers, a redelivered job) never replay an event twice.
 */
export async function autoReplaySite(deps: AutoReplayDeps, request: AutoReplayRequest): Promise<AutoReplayResult> {
  const { siteId, trigger } = request;
  const windowHours = deps.config.webhookAutoReplayWindowHours;
  if (windowHours <= 0) return { outcome: 'off', replayed: 0, waves: 0 };
  const waveSize = deps.config.webhookSiteConcurrency;
  // A wave's first attempts may each wait out a timeout behind a slow start of one slot.
  const waveWaitMs = 2 * deps.config.webhookTimeoutMs + 10_000;
  const lockMs = waveWaitMs + 30_000;
  const pollMs = deps.pollMs ?? 250;
  const key = `${deps.redisPrefix}:auto-replay:${siteId}`;
  const token = randomUUID();
  if ((await deps.redis.set(key, token, 'PX', lockMs, 'NX')) !== 'OK') return { outcome: 'busy', replayed: 0, waves: 0 };

  const requestId = `auto-replay-${token}`;
  let replayed = 0;
  let waves = 0;
  let outcome: AutoReplayResult['outcome'] = 'done';
  try {
    for (;;) {
      const now = deps.clock.now();
      const since = new Date(now.getTime() - windowHours * 3_600_000);
      const wave = await replayDeadEvents(deps, { siteId, since, until: now, actor: ACTOR, requestId, limit: waveSize });
      if (wave.replayed === 0) break;
      replayed += wave.replayed;
      waves += 1;
      await deps.redis.eval(RENEW, 1, key, token, String(lockMs));
      const progress = await waveOutcome(deps, wave.eventIds, now, waveWaitMs, pollMs);
      if (progress !== 'delivered') {
        outcome = progress;
        break;
      }
    }
  } finally {
    await deps.redis.eval(RELEASE, 1, key, token).catch(() => undefined);
  }
  deps.logger.info('dead events auto-replayed', { requestId, siteId, trigger, replayed, waves, outcome });
  return { outcome, replayed, waves };
}

/** Waits until each event of the wave has had an attempt in its new cycle; `failing` as soon as one failed. */
async function waveOutcome(
  deps: AutoReplayDeps,
  eventIds: string[],
  replayedAt: Date,
  waitMs: number,
  pollMs: number,
): Promise<'delivered' | 'failing' | 'stalled'> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await deps.events.deliveryProgress(eventIds);
    const attempted = (row: (typeof rows)[number]) =>
      row.status !== 'PENDING' || (row.lastAttemptAt !== null && row.lastAttemptAt >= replayedAt);
    const failed = rows.some((row) => row.status === 'DEAD' || (row.status === 'PENDING' && attempted(row)));
    if (failed) return 'failing';
    if (rows.every(attempted)) return 'delivered';
    if (Date.now() > deadline) return 'stalled';
    await sleep(pollMs);
  }
}
