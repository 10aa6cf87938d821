/** Shared fixtures for the tests; not part of the public API. */
import { createHmac } from 'node:crypto';

import { expect } from '@jest/globals';

import { WebhookVerificationError, type VerifyWebhookInput, type WebhookVerificationFailureReason } from './index.js';

// Published test vectors: the same values appear in README.md. If the scheme
// changes, these hard-coded headers stop matching and the tests fail.
export const SECRET_A = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';
export const SECRET_B = 'whsec___79_Pv6-fj39vX08_Lx8O_u7ezr6uno5-bl5OPi4eA';

/** The same secrets in the form Standard Webhooks libraries take: `whsec_` + base64(UTF-8 of the Kasa secret). */
export const SECRET_A_STANDARD = 'whsec_d2hzZWNfQUFFQ0F3UUZCZ2NJQ1FvTERBME9EeEFSRWhNVUZSWVhHQmthR3h3ZEhoOA==';
export const SECRET_B_STANDARD = 'whsec_d2hzZWNfX183OV9QdjYtZmozOXZYMDhfTHg4T191N2V6cjZ1bm81LWJsNU9QaTRlQQ==';

export const VECTOR_1 = {
  secret: SECRET_A,
  eventId: 'evt_01JH4Q8Z6X3M9V2K5T7R1N0B8C',
  timestamp: 1735689600,
  rawBody: '{"id":"dep_123","type":"deposit.completed","amount":"150.00","currency":"TRY"}',
  header: 't=1735689600,v1=ee1de98c1193aa218c2807440871b3874b855a5cdc9dfb1d832c5f7e8d9bec27',
  webhookSignature: 'v1,7h3pjBGTqiGMKAdECHGzh0uFWlzcnfsdgyxffo2b7Cc=',
};

// Rotation vector: signed with SECRET_B (new) first, SECRET_A (previous) second.
export const VECTOR_2 = {
  secrets: [SECRET_B, SECRET_A],
  eventId: 'evt_01JH4Q9C2W7Y5D3F8G6H4J2K0M',
  timestamp: 1735693200,
  rawBody: '{"id":"wd_456","type":"withdrawal.completed","amount":"75.50","currency":"TRY","holder":"Ayşe Şahin"}',
  header:
    't=1735693200,v1=841988619fd64c2f9a3aafeede1970dbb8fe98883ece2771535dd6d7b54f5ebd' +
    ',v1=b93908bfd0755385cd675f6a2b0111ced862bee584ac505eb6e8c4c867ae1a0b',
  webhookSignature: 'v1,hBmIYZ/WTC+aOq/u3hlw27j+mIg+zidxU13W17VPXr0= v1,uTkIv9B1U4XNZ19qKwERzthivuWErFBetujEyGeuGgs=',
};

/** Independent reference implementation, written out from the README's "The scheme (v1)". */
export function referenceHex(secret: string, eventId: string, t: number, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${eventId}.${t}.${body}`, 'utf8'))
    .digest('hex');
}

/** Asserts `fn` throws a WebhookVerificationError with the given reason. */
export function expectReason(fn: () => unknown, reason: WebhookVerificationFailureReason): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(WebhookVerificationError);
  expect((caught as WebhookVerificationError).reason).toBe(reason);
}

/** Verification input for vector 1 with the clock pinned to its timestamp. */
export function input1(overrides: Partial<VerifyWebhookInput> = {}): VerifyWebhookInput {
  return {
    header: VECTOR_1.header,
    eventId: VECTOR_1.eventId,
    rawBody: VECTOR_1.rawBody,
    secrets: SECRET_A,
    now: VECTOR_1.timestamp,
    ...overrides,
  };
}
