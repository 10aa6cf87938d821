/**
 * The served OpenAPI documents (partner: the gateway's /api/v1/openapi.json; ops: the ledger's
 * /ops/v1/openapi.json), judged by tools nobody here wrote: @seriousme/openapi-schema-validator (OpenAPI 3.1),
 * spectral's `oas` ruleset, and ajv for every example against the schema beside it. Every `$ref` resolves,
 * and the ops document names exactly the routes the ledger mounts under /ops/v1.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { startHarness, type Harness } from '../../services/gateway/test/harness.js';
import { createApp } from '../../services/ledger/src/index.js';
import { registeredRoutes } from '../../services/ledger/test/ops-routes.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
type Doc = Record<string, any>;

let h: Harness;
const docs: Record<'partner' | 'ops', Doc> = { partner: {}, ops: {} };

beforeAll(async () => {
  h = await startHarness();
  docs.partner = (await (await fetch(`${h.gateway.url}/api/v1/openapi.json`)).json()) as Doc;
  docs.ops = (await (await fetch(`${h.ledger.url}/ops/v1/openapi.json`)).json()) as Doc;
});
afterAll(async () => {
  await h?.stop();
});

/** Every `$ref` in the document, with the JSON pointer it was found at. */
function refsOf(doc: Doc): Array<{ at: string; ref: string }> {
  const found: Array<{ at: string; ref: string }> = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push({ at, ref: value });
      else walk(value, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`);
    }
  };
  walk(doc, '#');
  return found;
}

/** The value a local reference (`#/a/b`) points at, by RFC 6901; undefined when nothing is there. */
function resolve(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((at, part) => (at !== null && typeof at === 'object' ? (at as Doc)[part] : undefined), doc);
}

/** Every example with the schema it illustrates: media types (request and response) and parameters. */
function examplesOf(doc: Doc): Array<{ at: string; schema: unknown; value: unknown }> {
  const found: Array<{ at: string; schema: unknown; value: unknown }> = [];
  const operations = [...Object.entries(doc.paths ?? {}), ...Object.entries(doc.webhooks ?? {})].flatMap(([path, item]) =>
    Object.entries(item as Doc).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op: op as Doc })),
  );
  const media = (at: string, content: Doc | undefined) => {
    for (const [type, entry] of Object.entries(content ?? {})) {
      if ('example' in entry) found.push({ at: `${at} ${type}`, schema: entry.schema, value: entry.example });
      for (const [name, example] of Object.entries((entry.examples ?? {}) as Doc))
        found.push({ at: `${at} ${type} ${name}`, schema: entry.schema, value: (example as Doc).value });
    }
  };
  for (const { at, op } of operations) {
    media(`${at} request`, op.requestBody?.content);
    for (const [status, response] of Object.entries((op.responses ?? {}) as Doc)) media(`${at} ${status}`, (response as Doc).content);
    for (const parameter of (op.parameters ?? []) as Doc[])
      if ('example' in parameter) found.push({ at: `${at} ${parameter.name}`, schema: parameter.schema, value: parameter.example });
  }
  return found;
}

async function spectralResults(doc: Doc) {
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[spectralRulesets.oas, 'recommended']] } as never);
  return spectral.run(new spectralCore.Document(JSON.stringify(doc, null, 2), spectralParsers.Json));
}

describe.each(['partner', 'ops'] as const)('the %s OpenAPI document', (name) => {
  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(docs[name]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has no dangling $ref: every reference resolves to a schema, parameter or response that exists', () => {
    const refs = refsOf(docs[name]);
    expect(refs.length).toBeGreaterThan(20);
    const dangling = refs.filter(({ ref }) => resolve(docs[name], ref) === undefined).map(({ at, ref }) => `${ref} (at ${at})`);
    expect(dangling).toEqual([]);
    // The check itself finds a broken one: the old `WebhookConfigRequest` mistake.
    expect(resolve(docs[name], '#/components/schemas/WebhookConfigRequest')).toBeUndefined();
  });

  it('has examples, and every example validates against its schema (ajv, JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: docs[name].components });
    const examples = examplesOf(docs[name]);
    expect(examples.length).toBeGreaterThan(name === 'partner' ? 30 : 10);
    const invalid = examples.flatMap(({ at, schema, value }) => {
      // References point into the document's components, which ajv knows under the id `doc`.
      const local = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
      const validate = ajv.compile(local);
      return validate(value) ? [] : [`${at}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it("has no error from spectral's oas ruleset", async () => {
    // Spectral compiles patterns without the `u` flag, so a Unicode property escape (`\p{L}`: any letter, for
    // names such as "Ayşe Yılmaz") never matches there. Only those results are set aside; the ajv test above
    // checks the same examples with the patterns as JSON Schema 2020-12 means them.
    const unicodeBlind = (r: { code: string | number; message: string }) =>
      r.code === 'oas3-valid-media-example' && /must match pattern ".*\\p\{L\}/.test(r.message);
    const results = (await spectralResults(docs[name])).filter((r) => !unicodeBlind(r));
    const errors = results.filter((r) => r.severity === 0).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(errors).toEqual([]);
    const warnings = results.filter((r) => r.severity === 1).map((r) => `${r.code} at ${r.path.join('.')}`);
    expect(warnings).toEqual([]);
  });
});

describe('what the documents cover', () => {
  it('gives each webhook event, and the test webhook ping, its payload, an example and the signature headers', () => {
    const webhooks = docs.partner.webhooks as Record<string, { post: { parameters: { name: string }[]; requestBody: Doc } }>;
    expect(Object.keys(webhooks).sort()).toEqual([
      'intent.approved',
      'intent.auto_cancelled',
      'intent.late_arrival',
      'intent.received',
      'intent.rejected',
      'intent.topped_up',
      'ping',
      'withdrawal.approved',
      'withdrawal.rejected',
      'withdrawal.returned',
      'withdrawal.sent',
    ]);
    for (const hook of Object.values(webhooks)) {
      expect(hook.post.parameters.map((p) => p.name)).toEqual(
        expect.arrayContaining(['Service-Signature', 'Service-Event-Id', 'webhook-id', 'webhook-timestamp', 'webhook-signature']),
      );
      expect(hook.post.requestBody.content['application/json'].example).toBeDefined();
    }
  });

  it('documents in the ops document exactly the routes the ledger mounts under /ops/v1, and only there', () => {
    // What the ledger app really registers under /ops/v1 (each ops router registers its routes from the route table).
    const served = registeredRoutes(createApp(h.ledger.deps))
      .filter((route) => route.path.startsWith('/ops/v1/'))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    served.push('get /ops/v1/openapi.json');
    const documented = Object.entries(docs.ops.paths as Doc).flatMap(([path, item]) => Object.keys(item as Doc).map((m) => `${m} ${path}`));
    expect(served.length).toBeGreaterThan(30);
    expect([...documented, 'get /ops/v1/openapi.json'].sort()).toEqual([...new Set(served)].sort());
    expect(Object.keys(docs.partner.paths as Doc).every((path) => path.startsWith('/api/v1/external/'))).toBe(true);
  });

  it('says where each API lives and how it is authenticated', () => {
    expect(docs.partner.servers).toEqual([{ url: h.env.config.publicBaseUrl }]);
    expect(docs.ops.servers[0].url).toBe(h.env.config.ledgerUrl);
    expect(Object.keys(docs.partner.components.securitySchemes)).toEqual(['apiKey']);
    expect(Object.keys(docs.ops.components.securitySchemes)).toEqual(['operatorToken']);
    expect(docs.ops.paths['/ops/v1/login'].post.security).toEqual([]);
  });
});
