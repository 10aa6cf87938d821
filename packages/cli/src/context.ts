import { LIRA_EXAMPLES, MoneyInputError, parseLiraToMinorUnits } from '@kasa/money';
import { InvalidArgumentError, type Command } from 'commander';
import { OpsClient } from '@kasa/ops-client';
import { printJson, type Io } from './output.js';
import { timeFormatFor, type TimeFormat } from './times.js';

/** What every command gets: the ops client built from the global options, and the output mode. */
export interface Context {
  io: Io;
  client(): OpsClient;
  jsonMode(): boolean;
  /** `--json`: print `value` as JSON; otherwise run `human`. */
  emit(value: unknown, human: () => void): void;
  /** An instant as people read it: in KASA_TIME_ZONE (Europe/Istanbul by default), or UTC ISO with `--utc`. */
  time: TimeFormat;
  /** The process exit code so far; a command that found problems sets 1 without throwing. */
  exitCode: number;
}

export const DEFAULT_URL = 'http://127.0.0.1:8081';

/**
 * Where the ledger answers when neither --url nor KASA_URL says: where `npm start` puts it, on LEDGER_PORT (8081 by
 * default) at BIND_ADDRESS (127.0.0.1 by default; one that listens on every interface is reached on 127.0.0.1).
 */
export function ledgerUrlFromEnv(env: Record<string, string | undefined>): string {
  const bind = env.BIND_ADDRESS || '127.0.0.1';
  const host = bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind;
  return `http://${host}:${env.LEDGER_PORT || '8081'}`;
}

export function createContext(io: Io, program: Command): Context {
  const options = () => program.opts<{ url?: string; token?: string; json?: boolean; utc?: boolean }>();
  let times: TimeFormat | undefined;
  return {
    io,
    client() {
      const { url, token } = options();
      return new OpsClient({
        baseUrl: url ?? (io.env.KASA_URL || ledgerUrlFromEnv(io.env)),
        ...((token ?? io.env.KASA_TOKEN) ? { token: token ?? io.env.KASA_TOKEN } : {}),
        ...(io.fetch ? { fetch: io.fetch } : {}),
      });
    },
    jsonMode: () => options().json === true,
    emit(value, human) {
      if (options().json) printJson(io.stdout, value);
      else human();
    },
    // Read once the options are parsed; cli.ts asks for it before any command runs, so a bad KASA_TIME_ZONE stops
    // the command before its request, never after an action was taken.
    time: (iso) => (times ??= timeFormatFor(io.env, options().utc === true))(iso),
    exitCode: 0,
  };
}

/**
 * Amount flags are lira, as in the console: "1500", "1500,50", "1.500,50" and "1,500.50" (see @kasa/money).
 * Output in --json keeps the API's kuruş digits.
 */
export function parseAmount(input: string): string {
  try {
    return parseLiraToMinorUnits(input);
  } catch (error) {
    // InvalidArgumentError: commander reports it as a usage error (exit 2) naming the option.
    if (error instanceof MoneyInputError)
      throw new InvalidArgumentError(`"${input}" ${error.message} (amounts are lira, ${LIRA_EXAMPLES})`);
    throw error;
  }
}
