/**
 * What every long benchmark needs around its run: one cleanup however it ends (once, even when asked twice), a
 * watchdog that ends a run gone on too long, and SIGINT/SIGTERM doing the cleanup before exiting.
 */
export function guardRun(options: { cleanup: () => Promise<void>; watchdogMs: number; log: (line: string) => void }): {
  cleanup: () => Promise<void>;
  watchdog: NodeJS.Timeout;
} {
  let cleaning: Promise<void> | undefined;
  const cleanup = () => (cleaning ??= options.cleanup());
  const watchdog = setTimeout(() => {
    options.log(`watchdog: still running after ${Math.round(options.watchdogMs / 1000)} s; cleaning up and exiting`);
    void cleanup().finally(() => process.exit(2));
  }, options.watchdogMs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      options.log(`${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  return { cleanup, watchdog };
}
