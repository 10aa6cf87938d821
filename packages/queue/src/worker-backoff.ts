import { isNotConnectionError, type Worker } from 'bullmq';

export interface WorkerBackoffOptions {
  /** Every `error` the worker emits (log it with a repeat-limited log: during a burst it is called often). */
  onError: (error: Error) => void;
  /** Told when the worker is paused for `pauseMs` because its loop keeps failing. */
  onPause?: (pauseMs: number, error: Error) => void;
  /**
   * This many errors within {@link WorkerBackoffOptions.burstWindowMs} mean the loop is spinning; 5 by default.
   * Connection errors do not count: BullMQ waits `runRetryDelay` after those itself.
   */
  burst?: number;
  burstWindowMs?: number;
  /** The first pause; each burst soon after a pause doubles it, up to `maxPauseMs`. 1 s and 30 s by default. */
  minPauseMs?: number;
  maxPauseMs?: number;
}

/**
 * Keeps a BullMQ worker from spinning when Redis answers its commands with errors. BullMQ 6.7 waits
 * `runRetryDelay` (15 s) after a connection error only (refused, closed); any other failure of fetching the
 * next job (an error reply: MOVED from a plain client pointed at a cluster node, NOAUTH, READONLY, OOM) is
 * emitted as `error` and the fetch is repeated at once, thousands of times a second. The retry rule here:
 * `burst` errors within `burstWindowMs` pause the worker (jobs in progress finish) for a pause that doubles
 * from `minPauseMs` to `maxPauseMs` while the bursts go on, and starts over once a resumed worker stays quiet
 * for a whole pause. Connection errors (refused, closed) are left to BullMQ's own delay, so a Redis outage
 * does not hold the worker back once Redis returns. A worker that is closing is never resumed. Returns a
 * function that detaches it.
 */
export function backOffWhenFailing(worker: Worker, options: WorkerBackoffOptions): () => void {
  const burst = options.burst ?? 5;
  const burstWindowMs = options.burstWindowMs ?? 1_000;
  const minPauseMs = options.minPauseMs ?? 1_000;
  const maxPauseMs = options.maxPauseMs ?? 30_000;
  let recent: number[] = [];
  let nextPauseMs = minPauseMs;
  let resumedAt = 0;
  let timer: NodeJS.Timeout | undefined;

  const onError = (error: Error) => {
    options.onError(error);
    if (timer || worker.closing || !isNotConnectionError(error)) return;
    const now = Date.now();
    recent = [...recent.filter((at) => now - at < burstWindowMs), now];
    if (recent.length < burst) return;
    recent = [];
    // Quiet for a whole pause since the last resume: this is a new failure, not the same one going on.
    if (resumedAt !== 0 && now - resumedAt > nextPauseMs) nextPauseMs = minPauseMs;
    const pauseMs = nextPauseMs;
    nextPauseMs = Math.min(maxPauseMs, pauseMs * 2);
    options.onPause?.(pauseMs, error);
    void worker.pause(true).catch(() => undefined);
    timer = setTimeout(() => {
      timer = undefined;
      if (worker.closing) return;
      resumedAt = Date.now();
      void worker.resume();
    }, pauseMs);
    timer.unref();
  };
  const onClosing = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  worker.on('error', onError);
  worker.on('closing', onClosing);
  return () => {
    onClosing();
    worker.off('error', onError);
    worker.off('closing', onClosing);
  };
}
