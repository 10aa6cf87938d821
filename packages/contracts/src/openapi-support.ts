/**
 * What the partner and the ops OpenAPI documents share: turning the validation schemas into components,
 * references, problem-details answers, and pruning components nothing reaches.
 */

export type Json = Record<string, unknown>;

/** The `:name` parameters of an Express-style path, as a union of names: `'/a/:x/b/:y'` -> `'x' | 'y'`. */
export type PathParameters<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParameters<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** Drops `$id` and turns `$ref: "Name"` into `$ref: "#/components/schemas/Name"`, at every depth. */
export function toComponent(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toComponent);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === '$id') continue;
    out[key] = key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? `#/components/schemas/${value}` : toComponent(value);
  }
  return out;
}

/**
 * A request schema's `default`s said in words instead: generators such as openapi-typescript turn a property
 * with a `default` into a required one, and a client would then have to send what the server fills in itself.
 */
export function defaultsInDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(defaultsInDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) if (key !== 'default') out[key] = defaultsInDescriptions(value);
  if ('default' in (schema as Json)) {
    const said = `Default: ${JSON.stringify((schema as Json).default)}.`;
    out.description = typeof out.description === 'string' ? `${out.description} ${said}` : said;
  }
  return out;
}

/** Every schema of `sources` as a component under its `$id` (or its key), references rewritten. */
export function componentsOf(requestSchemas: Json, responseSchemas: Json[]): Json {
  const schemas: Json = {};
  for (const [name, schema] of Object.entries(requestSchemas))
    schemas[(schema as { $id?: string }).$id ?? name] = defaultsInDescriptions(toComponent(schema));
  for (const source of responseSchemas) for (const [name, schema] of Object.entries(source)) schemas[name] = toComponent(schema);
  return schemas;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** An error answer: RFC 9457 problem details, with an example body when one is given. */
export function problem(description: string, example?: Json) {
  return {
    description,
    content: { 'application/problem+json': { schema: ref('Problem'), ...(example ? { example } : {}) } },
  };
}

/** A UUID path parameter. */
export const pathId = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });

/**
 * Keeps only the component schemas the document's operations and webhooks reach: the contracts package holds
 * the partner API's and the ops API's schemas together, and each document describes only its own.
 */
export function withoutUnusedSchemas<Doc extends { components: { schemas: Json } }>(doc: Doc): Doc {
  const schemas = doc.components.schemas;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit({ ...doc, components: { ...doc.components, schemas: {} } });
  return {
    ...doc,
    components: { ...doc.components, schemas: Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name))) },
  };
}

/** The list filters of a query schema as query parameters; `limit` is a whole number on the wire. */
export function queryParametersOf(schema: unknown, extra: Json[] = []): Json[] {
  const { properties } = schema as { properties: Record<string, Json> };
  return [
    ...Object.entries(properties).map(([name, property]) => ({
      name,
      in: 'query',
      required: false,
      // The services check the query's text; on the wire a page size is a whole number, and typed clients say so.
      schema: name === 'limit' ? LIMIT_PARAMETER : toComponent(property),
    })),
    ...extra,
  ];
}

const LIMIT_PARAMETER = { type: 'integer', minimum: 1, maximum: 100, default: 50, description: 'Page size, 1 to 100; default 50.' };
