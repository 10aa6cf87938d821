import type { Operator, OperatorRole, OperatorToken, PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { writeAudit } from '../shared/audit.repository.js';
import { msFromNow, type Clock } from '../shared/clock.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import { decoyHash, hashPassword, verifyPassword } from './password.js';
import type { LoginThrottle } from './login-throttle.js';
import { generateOperatorToken } from './operator-token.js';
import { operatorView, tokenView } from './operator.views.js';
import { actorOf, isAdmin, type OperatorPrincipal } from '../shared/operator-principal.js';
import type { OperatorRepository } from './operator.repository.js';
import { checkSecondFactorCode, type SecondFactorDeps } from './second-factor.use-case.js';

export interface OperatorsDeps extends SecondFactorDeps {
  db: PrismaClient;
  logger: Logger;
  clock: Clock;
  operators: OperatorRepository;
  loginThrottle: LoginThrottle;
  config: { operatorSessionTtlSeconds: number };
}

const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Creates an operator account; only admins may (the route checks the role). */
export async function createOperator(
  deps: OperatorsDeps,
  caller: OperatorPrincipal,
  input: { email: string; name: string; role: OperatorRole; password?: string; siteIds?: readonly string[] },
) {
  const siteIds = [...(input.siteIds ?? [])];
  ensureScopable(input.role, siteIds);
  await ensureLiveSites(deps, siteIds);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    const operator = await deps.db.$transaction(async (tx) => {
      const created = await deps.operators.create(tx, {
        email: normalizeEmail(input.email),
        name: input.name,
        role: input.role,
        passwordHash,
        siteIds,
        createdBy: caller.operatorId,
      });
      await writeAudit(tx, {
        actor: actorOf(caller),
        action: 'OPERATOR.CREATED',
        entityType: 'operator',
        entityId: created.id,
        metadata: { email: created.email, role: created.role, withPassword: passwordHash !== null, siteIds },
      });
      return created;
    });
    return operatorView(operator);
  } catch (error) {
    if (isUniqueViolation(error))
      throw AppError.validation([{ field: 'email', message: 'is already registered' }], 'An operator with this e-mail exists.');
    throw error;
  }
}

/**
 * Console login: checks the password and issues a token that expires after OPERATOR_SESSION_TTL_SECONDS.
 * Every wrong password, unknown e-mail or disabled account answers the same 401. Before the password is
 * checked, the attempt is counted against the login allowances (login-throttle.ts): once one is used up the
 * answer is 429 with Retry-After, without checking the password, so a burst of concurrent guesses gets no
 * more checks than the allowance. `clientAddress` is the caller's socket address, or the browser's address
 * when the console forwards it with the internal token. Redis down answers 503.
 *
 * An operator with a second factor must send its `code` too: without it the answer is 401 `otp_required` (the
 * attempt stays counted, so the password cannot be tried for free), a wrong one 401 `otp_invalid`, counted
 * against the login allowances and the operator's code allowance. The token of a login with a code is stamped,
 * so it may approve large amounts (step-up) for the next ten minutes.
 */
export async function login(deps: OperatorsDeps, input: { email: string; password: string; code?: string; clientAddress: string }) {
  const email = normalizeEmail(input.email);
  const attempt = await deps.loginThrottle.admit(email, input.clientAddress);
  const operator = await deps.operators.findByEmail(email);
  try {
    return await admittedLogin(deps, input, operator, attempt);
  } catch (error) {
    if (error instanceof AppError && (error.status === 401 || error.status === 403)) {
      await recordRefusedLogin(deps, email, operator?.id ?? null, input.clientAddress, error);
    }
    throw error;
  }
}

/** Anything shaped like an e-mail address: a password typed into the e-mail field is not written down. */
const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,190}$/;

/**
 * A refused login in the audit log (docs/compliance.md, Tamper-evident history): who was tried (the operator, if the
 * address is one), from where, and why (the problem's reason or code), never the password or the code sent. Throttled
 * attempts (429) are not written: the throttle already stops them before a password is checked. A failure to write it
 * does not change the answer.
 */
