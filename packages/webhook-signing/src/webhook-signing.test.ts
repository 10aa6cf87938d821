import { readFileSync } from 'node:fs';

import { describe, expect, it } from '@jest/globals';

import {
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  buildSignatureHeader,
  buildWebhookHeaders,
  generateWebhookSecret,
  isValidWebhook,
  signPayload,
  verifyWebhook,
} from './index.js';
import { SECRET_A, SECRET_B, VECTOR_1, VECTOR_2, expectReason, input1, referenceHex } from './test-helpers.js';

describe('published test vectors', () => {
  it('vector 1 matches the independent HMAC and the published header', () => {
    const { secret, eventId, timestamp, rawBody } = VECTOR_1;
    const hex = signPayload({ secret, eventId, timestamp, rawBody });
    expect(hex).toBe(referenceHex(secret, eventId, timestamp, rawBody));
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(buildSignatureHeader({ secrets: [secret], eventId, timestamp, rawBody })).toBe(VECTOR_1.header);
    expect(`t=${timestamp},v1=${referenceHex(secret, eventId, timestamp, rawBody)}`).toBe(VECTOR_1.header);
    expect(() => verifyWebhook(input1())).not.toThrow();
  });

  it('vector 2 (rotation, non-ASCII body) matches the published header', () => {
    const { secrets, eventId, timestamp, rawBody } = VECTOR_2;
    const expected = `t=${timestamp},v1=${referenceHex(SECRET_B, eventId, timestamp, rawBody)},v1=${referenceHex(SECRET_A, eventId, timestamp, rawBody)}`;
    expect(expected).toBe(VECTOR_2.header);
    expect(buildSignatureHeader({ secrets, eventId, timestamp, rawBody })).toBe(VECTOR_2.header);
    const base64 = (secret: string) => Buffer.from(referenceHex(secret, eventId, timestamp, rawBody), 'hex').toString('base64');
    expect(buildWebhookHeaders({ secrets, eventId, timestamp, rawBody })).toEqual({
      [SIGNATURE_HEADER]: VECTOR_2.header,
      [EVENT_ID_HEADER]: eventId,
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${base64(SECRET_B)} v1,${base64(SECRET_A)}`,
    });
  });

  it('README.md publishes exactly these vectors', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const value of [
      SECRET_A,
      SECRET_B,
      VECTOR_1.eventId,
      VECTOR_1.rawBody,
      VECTOR_1.header,
      VECTOR_2.eventId,
      VECTOR_2.rawBody,
      VECTOR_2.header,
    ]) {
      expect(readme).toContain(value);
    }
  });

  it('exports the documented constants', () => {
    expect(SIGNATURE_HEADER).toBe('Service-Signature');
    expect(EVENT_ID_HEADER).toBe('Service-Event-Id');
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
  });
});

describe('verifyWebhook: tampering and secrets', () => {
  it('rejects a tampered body', () => {
    const rawBody = VECTOR_1.rawBody.replace('150.00', '950.00');
    expectReason(() => verifyWebhook(input1({ rawBody })), 'no_matching_signature');
  });

  it('rejects a body with one extra trailing byte', () => {
    expectReason(() => verifyWebhook(input1({ rawBody: `${VECTOR_1.rawBody}\n` })), 'no_matching_signature');
  });

  it('binds the signature to the event id', () => {
    expectReason(() => verifyWebhook(input1({ eventId: 'evt_01JH4Q8Z6X3M9V2K5T7R1N0B8D' })), 'no_matching_signature');
  });

  it('rejects the wrong secret', () => {
    expectReason(() => verifyWebhook(input1({ secrets: SECRET_B })), 'no_matching_signature');
    expectReason(() => verifyWebhook(input1({ secrets: generateWebhookSecret() })), 'no_matching_signature');
  });

  it('accepts a receiver still on the old secret (second v1 entry)', () => {
    const base = { header: VECTOR_2.header, eventId: VECTOR_2.eventId, rawBody: VECTOR_2.rawBody };
    const now = VECTOR_2.timestamp;
    expect(isValidWebhook({ ...base, now, secrets: SECRET_A })).toBe(true);
    expect(isValidWebhook({ ...base, now, secrets: SECRET_B })).toBe(true);
    expect(isValidWebhook({ ...base, now, secrets: [SECRET_B, SECRET_A] })).toBe(true);
    expect(isValidWebhook({ ...base, now, secrets: generateWebhookSecret() })).toBe(false);
  });

  it('accepts a receiver holding [new, old] for a sender that still signs with old only', () => {
    expect(isValidWebhook(input1({ secrets: [SECRET_B, SECRET_A] }))).toBe(true);
    expect(isValidWebhook(input1({ secrets: [generateWebhookSecret(), SECRET_B] }))).toBe(false);
  });

  it('ignores unknown scheme entries', () => {
    const header = `v0=deadbeef,${VECTOR_1.header},v2=${'a'.repeat(64)},x=`;
    expect(isValidWebhook(input1({ header }))).toBe(true);
  });

  it('signatures made with a different timestamp do not verify', () => {
    const forged = VECTOR_1.header.replace('t=1735689600', 't=1735689601');
    expectReason(() => verifyWebhook(input1({ header: forged })), 'no_matching_signature');
  });
});

describe('verifyWebhook: timestamp tolerance', () => {
  const t = VECTOR_1.timestamp;

  it.each([
    ['299 s old', t + 299, true],
    ['300 s old (boundary)', t + 300, true],
    ['301 s old', t + 301, false],
    ['299 s in the future', t - 299, true],
    ['301 s in the future', t - 301, false],
  ])('%s', (_label, now, ok) => {
    if (ok) expect(() => verifyWebhook(input1({ now }))).not.toThrow();
    else expectReason(() => verifyWebhook(input1({ now })), 'timestamp_out_of_tolerance');
  });

  it('accepts a Date or a clock function as now', () => {
    expect(isValidWebhook(input1({ now: new Date((t + 299) * 1000) }))).toBe(true);
    expect(isValidWebhook(input1({ now: () => new Date((t + 301) * 1000) }))).toBe(false);
    expect(isValidWebhook(input1({ now: () => t - 10 }))).toBe(true);
  });

  it('honours a custom tolerance', () => {
    expect(isValidWebhook(input1({ now: t + 10, toleranceSeconds: 10 }))).toBe(true);
    expect(isValidWebhook(input1({ now: t + 11, toleranceSeconds: 10 }))).toBe(false);
    expect(isValidWebhook(input1({ now: t + 3600, toleranceSeconds: 3600 }))).toBe(true);
  });

  it('uses the system clock by default, so the old vector is rejected', () => {
    expectReason(() => verifyWebhook(input1({ now: undefined })), 'timestamp_out_of_tolerance');
  });

  it('verifies a freshly signed webhook against the system clock', () => {
    const secret = generateWebhookSecret();
    const eventId = 'evt_fresh';
    const timestamp = Math.floor(Date.now() / 1000);
    const header = buildSignatureHeader({ secrets: [secret], eventId, timestamp, rawBody: '{}' });
    expect(isValidWebhook({ header, eventId, rawBody: '{}', secrets: secret })).toBe(true);
  });

  it('rejects nonsense tolerance and now values as configuration errors', () => {
    expect(() => verifyWebhook(input1({ toleranceSeconds: -1 }))).toThrow(RangeError);
    expect(() => verifyWebhook(input1({ toleranceSeconds: Number.NaN }))).toThrow(RangeError);
    expect(() => verifyWebhook(input1({ now: new Date('invalid') }))).toThrow(TypeError);
    // Milliseconds by mistake must not look like "timestamp out of tolerance".
    expect(() => verifyWebhook(input1({ now: t * 1000 }))).toThrow(RangeError);
  });
});
