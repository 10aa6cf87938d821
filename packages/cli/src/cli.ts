import { Command, CommanderError } from 'commander';
import { OpsApiError } from '@kasa/ops-client';
import { CONFLICT_HINTS } from './conflict-hints.js';
import { registerAdminCommands } from './commands/admin.commands.js';
import { registerSecondFactorCommands } from './commands/second-factor.commands.js';
import { registerEventCommands } from './commands/events.commands.js';
import { registerDeskCommands } from './commands/desk.commands.js';
import { registerAccountCommands } from './commands/accounts.commands.js';
import { registerLedgerCommands } from './commands/ledger.commands.js';
import { registerReviewCommands } from './commands/review.commands.js';
import { registerDeclaredRecordCommands } from './commands/declared-record.commands.js';
import { registerStatementCommands } from './commands/statements.commands.js';
import { registerPayoutCommands } from './commands/payouts.commands.js';
import { registerScreeningCommands } from './commands/screening.commands.js';
import { registerRiskCommands } from './commands/risk.commands.js';
import { registerErasureCommands } from './commands/erasure.commands.js';
import { createContext, DEFAULT_URL } from './context.js';
import { printJson, type Io } from './output.js';

/**
 * Runs `kasa` with `argv` (without node and the script) and returns the exit code: 0 done, 1 the API
 * refused or something failed, 2 the command line was wrong. Nothing here touches `process`, so tests run
 * it in-process with their own streams and environment.
 */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = new Command('kasa')
    .description('Kasa operator tool over the ops API (KASA_URL, KASA_TOKEN, KASA_TIME_ZONE)')
    .option('--url <url>', `ledger base URL (env KASA_URL, default ${DEFAULT_URL})`)
    .option('--token <token>', 'operator token (env KASA_TOKEN; prefer the env var)')
    .option('--json', 'print one JSON document for scripts')
    .option('--utc', 'print times as UTC ISO 8601, as the API sends them (default: KASA_TIME_ZONE, Europe/Istanbul)')
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) });
  const ctx = createContext(io, program);
  registerAdminCommands(program, ctx);
  registerSecondFactorCommands(program, ctx);
  registerReviewCommands(program, ctx);
  // Every record kind whose contract module declares its commands (adjustments), from OPS_RECORD_KINDS.
  registerDeclaredRecordCommands(program, ctx);
  registerStatementCommands(program, ctx);
  registerPayoutCommands(program, ctx);
  registerScreeningCommands(program, ctx);
  registerRiskCommands(program, ctx);
  registerAccountCommands(program, ctx);
  registerLedgerCommands(program, ctx);
  registerEventCommands(program, ctx);
  registerDeskCommands(program, ctx);
  registerErasureCommands(program, ctx);
  for (const command of program.commands) command.exitOverride();
  // Checks KASA_TIME_ZONE before any command sends a request (an unknown zone is exit 1, naming the variable).
  program.hook('preAction', () => void ctx.time(null));

  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? 0 : 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (ctx.jsonMode()) {
      // Problem details only for what the ledger answered; not reaching it is reported like any CLI failure.
      const problem =
        error instanceof OpsApiError && error.answered
          ? { status: error.status, ...error.problem }
          : { error: 'cli_error', detail: message };
      printJson(io.stdout, { error: problem });
    } else {
      io.stderr.write(`kasa: ${message}\n`);
      const reason = error instanceof OpsApiError ? error.reason : null;
      if (reason) io.stderr.write(`kasa: next: ${CONFLICT_HINTS[reason]}\n`);
    }
    return 1;
  }
}
