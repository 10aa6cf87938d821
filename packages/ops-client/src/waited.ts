/**
 * How long something has waited, as the console and the CLI show it: the largest two units (`3d 4h`,
 * `2h 5m`), minutes alone under an hour (`40m`), seconds under a minute (`12s`); '' without a start.
 */
export function waitedFor(since: string | null | undefined, now: Date): string {
  const waited = waitedParts(since, now);
  if (!waited) return '';
  const { days, hours, minutes, seconds } = waited;
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${minutes}m`;
  return minutes > 0 ? `${minutes}m` : `${seconds}s`;
}

/**
 * How long since `since` at `now`, split for a writer in any language: whole days, the hours and minutes beyond them,
 * and all the seconds (read when under a minute); null when `since` is missing or not a time.
 */
export function waitedParts(
  since: string | null | undefined,
  now: Date,
): { days: number; hours: number; minutes: number; seconds: number } | null {
  const started = since ? new Date(since).getTime() : Number.NaN;
  if (Number.isNaN(started)) return null;
  const seconds = Math.max(0, Math.floor((now.getTime() - started) / 1000));
  return {
    days: Math.floor(seconds / 86400),
    hours: Math.floor((seconds % 86400) / 3600),
    minutes: Math.floor((seconds % 3600) / 60),
    seconds,
  };
}

/** Whether something waiting since `since` has waited longer than `minutes` at `now`. */
export function waitedLongerThan(since: string | null | undefined, minutes: number, now: Date): boolean {
  if (!since) return false;
  const started = new Date(since).getTime();
  return !Number.isNaN(started) && now.getTime() - started > minutes * 60_000;
}
