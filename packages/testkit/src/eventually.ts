/** Polls `probe` until it returns a truthy value, at most `timeoutMs`; every wait in the tests is bounded. */
export async function eventually<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
