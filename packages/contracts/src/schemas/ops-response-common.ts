/**
 * What the ops API's response schemas share: ./ops-responses.ts and each reviewed record kind's module
 * (../ops-records/) build their views from these, so an id, an amount or an approval reads the same everywhere.
 */

export const timestamp = { type: 'string', format: 'date-time' } as const;
export const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' } as const;
export const amount = { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'Minor units (kurus), as a string.' } as const;
export const uuid = { type: 'string', format: 'uuid' } as const;
export const nullableString = { type: ['string', 'null'] } as const;

// Generic and `as const`, so FromSchema (../response-types.ts) reads each schema's literal id, keys and `required`.
export function object<const Id extends string, const P extends Record<string, unknown>>(id: Id, properties: P, description?: string) {
  return {
    $id: id,
    type: 'object',
    additionalProperties: false,
    // Every property is required: Object.keys lists exactly the keys of P.
    required: Object.keys(properties) as Array<keyof P & string>,
    properties,
    ...(description ? { description } : {}),
  } as const;
}

/** Four-eyes (docs/operations.md): how many approvals a payout needs and the ones given (while in review: the standing ones). */
export const approvals = {
  type: 'object',
  additionalProperties: false,
  required: ['required', 'given'],
  description:
    "Four-eyes: `required` is 2 above the payout's dual-approval threshold. While in review, `given` lists the standing approvals (each expires at `expiresAt`); once decided, every approval it was given.",
  properties: {
    required: { type: 'integer', enum: [1, 2] },
    given: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['operatorId', 'email', 'at', 'expiresAt'],
        properties: { operatorId: { type: 'string' }, email: nullableString, at: timestamp, expiresAt: nullableTimestamp },
      },
    },
  },
} as const;

export const eventId = {
  type: ['string', 'null'],
  format: 'uuid',
  description: 'The webhook event this decision emitted; null when none.',
} as const;
