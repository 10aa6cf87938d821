/**
 * Long in-memory work inside a request (a statement's thousands of lines) paused now and then, so the ledger's other
 * requests (a health check, an operator's page) are answered meanwhile instead of waiting for the whole of it.
 */
import { setImmediate } from 'node:timers/promises';

/** Work done between two pauses: well inside a health check's patience, and a pause costs well under a millisecond. */
const SLICE_MS = 20;

/** Lets the event loop run what is waiting (sockets, timers) before the caller goes on. */
export function yieldToEventLoop(): Promise<void> {
  return setImmediate();
}

/**
 * A loop's pause point: `await pause()` after each item yields to the event loop once {@link SLICE_MS} of work has
 * passed since the last pause, and costs a clock read otherwise.
 */
export function timeSlices(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < SLICE_MS) return;
    await yieldToEventLoop();
    since = performance.now();
  };
}
