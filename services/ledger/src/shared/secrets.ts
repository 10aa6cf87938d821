import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(sha256Hex(a), 'hex');
  const right = Buffer.from(sha256Hex(b), 'hex');
  return timingSafeEqual(left, right);
}

/**
 * The deposit page token: 256 bits, unguessable without the server key, and derivable again from the
 * intent id, so an idempotent replay can return the same depositUrl while the database keeps only its hash.
 */
export function depositToken(key: Buffer, intentId: string): string {
  return createHmac('sha256', key).update(`deposit-page:${intentId}`).digest('base64url');
}
