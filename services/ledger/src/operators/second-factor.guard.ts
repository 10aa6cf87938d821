import type { RequestHandler } from 'express';
import { OPS_ROUTES, type OpsOperationId } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { formatTry } from '@kasa/money';
import type { Clock } from '../shared/clock.js';
import type { OperatorPrincipal } from '../shared/operator-principal.js';
import { STEP_UP_WINDOW_MS } from './second-factor.use-case.js';

/** What a token of an operator who must enroll a second factor, and has not, may still do. */
const ENROLLMENT_OPERATIONS: readonly OpsOperationId[] = ['whoAmI', 'logout', 'enrollSecondFactor', 'confirmSecondFactor'];

/**
 * OPERATOR_2FA_REQUIRED: an operator whose role must use a second factor and who has none may log in, but the
 * token may only enroll one (and log out); everything else answers 403 `otp_enrollment_required`. Put after the
 * auth guard.
 */
export function secondFactorGate(): RequestHandler {
  const allowed = new Set(ENROLLMENT_OPERATIONS.map((id) => `${OPS_ROUTES[id].method} ${OPS_ROUTES[id].path}`));
  return (req, res, next) => {
    if (res.locals.operator?.secondFactor !== 'REQUIRED' || allowed.has(`${req.method} ${req.path}`)) {
      next();
      return;
    }
    next(
      new AppError(
        'forbidden',
        'Your role must use two-factor authentication: enroll it (POST /ops/v1/me/2fa/enroll, then confirm) before anything else.',
        undefined,
        undefined,
        'otp_enrollment_required',
      ),
    );
  };
}

export interface StepUpDeps {
  clock: Clock;
  config: { stepUpAboveKurus: bigint };
}

/**
 * Step-up: approving more than STEP_UP_ABOVE_KURUS needs a second-factor code entered on this token (at login or
 * with POST /ops/v1/me/2fa/verify) in the last ten minutes, so a stolen session alone cannot move large sums.
 * Throws 403 `step_up_required` otherwise. The bootstrap token and the service's own principals have no token to
 * stamp and are not asked (the bootstrap token is configuration, meant only to create the first admins).
 */
export function requireStepUp(deps: StepUpDeps, caller: OperatorPrincipal, amount: bigint): void {
  if (amount <= deps.config.stepUpAboveKurus || caller.tokenId === null) return;
  const at = caller.secondFactorAt;
  if (at && deps.clock.now().getTime() - at.getTime() < STEP_UP_WINDOW_MS) return;
  const above = formatTry(deps.config.stepUpAboveKurus);
  const detail =
    caller.secondFactor === 'ENROLLED'
      ? `Approving more than ${above} needs a fresh code: enter one (POST /ops/v1/me/2fa/verify) and try again.`
      : `Approving more than ${above} needs a code from a second factor; turn on two-factor authentication first.`;
  throw new AppError('forbidden', detail, undefined, undefined, 'step_up_required');
}
