import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from './errors.js';
import { isValidTrIban } from './iban.js';
import { INTERNAL_SCHEMAS } from './schemas/internal.js';
import { REQUEST_SCHEMAS } from './schemas/requests.js';

/** Every schema a service validates input with: the partner and ops requests, and the internal envelopes. */
export const SCHEMAS = { ...REQUEST_SCHEMAS, ...INTERNAL_SCHEMAS } as const;
export type SchemaName = keyof typeof SCHEMAS;

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

function buildAjv(): Ajv2020 {
  // verbose: errors carry their parent schema, whose `x-message` is the sentence a person reads.
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: false, verbose: true });
  addFormats(ajv);
  // RFC 3339 allows a leap second (23:59:60) and years a database cannot hold; an instant here must also be
  // one JavaScript and PostgreSQL can represent, so it can be compared and stored without an error.
  ajv.addFormat('date-time', { type: 'string', validate: isStorableInstant });
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  // Custom keywords are `x-` names: the OpenAPI documents carry these schemas as they are, and OpenAPI allows
  // only `x-` extensions beside the JSON Schema vocabulary (redocly's `struct` rule refuses anything else).
  ajv.addKeyword({
    keyword: 'x-tr-iban',
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: function trIban(enabled: boolean, data: string) {
      return !enabled || isValidTrIban(data);
    },
  });
  return ajv;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp that names a real instant between the years 1900 and 9999 (no leap second). */
export function isStorableInstant(value: string): boolean {
  if (!RFC3339.test(value)) return false;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) return false;
  // Date.parse rolls some impossible dates over (2026-02-30 -> March 2); the fields must survive a round trip.
  const [date = '', time = ''] = value.toUpperCase().split('T');
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(time);
  const offsetMs = offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000 : 0;
  const local = new Date(ms + offsetMs).toISOString();
  if (local.slice(0, 10) !== date || local.slice(11, 19) !== time.slice(0, 8)) return false;
  const year = new Date(ms).getUTCFullYear();
  return year >= 1900 && year <= 9999;
}

const ajv = buildAjv();
const validators = new Map<SchemaName, ValidateFunction>();

function validatorFor(name: SchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile(SCHEMAS[name]);
    validators.set(name, validate);
  }
  return validate;
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') return path ? `${path}.${String(error.params.missingProperty)}` : String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') {
    const extra = String(error.params.additionalProperty);
    return path ? `${path}.${extra}` : extra;
  }
  return path || '(body)';
}

function messageOf(error: ErrorObject): string {
  const parent: unknown = error.parentSchema;
  const custom = parent !== null && typeof parent === 'object' ? (parent as Record<string, unknown>)['x-message'] : undefined;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an allowed field';
    case 'type':
      return `must be a ${String(error.params.type)}`;
    case 'x-tr-iban':
      return 'must be a valid Turkish IBAN (TR followed by 24 digits, correct checksum)';
    case 'pattern':
    case 'format':
    case 'enum':
    case 'minLength':
    case 'maxLength':
      return typeof custom === 'string' ? custom : (error.message ?? 'is not valid');
    default:
      return error.message ?? 'is not valid';
  }
}

/** Validates `data` against a named request schema; returns one error per failing field, or an empty list. */
export function validateRequest(name: SchemaName, data: unknown): FieldError[] {
  const validate = validatorFor(name);
  if (validate(data)) return [];
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    // ajv reports a failing field once per keyword; the first sentence is the clearest one.
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message: messageOf(error) });
  }
  return errors;
}
