import { OPS_ROUTES } from './ops-routes.js';
import { REQUEST_SCHEMAS } from './schemas/requests.js';

/** What an operation's body schema says of one field, for a form or a flag drawn from a declaration. */
export interface OpsBodyField {
  /** Whether the schema requires it. */
  readonly required: boolean;
  /** Its choices when it is an enum; empty otherwise. */
  readonly choices: readonly string[];
  /** Its longest text, when the schema bounds it. */
  readonly maxLength?: number;
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `field` of the body `operationId` takes, as its request schema says: the console's declared forms and the CLI's
 * declared flags read it here, so a choice, a required field or a bound is the schema's on both.
 */
export function opsBodyField(operationId: string, field: string): OpsBodyField {
  const routes: Readonly<Record<string, { path: string; body?: { schema: string } }>> = OPS_ROUTES;
  const schemas: Readonly<Record<string, unknown>> = REQUEST_SCHEMAS;
  const schema = schemas[routes[operationId]?.body?.schema ?? ''];
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const property = Object.prototype.hasOwnProperty.call(properties, field) && isObject(properties[field]) ? properties[field] : {};
  const required = isObject(schema) && Array.isArray(schema.required) && schema.required.includes(field);
  const choices = Array.isArray(property.enum) ? property.enum.map(String) : [];
  return typeof property.maxLength === 'number' ? { required, choices, maxLength: property.maxLength } : { required, choices };
}
