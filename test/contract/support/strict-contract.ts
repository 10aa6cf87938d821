/**
 * Judges real traffic against the partner OpenAPI document, strictly, and counts what the traffic showed of it.
 *
 * - Strict: a copy of the document's schemas in which every object schema that says nothing about
 *   `additionalProperties` forbids them, so a field the services send but the document does not list fails.
 * - Answers: each is matched to its operation by method and path; its status must be documented, its Content-Type
 *   one the document gives for that status, and its body must match that status's schema.
 * - Webhooks: each body must match the request body of the `webhooks` entry named by its `type`.
 * - Coverage: every property of every schema an answer or a webhook can carry (followed through `$ref`, `oneOf`
 *   and `items`, named `Schema.property.sub` and `Schema.list[].property`) is recorded when a checked body carries
 *   it, so a test can name the documented fields no traffic ever showed.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Schema = Record<string, unknown>;

export interface CapturedAnswer {
  method: string;
  /** The request URL (its path and query). */
  url: string;
  status: number;
  contentType: string;
  /** The parsed JSON body; undefined when the answer had none. */
  body: unknown;
}

export interface StrictContract {
  /** What is wrong with an answer (empty when it matches the document). */
  checkAnswer(answer: CapturedAnswer): string[];
  /** What is wrong with a webhook body (empty when it matches the document). */
  checkWebhook(payload: unknown): string[];
  /** Every property the document lets an answer or a webhook carry. */
  readonly documented: ReadonlySet<string>;
  /** The properties the checked bodies carried. */
  readonly seen: ReadonlySet<string>;
}

const BASE = 'https://contract.kasa.test/partner.json';
const COMPONENTS = '#/components/schemas/';

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

const isObject = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);
const typesOf = (schema: Schema): unknown[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);

/** The schema with `additionalProperties: false` on every object schema that does not say otherwise, at every depth. */
export function strictSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const out: Schema = { ...schema };
  if (isObject(schema.properties)) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, sub]) => [name, strictSchema(sub)]));
  }
  if (schema.items !== undefined) out.items = strictSchema(schema.items);
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (Array.isArray(schema[keyword])) out[keyword] = (schema[keyword] as unknown[]).map(strictSchema);
  }
  if (isObject(schema.additionalProperties)) out.additionalProperties = strictSchema(schema.additionalProperties);
  const isObjectSchema = typesOf(schema).includes('object') || isObject(schema.properties);
  // allOf composes objects, which `additionalProperties: false` on each part would break; the partner document has none.
  if (isObjectSchema && schema.additionalProperties === undefined && schema.allOf === undefined) out.additionalProperties = false;
  return out;
}

