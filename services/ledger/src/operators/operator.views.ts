import type { Operator, OperatorToken } from '@kasa/db';

/** An operator account as the ops API shows it (never its password hash or second-factor secret). */
export function operatorView(operator: Operator) {
  return {
    operatorId: operator.id,
    email: operator.email,
    name: operator.name,
    role: operator.role,
    disabledAt: operator.disabledAt?.toISOString() ?? null,
    createdAt: operator.createdAt.toISOString(),
    secondFactorEnrolledAt: operator.totpEnrolledAt?.toISOString() ?? null,
    siteIds: operator.siteIds,
  };
}

/** An operator token's metadata (never the token or its hash). */
export function tokenView(token: OperatorToken) {
  return {
    tokenId: token.id,
    operatorId: token.operatorId,
    label: token.label,
    createdAt: token.createdAt.toISOString(),
    expiresAt: token.expiresAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}
