import type winston from 'winston';

export type RepeatLimitedLevel = 'error' | 'warn' | 'info' | 'debug';

/** Logs like `logger[level](message, meta)`, holding back repeats (see {@link repeatLimited}). */
export type RepeatLimitedLog = (level: RepeatLimitedLevel, message: string, meta?: Record<string, unknown>) => void;

export interface RepeatLimitedOptions {
  /** The least time between two lines of the same entry; 5 s by default. */
  everyMs?: number;
  /** The clock; a test passes one it controls. */
  now?: () => number;
}

/** Different entries tracked at once; past this the oldest is forgotten (it may then log once more). */
const MAX_TRACKED = 200;

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/**
 * A log for errors that a failing loop or a failing dependency repeats: the first line of an entry (same
 * level, message and error text) is written at once, the same entry again at most once per `everyMs`, with
 * `repeated`: how many were held back since the last line. A Redis that answers every command with an error
 * thus costs a line every few seconds, not thousands per second, and the first occurrence is never late.
 */
export function repeatLimited(logger: winston.Logger, options: RepeatLimitedOptions = {}): RepeatLimitedLog {
  const everyMs = options.everyMs ?? 5_000;
  const now = options.now ?? Date.now;
  const seen = new Map<string, { loggedAt: number; heldBack: number }>();
  return (level, message, meta = {}) => {
    const key = `${level}\u0000${message}\u0000${errorText(meta.error)}`;
    const at = now();
    const entry = seen.get(key);
    if (entry && at - entry.loggedAt < everyMs) {
      entry.heldBack += 1;
      return;
    }
    seen.delete(key);
    if (seen.size >= MAX_TRACKED) seen.delete(seen.keys().next().value as string);
    seen.set(key, { loggedAt: at, heldBack: 0 });
    logger.log(level, message, entry && entry.heldBack > 0 ? { ...meta, repeated: entry.heldBack } : meta);
  };
}