/** `#/components/schemas/Name` references made absolute, so a piece of a schema compiles on its own. */
function absolute(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absolute);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${BASE}${value}` : absolute(value),
    ]),
  );
}

const componentOf = (ref: unknown): string | null =>
  typeof ref === 'string' && ref.startsWith(COMPONENTS) ? ref.slice(COMPONENTS.length) : null;

interface Operation {
  method: string;
  pattern: RegExp;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

export function strictContract(document: Record<string, unknown>): StrictContract {
  const doc = document as {
    paths: Record<string, Record<string, { responses?: Operation['responses'] }>>;
    webhooks?: Record<string, { post: { requestBody: { content: Record<string, { schema: Schema }> } } }>;
    components: { schemas: Record<string, Schema> };
  };
  const schemas = Object.fromEntries(
    Object.entries(doc.components.schemas).map(([name, schema]) => [name, strictSchema(schema) as Schema]),
  );
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ $id: BASE, components: { schemas } });

  const compiled = new WeakMap<Schema, ValidateFunction>();
  const validatorOf = (schema: Schema): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(absolute(schema) as Schema);
      compiled.set(schema, validate);
    }
    return validate;
  };

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!operation.responses) continue;
      const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      operations.push({ method: method.toUpperCase(), pattern, path, responses: operation.responses });
    }
  }

  // The schemas answers and webhooks can carry: every response's and webhook's, and all they reference.
  const roots: Schema[] = [
    ...operations.flatMap((op) =>
      Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).flatMap((c) => (c.schema ? [c.schema] : []))),
    ),
    ...Object.values(doc.webhooks ?? {}).flatMap((hook) => Object.values(hook.post.requestBody.content).map((c) => c.schema)),
  ];
  const reachable = new Set<string>();
  const reach = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(reach);
    if (!isObject(node)) return;
    const name = componentOf(node.$ref);
    if (name !== null && !reachable.has(name)) {
      reachable.add(name);
      reach(schemas[name]);
    }
    Object.values(node).forEach(reach);
  };
  roots.forEach(reach);

  const documented = new Set<string>();
  const fieldsOf = (schema: Schema, at: string): void => {
    if (schema.$ref !== undefined) return; // counted under its own component
    for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const) {
      for (const branch of (schema[keyword] as Schema[] | undefined) ?? []) fieldsOf(branch, at);
    }
    for (const [name, sub] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      documented.add(`${at}.${name}`);
      fieldsOf(sub, `${at}.${name}`);
    }
    if (isObject(schema.items)) fieldsOf(schema.items, `${at}[]`);
  };
  for (const name of reachable) fieldsOf(schemas[name]!, name);

  const seen = new Set<string>();
  /** Records the documented properties `value` carries, following the branch of a `oneOf` that it matches. */
  const visit = (value: unknown, schema: Schema, at: string): void => {
    const name = componentOf(schema.$ref);
    if (name !== null) return visit(value, schemas[name]!, name);
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const branch = ((schema[keyword] as Schema[] | undefined) ?? []).find((b) => validatorOf(b)(value));
      if (branch) visit(value, branch, at);
    }
    if (isObject(value) && isObject(schema.properties)) {
      for (const [key, item] of Object.entries(value)) {
        const sub = schema.properties[key];
        if (!isObject(sub)) continue;
        seen.add(`${at}.${key}`);
        visit(item, sub, `${at}.${key}`);
      }
    }
    if (Array.isArray(value) && isObject(schema.items)) for (const item of value) visit(item, schema.items, `${at}[]`);
  };

  const judge = (label: string, schema: Schema, body: unknown): string[] => {
    const validate = validatorOf(schema);
    if (!validate(body)) {
      return (validate.errors ?? []).map(
        (e) =>
          `${label}: ${e.instancePath || '(body)'} ${e.message ?? ''}${e.params.additionalProperty ? ` "${String(e.params.additionalProperty)}"` : ''}`,
      );
    }
    visit(body, schema, '(answer)');
    return [];
  };

  return {
    documented,
    seen,
    checkAnswer(answer) {
      const url = new URL(answer.url, BASE);
      const label = `${answer.method} ${url.pathname} ${answer.status}`;
      const operation = operations.find((op) => op.method === answer.method && op.pattern.test(url.pathname));
      if (!operation) return [`${label}: no operation of the document has this method and path`];
      const response = operation.responses[String(answer.status)];
      if (!response) return [`${label}: status not documented for ${answer.method} ${operation.path}`];
      const media = answer.contentType.split(';')[0]!.trim();
      const content = response.content?.[media];
      if (!content?.schema) return [`${label}: Content-Type "${media}" is not one of [${Object.keys(response.content ?? {}).join(', ')}]`];
      return judge(label, content.schema, answer.body);
    },
    checkWebhook(payload) {
      const type = isObject(payload) ? String(payload.type) : '?';
      const hook = doc.webhooks?.[type];
      if (!hook) return [`webhook ${type}: no webhooks entry of the document has this type`];
      return judge(`webhook ${type}`, hook.post.requestBody.content['application/json']!.schema, payload);
    },
  };
}
