import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of asynchronous work belongs to, set by the `requestId` middleware for everything the
 * request starts. Business code passes its request context explicitly (ADR 0012); this ambient copy serves
 * only the one place that has nothing to be passed: the process-level handler of an unexpected rejection
 * ({@link runProcess}), which names the request that caused it.
 */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>();

/** The id of the request whose work is running now, if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore()?.requestId;
}
