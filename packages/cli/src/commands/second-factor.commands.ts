import type { Command } from 'commander';
import type { Context } from '../context.js';

/** `kasa 2fa`: the operator's own second factor (TOTP), step-up, and turning it off (docs/operations.md). */
export function registerSecondFactorCommands(program: Command, ctx: Context): void {
  const twoFactor = program.command('2fa').description('your second factor (TOTP authenticator app)');
  twoFactor
    .command('enroll')
    .description('start enrolling: prints the secret to type into an authenticator app (shown once); then `kasa 2fa confirm <code>`')
    .action(async () => {
      const started = await ctx.client().call('enrollSecondFactor');
      ctx.emit(started, () => {
        ctx.io.stdout.write(`Add this to your authenticator app; it is shown only now.\n`);
        ctx.io.stdout.write(`secret: ${started.secret}\n`);
        ctx.io.stdout.write(`uri:    ${started.otpauthUri}\n`);
        ctx.io.stdout.write(`Then confirm with the code it shows: kasa 2fa confirm <code>\n`);
      });
    });
  twoFactor
    .command('confirm <code>')
    .description('turn the second factor on with a first code; prints ten recovery codes, once')
    .action(async (code: string) => {
      const confirmed = await ctx.client().call('confirmSecondFactor', { body: { code } });
      ctx.emit(confirmed, () => {
        ctx.io.stdout.write(`Two-factor authentication is on since ${ctx.time(confirmed.enrolledAt)}.\n`);
        ctx.io.stdout.write(`Recovery codes (each works once in place of a code; keep them offline, they are shown only now):\n`);
        for (const recovery of confirmed.recoveryCodes) ctx.io.stdout.write(`  ${recovery}\n`);
      });
    });
  twoFactor
    .command('verify <code>')
    .description('enter a code on this token: approvals above the step-up amount are allowed for ten minutes')
    .action(async (code: string) => {
      const verified = await ctx.client().call('verifySecondFactor', { body: { code } });
      ctx.emit(verified, () => ctx.io.stdout.write(`Verified; large approvals allowed until ${verified.stepUpUntil}.\n`));
    });
  twoFactor
    .command('disable')
    .description("turn off your second factor (--code needed), or an operator's (admin, --operator)")
    .option('--operator <operatorId>', "another operator's (admin)")
    .option('--code <code>', 'a current code or a recovery code (your own)')
    .action(async (options: { operator?: string; code?: string }) => {
      const client = ctx.client();
      const operatorId = options.operator ?? (await client.call('whoAmI')).operatorId;
      const operator = await client.call('disableSecondFactor', {
        params: { operatorId },
        body: options.code ? { code: options.code } : {},
      });
      ctx.emit(operator, () => ctx.io.stdout.write(`Two-factor authentication is off for ${operator.email}.\n`));
    });
}
