import { describe, expect, it } from '@jest/globals';

import {
  buildSignatureHeader,
  generateWebhookSecret,
  isValidWebhook,
  isValidWebhookSecretFormat,
  signPayload,
  verifyWebhook,
} from './index.js';
import { SECRET_A, SECRET_B, VECTOR_1, VECTOR_2, input1, referenceHex } from './test-helpers.js';

const TURKISH = '{"holder":"Ayşe Şahin","note":"ödeme alındı, teşekkürler"}';

describe('raw body handling', () => {
  const base = { secret: SECRET_A, eventId: 'evt_tr', timestamp: 1735689600 };

  it('string, Buffer and Uint8Array bodies with non-ASCII text sign identically', () => {
    const fromString = signPayload({ ...base, rawBody: TURKISH });
    const bytes = Buffer.from(TURKISH, 'utf8');
    expect(bytes.length).toBeGreaterThan(TURKISH.length); // really multi-byte
    expect(signPayload({ ...base, rawBody: bytes })).toBe(fromString);
    expect(signPayload({ ...base, rawBody: new Uint8Array(bytes) })).toBe(fromString);
    expect(fromString).toBe(referenceHex(SECRET_A, 'evt_tr', 1735689600, TURKISH));
  });

  it('vector 2 verifies with a Buffer body as Express would deliver it', () => {
    const rawBody = Buffer.from(VECTOR_2.rawBody, 'utf8');
    const input = { header: VECTOR_2.header, eventId: VECTOR_2.eventId, rawBody };
    expect(isValidWebhook({ ...input, secrets: SECRET_B, now: VECTOR_2.timestamp })).toBe(true);
  });

  it('signs bytes, not text: other encodings of the same text do not verify', () => {
    const header = buildSignatureHeader({ ...base, secrets: [SECRET_A], rawBody: TURKISH });
    const input = { header, eventId: 'evt_tr', secrets: SECRET_A, now: base.timestamp };
    expect(isValidWebhook({ ...input, rawBody: TURKISH })).toBe(true);
    // Same characters, Latin-1 bytes.
    expect(isValidWebhook({ ...input, rawBody: Buffer.from(TURKISH, 'latin1') })).toBe(false);
    // "ş" decomposed into "s" + combining cedilla: looks identical, different bytes.
    const decomposed = TURKISH.normalize('NFD');
    expect(decomposed).not.toBe(TURKISH);
    expect(isValidWebhook({ ...input, rawBody: decomposed })).toBe(false);
  });

  it('an empty body is still signed and bound to the event id', () => {
    const header = buildSignatureHeader({ ...base, secrets: [SECRET_A], rawBody: '' });
    const input = { header, secrets: SECRET_A, now: base.timestamp, rawBody: Buffer.alloc(0) };
    expect(isValidWebhook({ ...input, eventId: 'evt_tr' })).toBe(true);
    expect(isValidWebhook({ ...input, eventId: 'evt_other' })).toBe(false);
  });
});

describe('secrets', () => {
  it('generateWebhookSecret returns whsec_ + 43 base64url chars of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(isValidWebhookSecretFormat(secret)).toBe(true);
  });

  it('generateWebhookSecret does not repeat', () => {
    const secrets = new Set(Array.from({ length: 1000 }, () => generateWebhookSecret()));
    expect(secrets.size).toBe(1000);
  });

  it('isValidWebhookSecretFormat enforces the exact shape', () => {
    expect(isValidWebhookSecretFormat(SECRET_A)).toBe(true);
    expect(isValidWebhookSecretFormat(SECRET_B)).toBe(true);
    for (const bad of [
      'whsec_short',
      `whsec_${'A'.repeat(44)}`,
      `whsec_${'A'.repeat(42)}+`,
      `sk_${'A'.repeat(43)}`,
      `${SECRET_A}\n`,
      '',
      undefined,
    ]) {
      expect(isValidWebhookSecretFormat(bad)).toBe(false);
    }
  });

  it('the HMAC key is the whole string, prefix included', () => {
    const { eventId, timestamp, rawBody } = VECTOR_1;
    const hex = signPayload({ secret: SECRET_A, eventId, timestamp, rawBody });
    expect(hex).not.toBe(referenceHex(SECRET_A.slice('whsec_'.length), eventId, timestamp, rawBody));
  });

  it('a legacy whsec_ secret of another shape still signs and verifies', () => {
    const secret = 'whsec_legacy-secret';
    const header = buildSignatureHeader({ ...VECTOR_1, secrets: [secret] });
    expect(isValidWebhook(input1({ header, secrets: secret }))).toBe(true);
  });
});

describe('signer input validation', () => {
  const rest = { eventId: 'evt_1', timestamp: 1735689600, rawBody: '{}' };
  const ok = { ...rest, secret: SECRET_A };

  it('rejects unusable secrets', () => {
    for (const secret of ['', 'whsec_', 'secret', `${SECRET_A} `]) {
      expect(() => signPayload({ ...ok, secret })).toThrow(TypeError);
    }
  });

  it('rejects bad event ids, including a "." that would make the message ambiguous', () => {
    for (const eventId of ['', 'evt.1', 'evt 1', 'evt_ş', 'e'.repeat(256)]) {
      expect(() => signPayload({ ...ok, eventId })).toThrow(TypeError);
    }
  });

  it('rejects non-integer, negative and millisecond timestamps', () => {
    expect(() => signPayload({ ...ok, timestamp: 1735689600.5 })).toThrow(TypeError);
    expect(() => signPayload({ ...ok, timestamp: -1 })).toThrow(TypeError);
    expect(() => signPayload({ ...ok, timestamp: Number.NaN })).toThrow(TypeError);
    expect(() => signPayload({ ...ok, timestamp: 1735689600000 })).toThrow(/milliseconds/);
  });

  it('buildSignatureHeader needs 1..8 secrets in an array', () => {
    expect(() => buildSignatureHeader({ ...rest, secrets: [] })).toThrow(TypeError);
    const nine = Array.from({ length: 9 }, () => generateWebhookSecret());
    expect(() => buildSignatureHeader({ ...rest, secrets: nine })).toThrow(TypeError);
    const single = SECRET_A as unknown as string[];
    expect(() => buildSignatureHeader({ ...rest, secrets: single })).toThrow(TypeError);
    const eight = nine.slice(1);
    const header = buildSignatureHeader({ ...rest, secrets: eight });
    const last = eight[7] ?? '';
    const input = { header, eventId: 'evt_1', rawBody: '{}', secrets: last, now: ok.timestamp };
    expect(() => verifyWebhook(input)).not.toThrow();
  });
});
