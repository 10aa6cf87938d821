import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '../../packages/config/src/index.js';
import { APP_SERVICES, DEPLOYED_VARIABLES, PUBLISHED_DEV_SECRETS, isSecretName, readRepoFile, serviceCommand } from './common.js';
import {
  PUBLISHED_SERVICES,
  composeProblems,
  composeSchemaProblems,
  interpolate,
  interpolationDefaults,
  parseCompose,
  publishedPorts,
} from './compose-checks.js';

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

  it('publishes only the gateway and the console, on 127.0.0.1 only', () => {
    const services = (original as Doc).services;
    expect(services.gateway!.ports).toEqual(['127.0.0.1:8080:8080']);
    expect(services.console!.ports).toEqual(['127.0.0.1:8083:8083']);
    for (const name of ['postgres', 'redis', 'migrate', 'ledger', 'webhook-worker']) {
      expect([name, services[name]!.ports]).toEqual([name, undefined]);
    }
    expect(PUBLISHED_SERVICES).toEqual(['gateway', 'console']);
  });

  it.each(APP_SERVICES)('%s runs compiled JavaScript as `command`, under the image ENTRYPOINT', (service) => {
    const svc = (original as Doc).services[service]!;
    expect(svc.command).toEqual(serviceCommand(service));
    expect(svc.entrypoint).toBeUndefined();
  });

  it('has every service listen on all interfaces inside its container (BIND_ADDRESS; a local npm start keeps 127.0.0.1)', () => {
    const { value } = interpolate(original);
    for (const service of APP_SERVICES) expect([service, env(value as Doc, service).BIND_ADDRESS]).toEqual([service, '0.0.0.0']);
  });

  it('runs in development mode unless NODE_ENV says otherwise', () => {
    const { value } = interpolate(original);
    for (const service of ['migrate', ...APP_SERVICES]) expect(env(value as Doc, service).NODE_ENV).toBe('development');
    expect(env(interpolate(original, { NODE_ENV: 'production' }).value as Doc, 'ledger').NODE_ENV).toBe('production');
  });

  it('lists every development secret default in PUBLISHED_DEV_SECRETS (packages/config)', () => {
    const secretDefaults = interpolationDefaults(original).filter(({ variable }) => isSecretName(variable));
    expect(secretDefaults.map(({ variable }) => variable)).toEqual(
      expect.arrayContaining(['POSTGRES_PASSWORD', 'INTERNAL_TOKEN', 'OPS_BOOTSTRAP_TOKEN', 'CURSOR_SIGNING_KEY', 'SECRET_ENCRYPTION_KEY']),
    );
    for (const { variable, value } of secretDefaults) expect([variable, PUBLISHED_DEV_SECRETS.includes(value)]).toEqual([variable, true]);
  });

  it('cannot be run in production with its defaults: the services refuse, naming the variable, never the value', () => {
    const { value } = interpolate(original);
    for (const service of ['migrate', ...APP_SERVICES]) {
      const production = { ...env(value as Doc, service), NODE_ENV: 'production' };
      let error: unknown;
      try {
        loadConfig(production);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^[A-Z_]+: .*published development value/);
      for (const secret of PUBLISHED_DEV_SECRETS) expect((error as Error).message).not.toContain(secret);
    }
  });

  it('starts in production once every published secret is replaced from the environment', () => {
    const own = {
      NODE_ENV: 'production',
      POSTGRES_PASSWORD: 'own-postgres-password-0123',
      INTERNAL_TOKEN: 'own-internal-token-0123456789',
      OPS_BOOTSTRAP_TOKEN: 'own-ops-bootstrap-token-0123456789',
      CURSOR_SIGNING_KEY: 'own-cursor-signing-key-0123456789',
      SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      STATEMENT_SIGNING_KEY: Buffer.alloc(32, 19).toString('base64'),
      HISTORY_SEAL_KEY: Buffer.alloc(32, 8).toString('base64'),
    };
    const { value } = interpolate(original, own);
    for (const service of ['migrate', ...APP_SERVICES]) expect(loadConfig(env(value as Doc, service)).nodeEnv).toBe('production');
  });
});

