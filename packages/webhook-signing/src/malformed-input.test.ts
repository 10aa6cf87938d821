import { describe, expect, it } from '@jest/globals';

import { MAX_SIGNATURES, WebhookVerificationError, parseSignatureHeader, verifyWebhook, type HeaderValue } from './index.js';
import { SECRET_A, VECTOR_1, expectReason, input1 } from './test-helpers.js';

const HEX = 'ee1de98c1193aa218c2807440871b3874b855a5cdc9dfb1d832c5f7e8d9bec27';
const T = '1735689600';

describe('malformed Service-Signature headers', () => {
  it.each<[string, string]>([
    ['garbage', 'garbage'],
    ['only commas', ',,,'],
    ['entry without key', `=${T},v1=${HEX}`],
    ['missing t', `v1=${HEX}`],
    ['empty t', `t=,v1=${HEX}`],
    ['non-numeric t', `t=abc,v1=${HEX}`],
    ['negative t', `t=-1735689600,v1=${HEX}`],
    ['fractional t', `t=1735689600.5,v1=${HEX}`],
    ['exponent t', `t=1.7e9,v1=${HEX}`],
    ['leading-zero t', `t=0${T},v1=${HEX}`],
    ['t in milliseconds', `t=${T}000,v1=${HEX}`],
    ['10 000-digit t', `t=${'9'.repeat(10_000)},v1=${HEX}`],
    ['duplicate t', `t=${T},t=${T},v1=${HEX}`],
    ['no v1', `t=${T}`],
    ['only unknown schemes', `t=${T},v0=${HEX}`],
    ['empty v1', `t=${T},v1=`],
    ['non-hex v1', `t=${T},v1=${'z'.repeat(64)}`],
    ['short v1', `t=${T},v1=${HEX.slice(1)}`],
    ['long v1', `t=${T},v1=${HEX}0`],
    ['trailing comma', `t=${T},v1=${HEX},`],
    ['1 MB of junk', 'a'.repeat(1_000_000)],
    ['too many v1', `t=${T}${`,v1=${HEX}`.repeat(MAX_SIGNATURES + 1)}`],
  ])('%s -> malformed_header', (_label, header) => {
    expectReason(() => parseSignatureHeader(header), 'malformed_header');
    expectReason(() => verifyWebhook(input1({ header })), 'malformed_header');
  });

  it.each<[string, HeaderValue]>([
    ['undefined', undefined],
    ['null', null],
    ['empty string', ''],
    ['whitespace', '   '],
    ['empty array', []],
  ])('%s -> missing_header', (_label, header) => {
    expectReason(() => verifyWebhook(input1({ header })), 'missing_header');
  });

  it('a non-string header value is malformed, not a crash', () => {
    const header = 12345 as unknown as string;
    expectReason(() => verifyWebhook(input1({ header })), 'malformed_header');
  });

  it('parses a well-formed header, tolerating spaces and hex case', () => {
    expect(parseSignatureHeader(`t=${T}, v1=${HEX.toUpperCase()} ,v0=x`)).toEqual({
      timestamp: 1735689600,
      signatures: [HEX],
    });
    expect(() => verifyWebhook(input1({ header: `t=${T}, v1=${HEX}` }))).not.toThrow();
  });

  it('a repeated header (array) is joined, so two t entries are malformed', () => {
    expect(() => verifyWebhook(input1({ header: [VECTOR_1.header] }))).not.toThrow();
    expectReason(() => verifyWebhook(input1({ header: [VECTOR_1.header, VECTOR_1.header] })), 'malformed_header');
  });

  it('no single-character mutation of a valid header verifies or crashes', () => {
    const valid = VECTOR_1.header;
    const alphabet = 'tv01289aefz=, .-_+X\u015F\u0000';
    let checked = 0;
    for (let i = 0; i < valid.length; i += 1) {
      for (const c of alphabet) {
        // Changing only the case of a hex digit yields the same bytes.
        if (c.toLowerCase() === valid.charAt(i).toLowerCase()) continue;
        const header = valid.slice(0, i) + c + valid.slice(i + 1);
        let caught: unknown;
        try {
          verifyWebhook(input1({ header }));
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(WebhookVerificationError);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});

describe('Service-Event-Id header', () => {
  it.each<[string, HeaderValue]>([
    ['undefined', undefined],
    ['null', null],
    ['empty string', ''],
    ['empty array', []],
  ])('%s -> missing_event_id', (_label, eventId) => {
    expectReason(() => verifyWebhook(input1({ eventId })), 'missing_event_id');
  });

  it.each<[string, HeaderValue]>([
    ['two values', [VECTOR_1.eventId, VECTOR_1.eventId]],
    ['contains a dot', `${VECTOR_1.eventId}.1`],
    ['contains a space', `${VECTOR_1.eventId} `],
    ['too long', 'e'.repeat(256)],
  ])('%s -> malformed_header', (_label, eventId) => {
    expectReason(() => verifyWebhook(input1({ eventId })), 'malformed_header');
  });

  it('accepts a single-element array', () => {
    expect(() => verifyWebhook(input1({ eventId: [VECTOR_1.eventId] }))).not.toThrow();
  });
});

describe('receiver misconfiguration throws, never passes', () => {
  it('rejects missing or unusable secrets', () => {
    expect(() => verifyWebhook(input1({ secrets: [] }))).toThrow(TypeError);
    expect(() => verifyWebhook(input1({ secrets: 'not-a-secret' }))).toThrow(TypeError);
    expect(() => verifyWebhook(input1({ secrets: 'whsec_' }))).toThrow(TypeError);
    expect(() => verifyWebhook(input1({ secrets: [SECRET_A, ''] }))).toThrow(TypeError);
  });

  it('explains a secret with a trailing newline without leaking it', () => {
    let message = '';
    try {
      verifyWebhook(input1({ secrets: `${SECRET_A}\n` }));
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      message = error instanceof Error ? error.message : '';
    }
    expect(message).toMatch(/whitespace/);
    expect(message).not.toContain(SECRET_A.slice(6));
  });

  it('rejects a parsed JSON object in place of the raw body', () => {
    const rawBody = JSON.parse(VECTOR_1.rawBody) as unknown as string;
    expect(() => verifyWebhook(input1({ rawBody }))).toThrow(/express\.raw/);
  });
});
