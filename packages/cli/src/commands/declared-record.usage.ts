import { Command } from 'commander';
import { createContext } from '../context.js';
import { registerDeclaredRecordCommands } from './declared-record.commands.js';

/** `show <adjustmentId>`, `propose --site <siteId> ...`: a command's arguments and its flags, optional ones bracketed. */
function usage(command: Command): string {
  const args = command.registeredArguments.map((argument) => (argument.required ? `<${argument.name()}>` : `[${argument.name()}]`));
  const flags = command.options.map((option) => {
    // A choice's words in place of its placeholder: `--direction <credit|debit>`.
    const flag = option.argChoices ? option.flags.replace(/<[^>]+>/, `<${option.argChoices.join('|')}>`) : option.flags;
    return option.mandatory ? flag : `[${flag}]`;
  });
  return [command.name(), ...args, ...flags].join(' ');
}

/**
 * Every command the record kinds declare, as `kasa` registers it: its usage (`kasa adjustments show <adjustmentId>`),
 * its aliases and its description. docs/cli.md's table is made from these (scripts/cli-tables.ts), so it says the flags
 * the CLI takes rather than what a declaration meant.
 */
export function declaredRecordUsages(): Array<{ usage: string; aliases: string[]; description: string }> {
  const program = new Command('kasa');
  // Registering reads nothing and sends nothing: the context is only held for the commands' actions.
  registerDeclaredRecordCommands(program, createContext({ stdout: process.stdout, stderr: process.stderr, env: {} }, program));
  return program.commands.flatMap((group) =>
    group.commands.map((command) => ({
      usage: `kasa ${group.name()} ${usage(command)}`,
      aliases: command.aliases(),
      description: command.description(),
    })),
  );
}
