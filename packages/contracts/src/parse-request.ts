import type { FromSchema } from 'json-schema-to-ts';
import type { FieldError } from './errors.js';
import { validateRequest, type SCHEMAS, type SchemaName } from './validation.js';

// Computed once for every schema, so a call site only looks a name up (inferring through FromSchema at each
// call, e.g. from a destructuring pattern, can exceed the compiler's instantiation depth).
type RequestTypes = { [N in SchemaName]: FromSchema<(typeof SCHEMAS)[N]> };

/** The TypeScript type of a request that passed the named schema, derived from the schema itself. */
export type RequestOf<N extends SchemaName> = RequestTypes[N];

/** The problem summary of a list whose filters fail their schema, on every list of every API. */
export const LIST_FILTERS_INVALID = 'The list filters are not valid.';

/** A request that failed its schema; the HTTP error handler answers it as 400 `validation_failed`. */
export class RequestValidationError extends Error {
  constructor(
    readonly errors: FieldError[],
    detail = 'One or more fields are not valid.',
  ) {
    super(detail);
    this.name = 'RequestValidationError';
  }
}

// One signature per schema name (an intersection of overloads): the call picks its signature by the name
// alone, so a destructuring pattern at the call site never drives inference through FromSchema.
type UnionToIntersection<U> = (U extends unknown ? (arg: U) => void : never) extends (arg: infer I) => void ? I : never;
type ParseRequest = UnionToIntersection<{ [N in SchemaName]: (name: N, data: unknown, detail?: string) => RequestTypes[N] }[SchemaName]>;

/**
 * Validates `data` (a body or a query) against the named schema and returns it typed from that schema, so a
 * route never casts what it read. Throws RequestValidationError listing one sentence per failing field
 * (`detail` is the problem's summary, e.g. "The list filters are not valid.").
 */
export const parseRequest: ParseRequest = (name: SchemaName, data: unknown, detail?: string): never => {
  checkRequest(name, data, detail);
  // The one place the cast is sound: ajv has just proven `data` matches the schema the caller's type comes from.
  return data as never;
};

/**
 * {@link parseRequest}'s check alone, for a caller that names its schema by a variable (a union of names, which the
 * overloads cannot take) and knows the type every one of them passes: throws RequestValidationError as it does.
 */
export function checkRequest(name: SchemaName, data: unknown, detail?: string): void {
  const errors = validateRequest(name, data);
  if (errors.length > 0) throw new RequestValidationError(errors, detail);
}