describe('compose port parsing', () => {
  it('reads the host address, the host port and the container port', () => {
    expect(publishedPorts({ ports: ['127.0.0.1:8080:8080', '8081:8081', '8082', '[::1]:8083:8083/tcp'] } as never)).toEqual([
      { hostIp: '127.0.0.1', host: 8080, container: 8080 },
      { hostIp: '', host: 8081, container: 8081 },
      { hostIp: '', host: Number.NaN, container: 8082 },
      { hostIp: '[::1]', host: 8083, container: 8083 },
    ]);
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
    ['a wrong host port', (doc) => (doc.services.console!.ports = ['127.0.0.1:8084:8083']), 'console: port 8083 is not published'],
    [
      'the gateway on every interface',
      (doc) => (doc.services.gateway!.ports = ['8080:8080']),
      'gateway: publishes port 8080 on every interface, not on 127.0.0.1 only',
    ],
    ['the ledger published', (doc) => (doc.services.ledger!.ports = ['127.0.0.1:8081:8081']), 'ledger: publishes port 8081 to the host'],
    ['postgres published', (doc) => (doc.services.postgres!.ports = ['5432:5432']), 'postgres: publishes port 5432 to the host'],
    ['redis published', (doc) => (doc.services.redis!.ports = [{ target: 6379, published: 6379 }]), 'redis: publishes port 6379'],
    [
      'production by default',
      (doc) => (env(doc, 'gateway').NODE_ENV = '${NODE_ENV:-production}'),
      'gateway: NODE_ENV defaults to production, not development',
    ],
    [
      'a development secret packages/config does not know',
      (doc) => (env(doc, 'ledger').CURSOR_SIGNING_KEY = '${CURSOR_SIGNING_KEY:-dev-other-cursor-key-change-me}'),
      'the default of CURSOR_SIGNING_KEY is a development secret missing from PUBLISHED_DEV_SECRETS',
    ],
    [
      'a compose password packages/config does not know',
      (doc) => {
        env(doc, 'postgres').POSTGRES_PASSWORD = '${POSTGRES_PASSWORD:-kasa-dev-other-password-change-me}';
        for (const service of ['migrate', ...APP_SERVICES]) {
          env(doc, service).DATABASE_URL = 'postgresql://kasa:${POSTGRES_PASSWORD:-kasa-dev-other-password-change-me}@postgres:5432/kasa';
        }
      },
      'ledger.environment: DATABASE_URL holds a development secret missing from PUBLISHED_DEV_SECRETS',
    ],
    ['a short stop grace period', (doc) => delete doc.services.console!.stop_grace_period, 'console: stop_grace_period'],
    [
      'a stop grace period shorter than a longer SHUTDOWN_GRACE_MS',
      (doc) => (env(doc, 'ledger').SHUTDOWN_GRACE_MS = '40000'),
      'ledger: stop_grace_period 30s is shorter than the shutdown grace 40s + 5s',
    ],
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
    ['a wrong service command', (doc) => (doc.services.ledger!.command = ['node', 'services/gateway/dist/main.js']), 'ledger: command'],
    [
      'the service run through tsx',
      (doc) => (doc.services.console!.command = ['npx', 'tsx', 'services/console/src/main.ts']),
      'console: command is not node services/console/dist/main.js',
    ],
    ['a wrong migrate command', (doc) => (doc.services.migrate!.command = ['npx', 'prisma', 'migrate', 'deploy']), 'migrate: command'],
    ['a depends_on cycle', (doc) => (doc.services.postgres!.depends_on = { gateway: { condition: 'service_started' } }), 'cycle'],
    ['a LEDGER_URL that misses the ledger', (doc) => (env(doc, 'gateway').LEDGER_URL = 'http://localhost:8081'), 'LEDGER_URL'],
  ];

  it.each(cases)('%s', (_name, mutate, expected) => {
    const doc = copy();
    mutate(doc);
    expect(composeProblems(doc)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});
