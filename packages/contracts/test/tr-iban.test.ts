/**
 * The Turkish IBAN rule is the custom ajv keyword `x-tr-iban` (an `x-` name, so the OpenAPI documents that carry
 * the schemas stay valid); each IBAN field keeps its checksum check and its one sentence.
 */
import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument, buildOpsOpenApiDocument, validateRequest, type SchemaName } from '../src/index.js';

const IBAN_SENTENCE = 'must be a valid Turkish IBAN (TR followed by 24 digits, correct checksum)';
const good = 'TR330006100519786457841326';

const bodies: Array<[SchemaName, string, Record<string, unknown>]> = [
  ['createWithdrawal', 'targetIban', { externalUserId: 'u-1', amount: '50000', targetHolderName: 'Ayşe Yılmaz' }],
  ['createReceivingAccount', 'iban', { bankName: 'Ziraat', holderName: 'Kasa A.Ş.' }],
  [
    'recordBankTransfer',
    'senderIban',
    { bankTxId: 'TX-1', amount: '150000', senderName: 'Ayşe Yılmaz', description: 'KD7MX4Q2RH', receivedAt: '2026-01-31T12:00:00.000Z' },
  ],
];

describe.each(bodies)('%s.%s', (schema, field, rest) => {
  it('accepts a valid TR IBAN, spaced and lower-case too', () => {
    expect(validateRequest(schema, { ...rest, [field]: good })).toEqual([]);
    expect(validateRequest(schema, { ...rest, [field]: 'tr33 0006 1005 1978 6457 8413 26' })).toEqual([]);
  });

  it.each([
    ['a wrong checksum', 'TR330006100519786457841327'],
    ['a German IBAN', 'DE89370400440532013000'],
    ['a TR IBAN one digit short', 'TR33000610051978645784132'],
  ])('refuses %s with the IBAN sentence', (_, iban) => {
    expect(validateRequest(schema, { ...rest, [field]: iban })).toEqual([{ field, message: IBAN_SENTENCE }]);
  });
});

describe('the served documents', () => {
  it('carry the rule only as the `x-tr-iban` extension', () => {
    for (const doc of [buildOpenApiDocument(), buildOpsOpenApiDocument()]) {
      const text = JSON.stringify(doc);
      expect(text).not.toContain('"trIban"');
      expect(text).toContain('"x-tr-iban":true');
    }
  });
});
