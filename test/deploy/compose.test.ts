import { describe, expect, it } from '@jest/globals';
import { APP_SERVICES, DEPLOYED_VARIABLES, readRepoFile } from './common.js';
import { composeProblems, composeSchemaProblems, interpolate, parseCompose } from './compose-checks.js';

type Doc = { services: Record<string, Record<string, unknown>> } & Record<string, unknown>;

const original = parseCompose(readRepoFile('docker-compose.yml'));

/** A deep copy with YAML anchors un-shared, so a change touches one service only. */
function copy(): Doc {
  return JSON.parse(JSON.stringify(original)) as Doc;
}

function env(doc: Doc, service: string): Record<string, string> {
  return doc.services[service]!.environment as Record<string, string>;
}

describe('docker-compose.yml', () => {
  it('is valid against the compose-spec JSON Schema', () => {
    const { value, problems } = interpolate(original);
    expect(problems).toEqual([]);
    expect(composeSchemaProblems(value)).toEqual([]);
  });

  it('meets every Kasa rule (services, start order, ports, configuration, secrets)', () => {
    expect(composeProblems(original)).toEqual([]);
  });

  it('runs postgres, redis, migrate and the four services', () => {
    const services = Object.keys((original as Doc).services);
    expect(services).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', ...APP_SERVICES]));
  });

  it.each(APP_SERVICES)('%s starts after migrate completes and postgres and redis are healthy', (service) => {
    expect((original as Doc).services[service]!.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
  });

  it.each(['migrate', ...APP_SERVICES])('%s gets every configuration variable', (service) => {
    const { value } = interpolate(original);
    expect(Object.keys(env(value as Doc, service))).toEqual(expect.arrayContaining([...DEPLOYED_VARIABLES]));
  });

  it('publishes ports 8080-8083', () => {
    const services = (original as Doc).services;
    expect(services.gateway!.ports).toContain('8080:8080');
    expect(services.ledger!.ports).toContain('8081:8081');
    expect(services['webhook-worker']!.ports).toContain('8082:8082');
    expect(services.console!.ports).toContain('8083:8083');
  });
});

describe('compose interpolation', () => {
  it('resolves defaults, overrides and $$ like Docker Compose', () => {
    const doc = { a: '${X:-d}', b: '${X-d}', c: 'p$${X}', d: '${Y:-${X:-n}}', e: '$X/${X:+alt}' };
    expect(interpolate(doc, { X: '' }).value).toEqual({ a: 'd', b: '', c: 'p${X}', d: 'n', e: '/' });
    expect(interpolate(doc, { X: 'v' }).value).toEqual({ a: 'v', b: 'v', c: 'p${X}', d: 'v', e: 'v/alt' });
    expect(interpolate({ a: '${NOPE}' }).problems).toEqual([expect.stringContaining('has no default')]);
  });
});

describe('the compose checks reject broken copies', () => {
  const cases: Array<[string, (doc: Doc) => void, string]> = [
    ['an unknown service key', (doc) => (doc.services.gateway!.dependson = ['postgres']), 'schema:'],
    ['a healthcheck interval without a unit', (doc) => ((doc.services.ledger!.healthcheck as Doc).interval = 10), 'schema:'],
    [
      'a made-up depends_on condition',
      (doc) => ((doc.services.console!.depends_on as Doc).redis = { condition: 'service_ready' }),
      'schema:',
    ],
    ['a port that is not a port', (doc) => (doc.services.gateway!.ports = ['80:80:80:80']), 'schema:'],
    [
      'a service that does not wait for migrate',
      (doc) => delete (doc.services.gateway!.depends_on as Doc).migrate,
      'gateway: does not wait for migrate',
    ],
    [
      'a service that only waits for postgres to start',
      (doc) => ((doc.services.console!.depends_on as Doc).postgres = { condition: 'service_started' }),
      'console: does not wait for postgres',
    ],
    ['a missing service', (doc) => delete doc.services['webhook-worker'], 'webhook-worker: missing'],
    ['a wrong host port', (doc) => (doc.services.console!.ports = ['8084:8083']), 'console: port 8083 is not published'],
    ['a missing configuration variable', (doc) => delete env(doc, 'ledger').CURSOR_SIGNING_KEY, 'ledger: CURSOR_SIGNING_KEY is not set'],
    ['a misspelt variable', (doc) => (env(doc, 'webhook-worker').WEBHOOK_MAX_ATTEMPT = '8'), 'not a variable packages/config reads'],
    [
      'a value the config rejects',
      (doc) => (env(doc, 'gateway').WEBHOOK_TIMEOUT_MS = '10 seconds'),
      'gateway: the service would refuse to start: WEBHOOK_TIMEOUT_MS',
    ],
    [
      'an encryption key that is not 32 bytes',
      (doc) => (env(doc, 'ledger').SECRET_ENCRYPTION_KEY = Buffer.from('dev-key-change-me').toString('base64')),
      'SECRET_ENCRYPTION_KEY: must be 32 bytes',
    ],
    [
      'a real-looking secret',
      (doc) => (env(doc, 'gateway').INTERNAL_TOKEN = '${INTERNAL_TOKEN:-9f86d081884c7d659a2feaa0c55ad015}'),
      'INTERNAL_TOKEN holds a secret-looking value',
    ],
    [
      'an unmarked database password',
      (doc) => {
        env(doc, 'postgres').POSTGRES_PASSWORD = 'Tr0ub4dor3xkcd936';
        env(doc, 'ledger').DATABASE_URL = 'postgresql://kasa:Tr0ub4dor3xkcd936@postgres:5432/kasa';
      },
      'POSTGRES_PASSWORD holds a secret-looking value',
    ],
    [
      'a DATABASE_URL out of step with postgres',
      (doc) => (env(doc, 'ledger').DATABASE_URL = 'postgresql://kasa:x@postgres:5432/other'),
      'DATABASE_URL database',
    ],
    ['an interpolation without a default', (doc) => (env(doc, 'gateway').PUBLIC_BASE_URL = '${PUBLIC_BASE_URL}'), 'has no default'],
    ['a short worker stop grace period', (doc) => (doc.services['webhook-worker']!.stop_grace_period = '10s'), 'stop_grace_period'],
    [
      'a healthcheck on the wrong port',
      (doc) => ((doc.services.gateway!.healthcheck as Doc).test = ['CMD', 'node', '-e', "fetch('http://127.0.0.1:8081/healthz')"]),
      'gateway: healthcheck',
    ],
    ['a second image', (doc) => (doc.services.console!.image = 'kasa-console:local'), 'images'],
    [
      'a wrong service command',
      (doc) => (doc.services.ledger!.command = ['npx', 'tsx', 'services/gateway/src/main.ts']),
      'ledger: command',
    ],
    ['a depends_on cycle', (doc) => (doc.services.postgres!.depends_on = { gateway: { condition: 'service_started' } }), 'cycle'],
    ['a LEDGER_URL that misses the ledger', (doc) => (env(doc, 'gateway').LEDGER_URL = 'http://localhost:8081'), 'LEDGER_URL'],
  ];

  it.each(cases)('%s', (_name, mutate, expected) => {
    const doc = copy();
    mutate(doc);
    expect(composeProblems(doc)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});
