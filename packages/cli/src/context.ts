import { InvalidArgumentError, type Command } from 'commander';
import { OpsClient } from './ops-client.js';
import { printJson, type Io } from './output.js';

/** What every command gets: the ops client built from the global options, and the output mode. */
export interface Context {
  io: Io;
  client(): OpsClient;
  jsonMode(): boolean;
  /** `--json`: print `value` as JSON; otherwise run `human`. */
  emit(value: unknown, human: () => void): void;
  /** The process exit code so far; a command that found problems sets 1 without throwing. */
  exitCode: number;
}

export const DEFAULT_URL = 'http://127.0.0.1:8081';

export function createContext(io: Io, program: Command): Context {
  const options = () => program.opts<{ url?: string; token?: string; json?: boolean }>();
  return {
    io,
    client() {
      const { url, token } = options();
      return new OpsClient({
        baseUrl: url ?? io.env.KASA_URL ?? DEFAULT_URL,
        ...((token ?? io.env.KASA_TOKEN) ? { token: (token ?? io.env.KASA_TOKEN) as string } : {}),
        ...(io.fetch ? { fetch: io.fetch } : {}),
      });
    },
    jsonMode: () => options().json === true,
    emit(value, human) {
      if (options().json) printJson(io.stdout, value);
      else human();
    },
    exitCode: 0,
  };
}

/** Amounts in kuruş ("150000"), or in lira with exactly two decimals ("1500.00"), which is unambiguous. */
export function parseAmount(input: string): string {
  const compact = input.replace(/[\s,_]/g, '');
  if (/^[1-9]\d{0,17}$/.test(compact)) return compact;
  const lira = /^(\d{1,16})\.(\d{2})$/.exec(compact);
  if (lira) {
    const minor = BigInt(lira[1] as string) * 100n + BigInt(lira[2] as string);
    if (minor > 0n) return minor.toString();
  }
  // InvalidArgumentError: commander reports it as a usage error (exit 2) naming the option.
  throw new InvalidArgumentError(`"${input}" is not an amount: give kuruş as digits (150000) or lira with two decimals (1500.00)`);
}
