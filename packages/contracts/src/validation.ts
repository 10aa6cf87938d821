import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from './errors.js';
import { isValidTrIban } from './iban.js';
import { REQUEST_SCHEMAS, type RequestSchemaName } from './schemas/requests.js';

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

function buildAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, useDefaults: false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
  ajv.addKeyword({
    keyword: 'trIban',
    type: 'string',
    schemaType: 'boolean',
    errors: true,
    validate: function trIban(enabled: boolean, data: string) {
      return !enabled || isValidTrIban(data);
    },
  });
  return ajv;
}

const ajv = buildAjv();
const validators = new Map<RequestSchemaName, ValidateFunction>();

function validatorFor(name: RequestSchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (!validate) {
    validate = ajv.compile(REQUEST_SCHEMAS[name]);
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
  const custom = (error.parentSchema as Record<string, unknown> | undefined)?.['x-message'];
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an allowed field';
    case 'type':
      return `must be a ${String(error.params.type)}`;
    case 'trIban':
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
export function validateRequest(name: RequestSchemaName, data: unknown): FieldError[] {
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
