import { describe, expect, it } from '@jest/globals';
import { consoleRole, newSession, SessionSealer, type SessionOperator } from '../src/session/session.js';

const key = Buffer.alloc(32, 9);
const operator: SessionOperator = {
  token: 'kop_secret-token',
  tokenId: 't-1',
  operatorId: 'o-1',
  email: 'a@kasa.test',
  name: 'Ayşe',
  role: 'ADMIN',
};
const now = new Date('2026-01-31T12:00:00Z');

describe('sealed session cookie', () => {
  it('round-trips a session and hides the token', () => {
    const sealer = new SessionSealer(key);
    const session = newSession(now, 60_000, operator);
    const sealed = sealer.seal(session);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('kop_');
    expect(sealer.open(sealed, now)).toEqual(session);
  });

  it('refuses a cookie with any byte changed, sealed with another key, or garbage', () => {
    const sealer = new SessionSealer(key);
    const sealed = sealer.seal(newSession(now, 60_000, operator));
    const raw = Buffer.from(sealed, 'base64url');
    for (const index of [0, 5, 20, raw.length - 1]) {
      const copy = Buffer.from(raw);
      copy[index] = (copy[index] as number) ^ 1;
      expect(sealer.open(copy.toString('base64url'), now)).toBeNull();
    }
    expect(new SessionSealer(Buffer.alloc(32, 8)).open(sealed, now)).toBeNull();
    for (const junk of [undefined, '', 'not base64!', 'AAAA', 'x'.repeat(5000)]) expect(sealer.open(junk, now)).toBeNull();
  });

  it('refuses a cookie past its expiry even if the browser still sends it', () => {
    const sealer = new SessionSealer(key);
    const sealed = sealer.seal(newSession(now, 60_000, operator));
    expect(sealer.open(sealed, new Date(now.getTime() + 59_999))).not.toBeNull();
    expect(sealer.open(sealed, new Date(now.getTime() + 60_000))).toBeNull();
  });

  it('gives every session its own CSRF token and accepts only that one', () => {
    const sealer = new SessionSealer(key);
    const a = newSession(now, 60_000);
    const b = newSession(now, 60_000);
    expect(a.sid).not.toBe(b.sid);
    expect(sealer.verifyCsrf(a.sid, sealer.csrfToken(a.sid))).toBe(true);
    expect(sealer.verifyCsrf(a.sid, sealer.csrfToken(b.sid))).toBe(false);
    expect(sealer.verifyCsrf(a.sid, undefined)).toBe(false);
    expect(sealer.verifyCsrf(a.sid, [sealer.csrfToken(a.sid)])).toBe(false);
    expect(new SessionSealer(Buffer.alloc(32, 8)).verifyCsrf(a.sid, sealer.csrfToken(a.sid))).toBe(false);
  });

  it('takes the roles that sign in to the console, never a bank connector', () => {
    expect(consoleRole('ADMIN')).toBe('ADMIN');
    expect(consoleRole('REVIEWER')).toBe('REVIEWER');
    expect(consoleRole('CONNECTOR')).toBeNull();
    const sealer = new SessionSealer(key);
    const sealed = sealer.seal(newSession(now, 60_000, { ...operator, role: 'CONNECTOR' as never }));
    expect(sealer.open(sealed, now)).toBeNull();
  });
});
