import winston from 'winston';
import { redact } from './redact.js';
import { StdoutLines } from './stdout-lines.js';

export { redact, redactString, maskIban } from './redact.js';
export { repeatLimited, type RepeatLimitedLevel, type RepeatLimitedLog, type RepeatLimitedOptions } from './repeat-limited.js';

export type Logger = winston.Logger;

export interface LoggerOptions {
  service: string;
  level?: string;
  /** Extra transports, e.g. a stream a test reads to prove nothing secret is logged. */
  transports?: winston.transport[];
  /**
   * Writes the JSON lines to this stream instead of the console: a test captures a service's log with it
   * (`startLedger(config, 0, { logger: createLogger({ service: 'ledger', stream }) })`). Ignored with `transports`.
   */
  stream?: NodeJS.WritableStream;
  silent?: boolean;
}

/** Where winston's formats leave the finished line (triple-beam's MESSAGE). */
const MESSAGE = Symbol.for('message');

/**
 * The whole line in one step: a redacted copy of the entry (which also turns bigints to strings and cuts
 * cycles, so the native JSON.stringify is safe), stamped, keys in alphabetical order. This replaces
 * logform's redact -> timestamp -> json chain, which copied the entry twice and serialised it with a
 * replacer function called for every value.
 */
const jsonLine = winston.format((info) => {
  const entry = redact(info) as Record<string, unknown>;
  entry.timestamp = new Date().toISOString();
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(entry).sort()) ordered[key] = entry[key];
  (info as unknown as Record<symbol, string>)[MESSAGE] = JSON.stringify(ordered);
  return info;
});

/** JSON logs, one line per entry, with secrets and IBANs redacted before any transport sees them. */
export function createLogger(options: LoggerOptions): Logger {
  // winston formats an entry before its transports compare levels, so an entry below the logger's level
  // would still be redacted, stamped and serialised: it is dropped first (the level may change at run time).
  const enabled = winston.format((info) => (logger.isLevelEnabled(info.level) ? info : false));
  const logger: Logger = winston.createLogger({
    level: options.level ?? 'info',
    silent: options.silent ?? false,
    defaultMeta: { service: options.service },
    format: winston.format.combine(enabled(), jsonLine()),
    transports: options.transports ?? [options.stream ? new winston.transports.Stream({ stream: options.stream }) : new StdoutLines()],
  });
  return logger;
}