async function recordRefusedLogin(deps: OperatorsDeps, email: string, operatorId: string | null, clientAddress: string, error: AppError) {
  try {
    await writeAudit(deps.db, {
      actor: { type: 'SYSTEM', id: 'login' },
      action: 'OPERATOR.LOGIN_REFUSED',
      entityType: 'operator',
      entityId: operatorId ?? 'unknown',
      metadata: { email: EMAIL_SHAPE.test(email) ? email : null, clientAddress, reason: error.reason ?? error.code },
    });
  } catch (failure) {
    // The login is refused either way; the database that could not take the entry is the one the login needed too.
    deps.logger.warn('could not write a refused login into the audit log', { error: failure });
  }
}

/** The login once the throttle let it through: the password, the role, the second factor, then the session. */
async function admittedLogin(
  deps: OperatorsDeps,
  input: { password: string; code?: string },
  operator: Awaited<ReturnType<OperatorRepository['findByEmail']>>,
  attempt: Awaited<ReturnType<LoginThrottle['admit']>>,
) {
  const usable = operator && operator.passwordHash && !operator.disabledAt;
  const matches = await verifyPassword(input.password, usable ? (operator.passwordHash as string) : await decoyHash());
  if (!usable || !matches) throw new AppError('unauthorized', 'E-mail or password is wrong, or the account is disabled.');
  if (operator.role === 'CONNECTOR') {
    throw new AppError('forbidden', "A bank connector's account cannot log in; it works with a token an admin issues it.");
  }
  let secondFactorAt: Date | null = null;
  if (operator.totpEnrolledAt) {
    if (!input.code)
      throw new AppError(
        'unauthorized',
        'This account has a second factor: send the code from the authenticator app.',
        undefined,
        undefined,
        'otp_required',
      );
    await checkSecondFactorCode(deps, operator, input.code);
    secondFactorAt = deps.clock.now();
  }
  await deps.loginThrottle.succeeded(attempt);
  const { token, tokenHash } = generateOperatorToken();
  const expiresAt = msFromNow(deps.clock, deps.config.operatorSessionTtlSeconds * 1000);
  const created = await deps.db.$transaction(async (tx) => {
    const row = await deps.operators.createToken(tx, {
      operatorId: operator.id,
      tokenHash,
      label: 'console login',
      expiresAt,
      secondFactorAt,
    });
    await writeAudit(tx, {
      actor: { type: 'OPERATOR', id: operator.id },
      action: 'OPERATOR.LOGGED_IN',
      entityType: 'operator_token',
      entityId: row.id,
      metadata: { secondFactor: secondFactorAt !== null },
    });
    return row;
  });
  return { token, tokenId: created.id, expiresAt: expiresAt.toISOString(), operator: operatorView(operator) };
}

/** Issues a token for scripts (the kasa CLI): to oneself, or by an admin to anyone. Returned once. */
export async function issueOperatorToken(
  deps: OperatorsDeps,
  caller: OperatorPrincipal,
  operatorId: string,
  input: { label?: string; expiresInSeconds?: number },
) {
  if (!isAdmin(caller) && caller.operatorId !== operatorId)
    throw new AppError('forbidden', 'Only an admin may issue tokens for another operator.');
  const operator = await deps.operators.findById(operatorId);
  if (!operator) throw new AppError('not_found', 'No operator with this id.');
  if (operator.disabledAt) throw AppError.conflict('operator_disabled', 'The operator is disabled.');
  const { token, tokenHash } = generateOperatorToken();
  const expiresAt = input.expiresInSeconds ? msFromNow(deps.clock, input.expiresInSeconds * 1000) : null;
  const created = await deps.db.$transaction(async (tx) => {
    const row = await deps.operators.createToken(tx, { operatorId, tokenHash, label: input.label ?? 'api token', expiresAt });
    // Whoever holds a token acts as its operator: an admin issuing one for someone else changed that account.
    if (caller.operatorId !== operatorId) await deps.operators.markChangedBy(tx, operatorId, caller.operatorId);
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'OPERATOR_TOKEN.ISSUED',
      entityType: 'operator_token',
      entityId: row.id,
      metadata: { operatorId, label: row.label, expiresAt: expiresAt?.toISOString() ?? null },
    });
    return row;
  });
  return { ...tokenView(created), token };
}

