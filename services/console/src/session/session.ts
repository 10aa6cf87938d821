/**
 * The console's session lives entirely in one cookie, sealed with AES-256-GCM: the operator's ops token is
 * inside, so a cookie copied from a log line, a proxy or a browser profile is opaque, and a cookie with one
 * bit changed fails authentication and is treated as no session at all. Nothing is kept server-side; the
 * ledger's token (expiring, revocable) is the real credential.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** The roles that may sign in to the console; a bank connector (`CONNECTOR`) is a machine and never does. */
export type OperatorRole = 'ADMIN' | 'REVIEWER';

/** The console role of a role the ledger answered; null for one that may not sign in (a bank connector). */
export function consoleRole(role: string): OperatorRole | null {
  return role === 'ADMIN' || role === 'REVIEWER' ? role : null;
}

/** Who is logged in, as the ledger's login answered; the role only decides what the UI offers. */
export interface SessionOperator {
  token: string;
  tokenId: string;
  operatorId: string;
  email: string;
  name: string;
  role: OperatorRole;
  /** Limited to some sites (docs/operations.md, Operator scopes) at login: the house-wide sections are not offered. */
  scoped?: boolean;
}

/** A browser's session: anonymous (login form only) until `operator` is set. */
export interface ConsoleSession {
  /** Random per session and rotated at login; the CSRF token is an HMAC of it. */
  sid: string;
  /** Unix milliseconds after which the cookie is refused even if the browser still sends it. */
  expiresAt: number;
  operator: SessionOperator | null;
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// Binds the ciphertext to its purpose, so no other value sealed with a key from the same secret fits here.
const AAD = Buffer.from('kasa-console-session/v1');

function deriveKey(master: Buffer, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, 32));
}

/** A fresh session with a new random id. */
export function newSession(now: Date, ttlMs: number, operator: SessionOperator | null = null): ConsoleSession {
  return { sid: randomBytes(18).toString('base64url'), expiresAt: now.getTime() + ttlMs, operator };
}

/** Seals and opens session cookies, and makes and checks the CSRF token that goes with each session. */
export class SessionSealer {
  private readonly sealKey: Buffer;
  private readonly csrfKey: Buffer;

  /** `master` is SECRET_ENCRYPTION_KEY; the keys used here are derived from it with HKDF per purpose. */
  constructor(master: Buffer) {
    this.sealKey = deriveKey(master, 'console-session');
    this.csrfKey = deriveKey(master, 'console-csrf');
  }

  seal(session: ConsoleSession): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(session), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The session in `value`, or null when it is malformed, tampered with, sealed with another key, or expired. */
  open(value: string | undefined, now: Date): ConsoleSession | null {
    if (!value || value.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
    const raw = Buffer.from(value, 'base64url');
    if (raw.length <= 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.sealKey, raw.subarray(1, 1 + IV_BYTES));
      decipher.setAAD(AAD);
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      const session = parseSession(JSON.parse(text));
      return session && session.expiresAt > now.getTime() ? session : null;
    } catch {
      // Authentication failed (tampered, or another key) or the JSON is not ours: no session.
      return null;
    }
  }

  /** The form token of a session: HMAC of its id, so it needs no storage and dies with the session. */
  csrfToken(sid: string): string {
    return createHmac('sha256', this.csrfKey).update(`csrf:${sid}`).digest('base64url');
  }

  verifyCsrf(sid: string, submitted: unknown): boolean {
    if (typeof submitted !== 'string') return false;
    const expected = Buffer.from(this.csrfToken(sid));
    const given = Buffer.from(submitted);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function parseOperator(value: unknown): SessionOperator | null | undefined {
  if (value === null) return null;
  if (!value || typeof value !== 'object') return undefined;
  const o: Record<string, unknown> = { ...value };
  if (![o.token, o.tokenId, o.operatorId, o.email].every(isString) || typeof o.name !== 'string') return undefined;
  if (o.role !== 'ADMIN' && o.role !== 'REVIEWER') return undefined;
  return {
    token: o.token as string,
    tokenId: o.tokenId as string,
    operatorId: o.operatorId as string,
    email: o.email as string,
    name: o.name,
    role: o.role,
    ...(o.scoped === true ? { scoped: true } : {}),
  };
}

function parseSession(value: unknown): ConsoleSession | null {
  const s = value as Partial<Record<keyof ConsoleSession, unknown>> | null;
  if (!s || typeof s !== 'object' || !isString(s.sid) || typeof s.expiresAt !== 'number') return null;
  const operator = parseOperator(s.operator);
  return operator === undefined ? null : { sid: s.sid, expiresAt: s.expiresAt, operator };
}
