import type { Operator, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { SecretBox } from '@kasa/secret-box';
import { writeAudit } from '../shared/audit.repository.js';
import type { Clock } from '../shared/clock.js';
import type { LoginThrottle } from './login-throttle.js';
import { actorOf, BOOTSTRAP_OPERATOR_ID, isAdmin, type OperatorPrincipal } from '../shared/operator-principal.js';
import type { OperatorRepository } from './operator.repository.js';
import { operatorView } from './operator.views.js';
import { enrollmentOf, isTotpCode, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpStepOf } from './totp.js';

/** How long a code entered on a token lets it approve amounts above STEP_UP_ABOVE_KURUS. */
export const STEP_UP_WINDOW_MS = 10 * 60 * 1000;

export interface SecondFactorDeps {
  db: PrismaClient;
  clock: Clock;
  operators: OperatorRepository;
  loginThrottle: LoginThrottle;
  /** Seals TOTP secrets at rest (AES-256-GCM with SECRET_ENCRYPTION_KEY, bound to the operator id). */
  totpSecrets: SecretBox;
}

const invalidCode = () => new AppError('unauthorized', 'The code is wrong, expired or already used.', undefined, undefined, 'otp_invalid');

/** The operator a `/me/2fa` call acts for: a person's own account (the bootstrap token has none). */
async function ownAccount(deps: SecondFactorDeps, caller: OperatorPrincipal): Promise<Operator> {
  if (caller.operatorId === BOOTSTRAP_OPERATOR_ID || !caller.tokenId)
    throw AppError.conflict('bootstrap_token', 'The bootstrap token is configuration and has no second factor; log in as an operator.');
  const operator = await deps.operators.findById(caller.operatorId);
  if (!operator) throw new AppError('unauthorized', 'The operator token is not valid, expired or revoked.');
  return operator;
}

/**
 * Checks a code the operator typed: six digits from the app (each time step accepted once), or an unused
 * recovery code (then used up, and audited). Counted against the operator's code allowance first, so wrong
 * codes are throttled like wrong passwords (429 once used up). Throws 401 `otp_invalid` when wrong.
 */
export async function checkSecondFactorCode(deps: SecondFactorDeps, operator: Operator, code: string): Promise<void> {
  const attempt = await deps.loginThrottle.admitCode(operator.id);
  if (!operator.totpSecretEnc || !operator.totpEnrolledAt) throw invalidCode();
  const matched = isTotpCode(code) ? await totpMatches(deps, operator, code.trim()) : await recoveryCodeMatches(deps, operator, code);
  if (!matched) throw invalidCode();
  await deps.loginThrottle.codeSucceeded(attempt);
}

async function totpMatches(deps: SecondFactorDeps, operator: Operator, code: string): Promise<boolean> {
  const secret = deps.totpSecrets.open(operator.totpSecretEnc as string, operator.id);
  const step = totpStepOf(secret, code, deps.clock.now());
  return step !== null && (await deps.operators.acceptTotpStep(operator.id, step));
}

async function recoveryCodeMatches(deps: SecondFactorDeps, operator: Operator, code: string): Promise<boolean> {
  return deps.db.$transaction(async (tx) => {
    if (!(await deps.operators.useRecoveryCode(tx, operator.id, recoveryCodeHash(operator.id, code), deps.clock.now()))) return false;
    await writeAudit(tx, {
      actor: { type: 'OPERATOR', id: operator.id },
      action: 'OPERATOR.RECOVERY_CODE_USED',
      entityType: 'operator',
      entityId: operator.id,
    });
    return true;
  });
}

/**
 * Starts an enrollment: a new secret, sealed at rest, answered this once with its otpauth URI and QR code.
 * It counts only once {@link confirmSecondFactor} saw a first code; starting again replaces a pending one.
 */
export async function enrollSecondFactor(deps: SecondFactorDeps, caller: OperatorPrincipal) {
  const operator = await ownAccount(deps, caller);
  const secret = newTotpSecret();
  if (!(await deps.operators.startTotp(operator.id, deps.totpSecrets.seal(secret, operator.id))))
    throw AppError.conflict('otp_already_enrolled', 'Two-factor authentication is already on; turn it off before enrolling again.');
  return { secret, ...(await enrollmentOf(secret, operator.email)) };
}

/** Turns the second factor on with a first code; answers the recovery codes, this once (only hashes are kept). */
export async function confirmSecondFactor(deps: SecondFactorDeps, caller: OperatorPrincipal, code: string) {
  const operator = await ownAccount(deps, caller);
  if (operator.totpEnrolledAt)
    throw AppError.conflict('otp_already_enrolled', 'Two-factor authentication is already on; turn it off before enrolling again.');
  if (!operator.totpSecretEnc) throw AppError.conflict('otp_not_pending', 'There is no enrollment to confirm; start one first.');
  const attempt = await deps.loginThrottle.admitCode(operator.id);
  const now = deps.clock.now();
  const step = totpStepOf(deps.totpSecrets.open(operator.totpSecretEnc, operator.id), code.trim(), now);
  if (step === null) throw invalidCode();
  const recoveryCodes = newRecoveryCodes();
  const confirmed = await deps.db.$transaction(async (tx) => {
    const hashes = recoveryCodes.map((recovery) => recoveryCodeHash(operator.id, recovery));
    if (!(await deps.operators.confirmTotp(tx, operator.id, step, now, hashes))) return false;
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'OPERATOR.SECOND_FACTOR_ENROLLED',
      entityType: 'operator',
      entityId: operator.id,
    });
    return true;
  });
  if (!confirmed) throw AppError.conflict('otp_already_enrolled', 'Two-factor authentication was turned on meanwhile.');
  await deps.loginThrottle.codeSucceeded(attempt);
  // The code was just entered on this token: it may step up at once.
  await deps.operators.stampSecondFactor(caller.tokenId as string, now);
  return { enrolledAt: now.toISOString(), recoveryCodes };
}

