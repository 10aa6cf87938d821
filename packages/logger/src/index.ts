import winston from 'winston';
import { redact, redactString } from './redact.js';

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

const redactFormat = winston.format((info) => {
  const cleaned = redact({ ...info }) as Record<string, unknown>;
  for (const key of Object.keys(cleaned)) (info as Record<string, unknown>)[key] = cleaned[key];
  if (typeof info.message === 'string') info.message = redactString(info.message);
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
    format: winston.format.combine(enabled(), redactFormat(), winston.format.timestamp(), winston.format.json()),
    transports: options.transports ?? [
      options.stream ? new winston.transports.Stream({ stream: options.stream }) : new winston.transports.Console(),
    ],
  });
  return logger;
}