/** Revokes a token (one's own, or any as an admin); the next request with it gets 401. Idempotent. */
export async function revokeOperatorToken(deps: OperatorsDeps, caller: OperatorPrincipal, tokenId: string) {
  const token = await deps.operators.findToken(tokenId);
  if (!token) throw new AppError('not_found', 'No operator token with this id.');
  if (!isAdmin(caller) && token.operatorId !== caller.operatorId)
    throw new AppError('forbidden', "Only an admin may revoke another operator's token.");
  const at = new Date();
  await deps.db.$transaction(async (tx) => {
    if (await deps.operators.revokeToken(tx, tokenId, at)) {
      await writeAudit(tx, {
        actor: actorOf(caller),
        action: 'OPERATOR_TOKEN.REVOKED',
        entityType: 'operator_token',
        entityId: tokenId,
        metadata: { operatorId: token.operatorId },
      });
    }
  });
  return tokenView((await deps.operators.findToken(tokenId)) as OperatorToken);
}

/** Disables an account and revokes all its tokens at once. */
export async function disableOperator(deps: OperatorsDeps, caller: OperatorPrincipal, operatorId: string) {
  if (caller.operatorId === operatorId) throw AppError.conflict('self_disable', 'An operator cannot disable their own account.');
  const operator = await deps.operators.findById(operatorId);
  if (!operator) throw new AppError('not_found', 'No operator with this id.');
  await deps.db.$transaction(async (tx) => {
    if (await deps.operators.disable(tx, operatorId, new Date())) {
      await writeAudit(tx, { actor: actorOf(caller), action: 'OPERATOR.DISABLED', entityType: 'operator', entityId: operatorId });
    }
  });
  return operatorView((await deps.operators.findById(operatorId)) as Operator);
}

/** A bank connector posts the house's bank lines, a house-wide step: it is never limited to sites. */
function ensureScopable(role: OperatorRole, siteIds: string[]): void {
  if (role === 'CONNECTOR' && siteIds.length > 0) {
    throw AppError.validation(
      [{ field: 'siteIds', message: 'must be empty for a bank connector' }],
      "A bank connector works for the house's accounts; it cannot be limited to sites.",
    );
  }
}

/** 400 naming the first id that is not an existing live site (a scope names live sites; their test twins follow). */
async function ensureLiveSites(deps: OperatorsDeps, siteIds: string[]): Promise<void> {
  const [missing] = await deps.operators.notLiveSites(siteIds);
  if (missing !== undefined) {
    throw AppError.validation(
      [{ field: 'siteIds', message: `${missing} is not a live site` }],
      `No live site with the id ${missing}; nothing was changed.`,
    );
  }
}

/**
 * Limits an operator to some live sites (and their test twins), or to none with `[]` (every site); admins only (the
 * route checks the role). Audited `OPERATOR.SCOPE_CHANGED` with the scope before and after; tokens are resolved on
 * every request, so it holds from the operator's next request on.
 */
export async function setOperatorScope(deps: OperatorsDeps, caller: OperatorPrincipal, operatorId: string, siteIds: string[]) {
  const operator = await deps.operators.findById(operatorId);
  if (!operator) throw new AppError('not_found', 'No operator with this id.');
  ensureScopable(operator.role, siteIds);
  await ensureLiveSites(deps, siteIds);
  const changed = await deps.db.$transaction(async (tx) => {
    const result = await deps.operators.setSiteIds(tx, operatorId, siteIds, caller.operatorId);
    if (!result) throw new AppError('not_found', 'No operator with this id.');
    await writeAudit(tx, {
      actor: actorOf(caller),
      action: 'OPERATOR.SCOPE_CHANGED',
      entityType: 'operator',
      entityId: operatorId,
      metadata: { before: result.before.siteIds, after: result.after.siteIds },
    });
    return result.after;
  });
  return operatorView(changed);
}
