/**
 * The strict checker that test/sandbox/sandbox-contract.test.ts judges real traffic with, on bodies made here: it must
 * refuse an undocumented field at any depth, an undocumented status or Content-Type, and a webhook body of the wrong
 * kind, and it must name the documented fields and record exactly those a checked body carried.
 */
import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument } from '@kasa/contracts';
import { strictContract, strictSchema } from './support/strict-contract.js';

/** The document as the gateway serves it (its JSON text). */
const served = () => JSON.parse(JSON.stringify(buildOpenApiDocument())) as Record<string, unknown>;

const intentId = '3f0c1f9e-8d8b-4f4e-9d55-2a1d6d3f4b11';
const deposit = {
  intentId,
  referenceNo: 'KD7G4K2M9P',
  status: 'APPROVED',
  amount: '150000',
  currency: 'TRY',
  approvedAt: '2026-01-31T12:09:41.512Z',
  rejectedAt: null,
  rejectedReason: null,
  createdAt: '2026-01-31T12:00:00.000Z',
  updatedAt: '2026-01-31T12:09:41.512Z',
};
const answer = (status: number, body: unknown, contentType = 'application/json; charset=utf-8') => ({
  method: 'GET',
  url: `/api/v1/external/intents/${intentId}?x=1`,
  status,
  contentType,
  body,
});
const webhook = { eventId: intentId, type: 'intent.approved', createdAt: '2026-01-31T12:09:41.512Z', livemode: false, data: deposit };

describe('the strict contract checker', () => {
  it('forbids additional properties on every object schema that does not allow them itself', () => {
    const strict = strictSchema({
      type: 'object',
      properties: { errors: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' } } } } },
      additionalProperties: false,
    }) as { additionalProperties: unknown; properties: { errors: { items: { additionalProperties: unknown } } } };
    expect(strict.properties.errors.items.additionalProperties).toBe(false);
    expect(
      (strictSchema({ type: 'object', additionalProperties: { type: 'string' } }) as { additionalProperties: unknown })
        .additionalProperties,
    ).toEqual({
      type: 'string',
    });
  });

  it('accepts a documented answer and records the fields it carried', () => {
    const contract = strictContract(served());
    expect(contract.checkAnswer(answer(200, deposit))).toEqual([]);
    expect([...contract.seen].sort()).toEqual(
      Object.keys(deposit)
        .map((key) => `DepositIntent.${key}`)
        .sort(),
    );
  });

  it('refuses a field sent but not documented, at the top and deep inside', () => {
    const contract = strictContract(served());
    expect(contract.checkAnswer(answer(200, { ...deposit, internalNote: 'x' }))).toEqual([
      `GET /api/v1/external/intents/${intentId} 200: (body) must NOT have additional properties "internalNote"`,
    ]);
    const problem = {
      type: 'https://docs.kasa.example/errors#validation_failed',
      title: 't',
      status: 400,
      detail: 'd',
      error: 'validation_failed',
    };
    const deep = { ...problem, errors: [{ field: 'amount', message: 'm', hint: 'x' }] };
    expect(
      contract.checkAnswer({ ...answer(400, deep, 'application/problem+json'), method: 'POST', url: '/api/v1/external/deposits' }),
    ).toEqual(['POST /api/v1/external/deposits 400: /errors/0 must NOT have additional properties "hint"']);
    expect(contract.checkWebhook({ ...webhook, data: { ...deposit, internalNote: 'x' } })).toEqual([
      'webhook intent.approved: /data must NOT have additional properties "internalNote"',
    ]);
  });

  it('refuses an undocumented status, Content-Type, path, webhook type or a body of the other kind', () => {
    const contract = strictContract(served());
    expect(contract.checkAnswer(answer(418, deposit))).toEqual([
      `GET /api/v1/external/intents/${intentId} 418: status not documented for GET /api/v1/external/intents/{intentId}`,
    ]);
    expect(contract.checkAnswer(answer(200, deposit, 'text/html'))[0]).toContain(
      'Content-Type "text/html" is not one of [application/json]',
    );
    expect(contract.checkAnswer({ ...answer(200, deposit), url: '/api/v1/external/nothing' })[0]).toContain('no operation');
    expect(contract.checkWebhook({ ...webhook, type: 'intent.unknown' })[0]).toContain('no webhooks entry');
    // A withdrawal event cannot carry a deposit.
    expect(contract.checkWebhook({ ...webhook, type: 'withdrawal.sent' }).length).toBeGreaterThan(0);
    expect(contract.seen.size).toBe(0);
  });

  it('names every documented field of answers and webhooks, through references, lists, nullable objects and one-ofs', () => {
    const { documented } = strictContract(served());
    for (const field of [
      'IntentWebhookEvent.livemode',
      'IntentWebhookEvent.topUp',
      'TopUp.amount',
      'PingWebhookEvent.test',
      'Event.payload',
      'EventWithAttempts.attempts',
      'DeliveryAttempt.responseBody',
      'Withdrawal.returnReason.code',
      'SimulatedTransfer.suggestions[].confidence',
      'Problem.errors[].field',
      'Problem.reason',
    ]) {
      expect(documented).toContain(field);
    }
    // Request bodies are not answers.
    expect([...documented].filter((field) => field.startsWith('CreateDepositRequest.'))).toEqual([]);
  });
});