/** Step-up: checks a code and stamps the token, which may then approve large amounts for ten minutes. */
export async function verifySecondFactor(deps: SecondFactorDeps, caller: OperatorPrincipal, code: string) {
  const operator = await ownAccount(deps, caller);
  if (!operator.totpEnrolledAt) throw AppError.conflict('otp_not_enrolled', 'Two-factor authentication is not on for this account.');
  await checkSecondFactorCode(deps, operator, code);
  const now = deps.clock.now();
  await deps.operators.stampSecondFactor(caller.tokenId as string, now);
  return { secondFactorAt: now.toISOString(), stepUpUntil: new Date(now.getTime() + STEP_UP_WINDOW_MS).toISOString() };
}

/**
 * Turns an operator's second factor off (secret and recovery codes). One's own needs a code, so a stolen
 * session cannot remove it; an admin may turn off anyone else's without one (a lost phone).
 */
export async function disableSecondFactor(deps: SecondFactorDeps, caller: OperatorPrincipal, operatorId: string, code?: string) {
  const own = caller.operatorId === operatorId;
  if (!own && !isAdmin(caller)) throw new AppError('forbidden', "Only an admin may turn off another operator's second factor.");
  const operator = await deps.operators.findById(operatorId);
  if (!operator) throw new AppError('not_found', 'No operator with this id.');
  if (!operator.totpSecretEnc) throw AppError.conflict('otp_not_enrolled', 'Two-factor authentication is not on for this account.');
  if (own && operator.totpEnrolledAt) {
    if (!code) throw AppError.validation([{ field: 'code', message: 'is required to turn off your own second factor' }]);
    await checkSecondFactorCode(deps, operator, code);
  }
  await deps.db.$transaction(async (tx) => {
    if (!(await deps.operators.clearTotp(tx, operatorId))) return;
    if (!own) await deps.operators.markChangedBy(tx, operatorId, caller.operatorId);
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'OPERATOR.SECOND_FACTOR_DISABLED',
      entityType: 'operator',
      entityId: operatorId,
    });
  });
  return operatorView((await deps.operators.findById(operatorId)) as Operator);
}
