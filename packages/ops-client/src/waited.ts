/**
 * How long something has waited, as the console and the CLI show it: the largest two units (`3d 4h`,
 * `2h 5m`), minutes alone under an hour (`40m`), seconds under a minute (`12s`); '' without a start.
 */
export function waitedFor(since: string | null | undefined, now: Date): string {
  if (!since) return '';
  const started = new Date(since).getTime();
  if (Number.isNaN(started)) return '';
  const seconds = Math.max(0, Math.floor((now.getTime() - started) / 1000));
  const [d, h, m] = [Math.floor(seconds / 86400), Math.floor((seconds % 86400) / 3600), Math.floor((seconds % 3600) / 60)];
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  return m > 0 ? `${m}m` : `${seconds}s`;
}

/** Whether something waiting since `since` has waited longer than `minutes` at `now`. */
export function waitedLongerThan(since: string | null | undefined, minutes: number, now: Date): boolean {
  if (!since) return false;
  const started = new Date(since).getTime();
  return !Number.isNaN(started) && now.getTime() - started > minutes * 60_000;
}
