import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { sha256Hex } from '../shared/secrets.js';

/** RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const ISSUER = 'Kasa';
/** One step either side, for a phone whose clock is a little off. */
const WINDOW = 1;

function totpOf(secretBase32: string, label = ''): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** A new 160-bit TOTP secret, in base32 (what apps take when typed). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The enrollment an authenticator app scans: the otpauth:// URI and its QR code as an SVG data URL. */
export async function enrollmentOf(secretBase32: string, email: string): Promise<{ otpauthUri: string; qrDataUrl: string }> {
  const otpauthUri = totpOf(secretBase32, email).toString();
  const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, qrDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step a six-digit `code` belongs to at `now`, or null when it is not the code of this step or the
 * one either side. The caller accepts a step only once (Operator.totpLastStep), so a code seen over a
 * shoulder cannot be replayed.
 */
export function totpStepOf(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const totp = totpOf(secretBase32);
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** The current code of a secret (tests, and nothing else, play the authenticator app with it). */
export function totpCodeAt(secretBase32: string, at: Date): string {
  return totpOf(secretBase32).generate({ timestamp: at.getTime() });
}

// 32 characters, so a byte modulo its length is unbiased; no 0, o, i or l to misread.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz123456789';

/** Ten recovery codes like `k7m2p-x9qrt` (50 bits each). */
export function newRecoveryCodes(count = 10): string[] {
  return Array.from({ length: count }, () => {
    const chars = [...randomBytes(10)].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored of a recovery code: its SHA-256, bound to the operator so one account's code is no other's. */
export function recoveryCodeHash(operatorId: string, code: string): string {
  return sha256Hex(`recovery:${operatorId}:${code.trim().toLowerCase().replace(/[\s-]/g, '')}`);
}

/** Whether a code the operator typed looks like an app's code (else it is tried as a recovery code). */
export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.trim());
