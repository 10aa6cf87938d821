/**
 * The helpers that need Jest's hooks, as `@kasa/testkit/jest`: kept out of the main entry because benches
 * and scripts import that outside Jest, where `@jest/globals` throws.
 */
import { afterAll, beforeAll } from '@jest/globals';

/**
 * A test file's harness, started once before its tests and stopped after them: `start` makes the harness,
 * `prepare` what every test of the file shares (sites, operators). The answer is filled in by beforeAll, so
 * read it inside tests and hooks, e.g. `const { h, site } = file;` at the top of a test.
 */
export function useHarness<H extends { stop(): Promise<void> }, Shared extends object = object>(
  start: () => Promise<H>,
  prepare?: (h: H) => Promise<Shared>,
): { h: H } & Shared {
  const file = {} as { h: H } & Shared;
  beforeAll(async () => {
    file.h = await start();
    Object.assign(file, await prepare?.(file.h));
  });
  afterAll(async () => {
    await file.h?.stop();
  });
  return file;
}
