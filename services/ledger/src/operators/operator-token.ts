import { randomToken, sha256Hex } from '../shared/secrets.js';

/** Operator bearer tokens: `kop_` and 256 random bits; only the SHA-256 is stored. */
export const OPERATOR_TOKEN_PREFIX = 'kop_';

export function generateOperatorToken(): { token: string; tokenHash: string } {
  const token = `${OPERATOR_TOKEN_PREFIX}${randomToken(32)}`;
  return { token, tokenHash: sha256Hex(token) };
}

export function hashOperatorToken(token: string): string {
  return sha256Hex(token);
}
