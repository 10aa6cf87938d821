import { Queue } from 'bullmq';
import type { RedisClient } from '@kasa/redis';
import { repeatLimited, type Logger } from '@kasa/logger';
import { queuePrefix } from '@kasa/queue';

/**
 * BullMQ queue of deposit expiry: the repeatable `sweep` cancels every intent past `expiresAt`. `expire`
 * jobs (one delayed job per intent) were enqueued on every create by earlier versions; the worker still
 * honours any left in Redis, and nothing enqueues them now.
 */
export const EXPIRY_QUEUE = 'deposit-expiry';
export const SWEEP_SCHEDULER_ID = 'deposit-expiry-sweep';

export type ExpiryJob = { kind: 'expire'; intentId: string } | { kind: 'sweep' };

export function createExpiryQueue(connection: RedisClient, redisPrefix: string): Queue<ExpiryJob> {
  return new Queue<ExpiryJob>(EXPIRY_QUEUE, { connection, prefix: queuePrefix(redisPrefix) });
}

/** How often a running ledger re-installs the sweep: ten sweep intervals, from one second to one minute. */
export function sweeperCheckIntervalMs(sweepEveryMs: number): number {
  return Math.min(60_000, Math.max(1_000, sweepEveryMs * 10));
}

/**
 * Keeps the repeatable sweep installed. The sweep is what cancels expired intents, so a ledger does not
 * trust one install at start: it installs again every {@link sweeperCheckIntervalMs} (an idempotent
 * upsert), which brings the sweep back after Redis lost its keys or was down when the ledger started.
 */
export class ExpiryScheduler {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly queue: Queue<ExpiryJob>,
    private readonly logger: Logger,
  ) {
    // Without a listener BullMQ prints a connection error raw (console.error); the scheduler retries anyway.
    const log = repeatLimited(logger);
    queue.on('error', (error) => log('debug', 'expiry queue connection error', { error }));
  }

  /** Installs (or updates) the repeatable sweep; idempotent, so every ledger replica may call it. */
  async ensureSweeper(everyMs: number): Promise<void> {
    await this.queue.upsertJobScheduler(
      SWEEP_SCHEDULER_ID,
      { every: everyMs },
      { name: 'sweep', data: { kind: 'sweep' }, opts: { removeOnComplete: true, removeOnFail: 100 } },
    );
  }

  /** Installs the sweep now and again every check interval until {@link stop}. Never throws: failures are logged and retried. */
  keepSweeperInstalled(everyMs: number): void {
    this.stop();
    this.stopped = false;
    let failing = false;
    const install = () =>
      this.ensureSweeper(everyMs).then(
        () => {
          if (failing) this.logger.info('expiry sweep installed again');
          failing = false;
        },
        (error: unknown) => {
          if (this.stopped) return;
          if (!failing) this.logger.error('expiry sweep not installed; retrying', { error, retryInMs: sweeperCheckIntervalMs(everyMs) });
          failing = true;
        },
      );
    void install();
    this.timer = setInterval(() => void install(), sweeperCheckIntervalMs(everyMs));
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
