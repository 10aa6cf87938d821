/**
 * Checks for k8s/: the kustomize output of the base, of the production overlay and of its Redis Cluster
 * variant (rendered by
 * ./k8s-kustomize.ts), every object against its API schema (npm `kubernetes-models` for the built-in
 * kinds, `@kubernetes-models/keda` for KEDA's, which is KEDA v2.10.1's CRD OpenAPI schema compiled with
 * ajv), then how the objects fit together and with the code: commands, ports, probes, configuration,
 * images, the migrate Job, Ingress, NetworkPolicies, autoscaling, disruption budgets.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy, type IIngress, type INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import {
  ConfigMap,
  Namespace,
  Secret,
  Service,
  type IConfigMap,
  type IContainer,
  type IPodSpec,
  type IProbe,
  type ISecret,
  type IService,
} from 'kubernetes-models/v1';
import {
  ScaledObject,
  TriggerAuthentication,
  type IScaledObject,
  type ITriggerAuthentication,
} from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Cluster, type ICluster } from '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Cluster';
import { clusterAppSecret, postgresClusterProblems } from './k8s-cnpg.js';
import { loadConfig, type KasaConfig } from '../../packages/config/src/index.js';
import { WEBHOOK_QUEUE, queuePrefix } from '../../packages/queue/src/index.js';
import {
  APP_SERVICES,
  DEPLOYED_VARIABLES,
  MIGRATE_COMMAND,
  PORT_VARIABLES,
  SECRET_VARIABLES,
  SERVICE_PORTS,
  STOP_MARGIN_SECONDS,
  configProblems,
  configVariableNames,
  containsPublishedDevSecret,
  parseQuantity,
  repoRoot,
  sameList,
  secretValueProblems,
  serviceCommand,
  shutdownGraceSeconds,
  type AppService,
} from './common.js';
import { loadKustomization, parseImage, renderKustomization, type KObject } from './k8s-kustomize.js';
import { connectionAllowed, isolated, type AddressPeer, type PodPeer, type Protocol } from './k8s-netpol.js';

export const NAMESPACE = 'kasa';

/** The kustomizations an operator may apply, and the base they share. */
export const RENDERS = {
  base: 'k8s/base',
  production: 'k8s/overlays/production',
  redisCluster: 'k8s/overlays/redis-cluster',
  cloudnativePg: 'k8s/overlays/cloudnative-pg',
} as const;
export type RenderName = keyof typeof RENDERS;

/**
 * Secrets created out of band (docs/operations.md, Deploying), never part of the kustomize output, and the
 * keys the manifests read from each.
 */
export const EXTERNAL_SECRETS: Record<string, readonly string[]> = {
  'kasa-secrets': SECRET_VARIABLES,
  'kasa-keda-redis': ['address', 'password'],
};

/** Stand-ins for the external Secrets, to run the real configuration loader on what a container gets. */
const SAMPLE_SECRET_DATA: Record<string, Record<string, string>> = {
  'kasa-secrets': {
    DATABASE_URL: 'postgresql://kasa:sample-database-password@db.internal:5432/kasa',
    REDIS_URL: 'redis://redis.internal:6379',
    INTERNAL_TOKEN: 'sample-internal-token-0123456789abcdef',
    OPS_BOOTSTRAP_TOKEN: 'sample-ops-token-0123456789abcdef',
    CURSOR_SIGNING_KEY: 'sample-cursor-key-0123456789abcdef',
    SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    STATEMENT_SIGNING_KEY: Buffer.alloc(32, 2).toString('base64'),
    HISTORY_SEAL_KEY: Buffer.alloc(32, 2).toString('base64'),
  },
  'kasa-keda-redis': { address: 'redis.internal:6379', password: '' },
};

/** Replicas each service runs with at rest: a fixed count, or its autoscaler's minimum. */
const EXPECTED_REPLICAS: Record<AppService, number> = { gateway: 2, ledger: 2, 'webhook-worker': 2, console: 1 };

/** How each service is scaled. */
const SCALED_BY: Record<AppService, 'cpu-hpa' | 'keda' | 'fixed'> = {
  gateway: 'cpu-hpa',
  ledger: 'cpu-hpa',
  'webhook-worker': 'keda',
  console: 'fixed',
};

/** The services an Ingress publishes, and the setting that must name the Ingress host. */
const PUBLIC_URL_OF: Partial<Record<AppService, (config: KasaConfig) => string>> = {
  gateway: (config) => config.publicBaseUrl,
  console: (config) => config.consolePublicUrl,
};

/** Request paths the gateway's Ingress must route, and those that must stay inside the cluster. */
const GATEWAY_PUBLIC_PATHS = ['/api/v1/external/deposits', '/api/v1/openapi.json', '/deposit/abc', '/deposit/assets/deposit-page.js'];
const INTERNAL_PATHS = ['/metrics', '/healthz', '/readyz'];

export interface Render {
  name: string;
  dir: string;
  docs: KObject[];
  kustomization: KObject;
}

export function loadRender(name: RenderName): Render {
  const dir = resolve(repoRoot, RENDERS[name]);
  return { name, dir, docs: renderKustomization(dir), kustomization: loadKustomization(dir) };
}

// ---------------------------------------------------------------------------------------------------
// Small helpers.

function isObject(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeKey(doc: Record<string, unknown>): string {
  return `${String(doc.apiVersion)}/${String(doc.kind)}`;
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

function portOf(container: IContainer, port: string | number | undefined): number | undefined {
  if (port === undefined) return undefined;
  const found = (container.ports ?? []).find((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
  return found?.containerPort;
}

function httpProbe(probe: IProbe | undefined): { path?: string; port?: string | number } | undefined {
  return probe?.httpGet ? { path: probe.httpGet.path, port: probe.httpGet.port } : undefined;
}

function hostAndPort(url: string): { host: string; port: number; protocol: string } | undefined {
  try {
    const parsed = new URL(url);
    const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    return { host: parsed.hostname, port, protocol: parsed.protocol };
  } catch {
    return undefined;
  }
}

const SEMVER = /^v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** Pinned: a sha256 digest, or a version tag (never `latest`, never no tag at all). */
export function isPinnedImage(image: string): boolean {
  const ref = parseImage(image);
  if (ref.digest !== undefined) return DIGEST.test(ref.digest);
  return ref.tag !== undefined && SEMVER.test(ref.tag);
}

/** The migrate Job's name for an image: the release's tag (dots as dashes), or the digest's first 12 hex digits. */
export function migrateJobName(image: string): string {
  const ref = parseImage(image);
  const release =
    ref.digest !== undefined
      ? `sha256-${ref.digest.replace(/^sha256:/, '').slice(0, 12)}`
      : (ref.tag ?? 'untagged')
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-')
          .replace(/^-+|-+$/g, '');
  return `kasa-migrate-${release}`;
}

/**
 * The Redis list BullMQ keeps the waiting jobs of the webhook queue in, computed with BullMQ's own key
 * layout (QueueKeys) and Kasa's queue name and prefix (packages/queue).
 */
export function webhookWaitListKey(redisPrefix: string): string {
  const requireFromQueue = createRequire(resolve(repoRoot, 'packages/queue/package.json'));
  const { QueueKeys } = requireFromQueue('bullmq') as { QueueKeys: new (prefix: string) => { toKey(name: string, type: string): string } };
  return new QueueKeys(queuePrefix(redisPrefix)).toKey(WEBHOOK_QUEUE, 'wait');
}

/** Seconds a container sleeps in its preStop hook (exec `sleep N` or the native sleep action). */
function preStopSeconds(container: IContainer): number {
  const preStop = container.lifecycle?.preStop;
  if (!preStop) return 0;
  if (preStop.sleep) return preStop.sleep.seconds;
  const command = preStop.exec?.command ?? [];
  return command[0] === 'sleep' && /^\d+$/.test(command[1] ?? '') ? Number(command[1]) : 0;
}

/** Whether an Ingress path of `pathType` routes request path `request`. */
function pathRoutes(path: string, pathType: string, request: string): boolean {
  if (pathType === 'Exact') return request === path;
  const prefix = path.replace(/\/+$/, '');
  return prefix === '' || request === prefix || request.startsWith(`${prefix}/`);
}

// ---------------------------------------------------------------------------------------------------
// Schema validation.

type Model = { validate(): void };
const MODELS: Record<string, new (data: never) => Model> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
  'postgresql.cnpg.io/v1/Cluster': Cluster,
};

/** Schema problems of one manifest: an unknown apiVersion/kind, or what the schema rejects. */
export function manifestSchemaProblems(doc: unknown, where: string): string[] {
  if (!isObject(doc)) return [`${where}: not a YAML mapping`];
  const Model = MODELS[typeKey(doc)];
  if (!Model) return [`${where}: unexpected apiVersion/kind ${typeKey(doc)} (not one Kasa uses, or a wrong version)`];
  try {
    new Model(doc as never).validate();
  } catch (error) {
    return [`${where}: ${typeKey(doc)} is invalid: ${(error as Error).message}`];
  }
  const metadata = doc.metadata;
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') return [`${where}: metadata.name is missing`];
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(metadata.name) || metadata.name.length > 63) {
    return [`${where}: metadata.name ${metadata.name} is not a DNS label of at most 63 characters`];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------------
// Cross-object rules.

export interface Workload {
  where: string;
  kind: 'Deployment' | 'Job';
  name: string;
  podSpec: IPodSpec;
  podLabels: Record<string, string>;
  /** The environment of its first container, secrets resolved to samples. */
  env: Record<string, string>;
}

/** Every rule a rendered kustomization must meet; [] when it does. */
export function k8sProblems(render: Render): string[] {
  const problems: string[] = [];

  // 1. Each object is valid against its schema.
  const docs: Array<{ where: string; doc: Record<string, any> }> = [];
  render.docs.forEach((doc, index) => {
    const where = `${render.name}: ${String(doc.kind)}/${String(doc.metadata?.name ?? `#${index + 1}`)}`;
    const found = manifestSchemaProblems(doc, where);
    problems.push(...found);
    if (found.length === 0) docs.push({ where, doc });
  });

  // 2. Names and the namespace.
  const seen = new Set<string>();
  for (const { where, doc } of docs) {
    const id = `${String(doc.kind)}/${String(doc.metadata.name)}`;
    if (seen.has(id)) problems.push(`${where}: duplicate ${id}`);
    seen.add(id);
    if (doc.kind === 'Namespace') {
      if (doc.metadata.name !== NAMESPACE) problems.push(`${where}: namespace is not ${NAMESPACE}`);
      if (doc.metadata.labels?.['pod-security.kubernetes.io/enforce'] !== 'restricted') {
        problems.push(`${where}: does not enforce the restricted Pod Security Standard`);
      }
    } else if (doc.metadata.namespace !== NAMESPACE) {
      problems.push(`${where}: ${id} is not in namespace ${NAMESPACE}`);
    }
  }
  if (!docs.some(({ doc }) => doc.kind === 'Namespace')) problems.push(`${render.name}: no Namespace ${NAMESPACE}`);

  const ofKind = <T>(kind: string): Array<{ where: string; obj: T }> =>
    docs.filter(({ doc }) => doc.kind === kind).map(({ where, doc }) => ({ where, obj: doc as T }));
  const configMaps = ofKind<IConfigMap>('ConfigMap');
  const deployments = ofKind<IDeployment>('Deployment');
  const jobs = ofKind<IJob>('Job');
  const services = ofKind<IService>('Service');
  const hpas = ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
  const pdbs = ofKind<IPodDisruptionBudget>('PodDisruptionBudget');
  const ingresses = ofKind<IIngress>('Ingress');
  const policies = ofKind<INetworkPolicy>('NetworkPolicy');
  const scaledObjects = ofKind<IScaledObject>('ScaledObject');
  const triggerAuths = ofKind<ITriggerAuthentication>('TriggerAuthentication');
  const clusters = ofKind<ICluster>('Cluster');
  // Secrets a CloudNativePG operator makes for a Cluster of this render (never in the output, nor created by hand).
  const operatorSecrets = new Map(
    clusters.map(({ obj }) => clusterAppSecret(obj.metadata?.name ?? '')).map((secret) => [secret.name, secret.data]),
  );

  // 3. Secrets: none in the output (they are created out of band, so an apply never overwrites them), no
  // published development secret anywhere, nothing secret in a ConfigMap.
  for (const { where } of ofKind<ISecret>('Secret')) {
    problems.push(`${where}: a Secret in the kustomize output; create Secrets out of band (an apply would overwrite the real one)`);
  }
  for (const { where, doc } of docs) {
    if (containsPublishedDevSecret(JSON.stringify(doc))) problems.push(`${where}: contains a published development secret`);
  }
  for (const { where, obj } of configMaps) {
    for (const [key, value] of Object.entries(obj.data ?? {})) {
      if ((SECRET_VARIABLES as readonly string[]).includes(key)) problems.push(`${where}: ${key} is a secret; it belongs in a Secret`);
      problems.push(...secretValueProblems(key, value, () => false, where));
    }
  }
  const configMapData = new Map(configMaps.map(({ obj }) => [obj.metadata!.name!, obj.data ?? {}]));

  // 4. The kustomization pins the image.
  for (const entry of (render.kustomization.images ?? []) as Array<Record<string, unknown>>) {
    const pinned =
      (typeof entry.digest === 'string' && DIGEST.test(entry.digest)) || (typeof entry.newTag === 'string' && SEMVER.test(entry.newTag));
    if (!pinned) {
      problems.push(`${render.name} kustomization: image ${String(entry.name)} is not pinned to a version tag or a sha256 digest`);
    }
  }

  // 5. Pods: one pinned image, args not command, resources, security, volumes, env references, configuration.
  const known = configVariableNames();
  const workloads: Workload[] = [];
  const images = new Set<string>();
  for (const { where, obj, kind } of [
    ...deployments.map((d) => ({ ...d, kind: 'Deployment' as const })),
    ...jobs.map((j) => ({ ...j, kind: 'Job' as const })),
  ]) {
    const podSpec = obj.spec!.template.spec!;
    const at = `${where}`;
    if (podSpec.automountServiceAccountToken !== false) problems.push(`${at}: automountServiceAccountToken should be false`);
    if (podSpec.hostNetwork || podSpec.hostPID || podSpec.hostIPC) problems.push(`${at}: uses the host's namespaces`);
    const podSecurity = podSpec.securityContext ?? {};
    const volumes = new Map((podSpec.volumes ?? []).map((volume) => [volume.name, volume]));
    let firstEnv: Record<string, string> = {};
    for (const container of [...(podSpec.initContainers ?? []), ...podSpec.containers]) {
      const c = `${at} container ${container.name}`;
      const image = container.image ?? '';
      images.add(image);
      if (!isPinnedImage(image)) problems.push(`${c}: image ${image || '(none)'} is not pinned to a version tag or a sha256 digest`);
      if (container.command !== undefined) {
        problems.push(`${c}: sets command, which replaces the image's ENTRYPOINT (tini); set args only`);
      }
      if (container.imagePullPolicy === 'Always' && !isPinnedImage(image)) problems.push(`${c}: pulls a moving tag`);

      const requests = container.resources?.requests ?? {};
      const limits = container.resources?.limits ?? {};
      for (const resource of ['cpu', 'memory']) {
        const request = requests[resource];
        const limit = limits[resource];
        if (request === undefined) problems.push(`${c}: no ${resource} request`);
        if (limit === undefined) problems.push(`${c}: no ${resource} limit`);
        if (request !== undefined && limit !== undefined && parseQuantity(request) > parseQuantity(limit)) {
          problems.push(`${c}: ${resource} request exceeds its limit`);
        }
      }

      const security = container.securityContext ?? {};
      const runAsNonRoot = security.runAsNonRoot ?? podSecurity.runAsNonRoot;
      const runAsUser = security.runAsUser ?? podSecurity.runAsUser;
      const seccomp = security.seccompProfile?.type ?? podSecurity.seccompProfile?.type;
      if (runAsNonRoot !== true) problems.push(`${c}: runAsNonRoot is not true`);
      if (typeof runAsUser !== 'number' || runAsUser <= 0) problems.push(`${c}: runAsUser must be a non-root numeric uid`);
      if (security.allowPrivilegeEscalation !== false) problems.push(`${c}: allowPrivilegeEscalation is not false`);
      if (security.privileged === true) problems.push(`${c}: privileged`);
      if (security.readOnlyRootFilesystem !== true) problems.push(`${c}: readOnlyRootFilesystem is not true`);
      if (!(security.capabilities?.drop ?? []).includes('ALL')) problems.push(`${c}: does not drop ALL capabilities`);
      if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost') problems.push(`${c}: no RuntimeDefault seccomp profile`);
      for (const mount of container.volumeMounts ?? []) {
        if (!volumes.has(mount.name)) problems.push(`${c}: mounts unknown volume ${mount.name}`);
      }
      if (security.readOnlyRootFilesystem === true) {
        const tmp = (container.volumeMounts ?? []).find((mount) => mount.mountPath === '/tmp');
        if (!tmp || !volumes.get(tmp.name)?.emptyDir) problems.push(`${c}: read-only root filesystem but no emptyDir at /tmp`);
      }

      // Env references resolve (ConfigMaps in the output, Secrets created out of band) into the
      // environment this container starts with.
      const env: Record<string, string> = {};
      const secretData = (name: string): Record<string, string> | undefined =>
        EXTERNAL_SECRETS[name]
          ? Object.fromEntries(EXTERNAL_SECRETS[name].map((key) => [key, SAMPLE_SECRET_DATA[name]?.[key] ?? '']))
          : operatorSecrets.get(name);
      for (const source of container.envFrom ?? []) {
        const prefix = source.prefix ?? '';
        if (source.configMapRef) {
          const data = configMapData.get(source.configMapRef.name ?? '');
          if (!data && !source.configMapRef.optional) problems.push(`${c}: envFrom missing ConfigMap ${source.configMapRef.name}`);
          for (const [key, value] of Object.entries(data ?? {})) env[prefix + key] = value;
        }
        if (source.secretRef) {
          const data = secretData(source.secretRef.name ?? '');
          if (!data) problems.push(`${c}: envFrom Secret ${source.secretRef.name} is not one of the Secrets the docs create`);
          for (const [key, value] of Object.entries(data ?? {})) env[prefix + key] = value;
        }
      }
      for (const variable of container.env ?? []) {
        const cmRef = variable.valueFrom?.configMapKeyRef;
        const secretRef = variable.valueFrom?.secretKeyRef;
        if (cmRef) {
          const value = configMapData.get(cmRef.name ?? '')?.[cmRef.key];
          if (value === undefined && !cmRef.optional)
            problems.push(`${c}: ${variable.name} refers to missing ConfigMap key ${cmRef.name}/${cmRef.key}`);
          if (value !== undefined) env[variable.name] = value;
        } else if (secretRef) {
          const value = secretData(secretRef.name ?? '')?.[secretRef.key];
          if (value === undefined && !secretRef.optional)
            problems.push(`${c}: ${variable.name} refers to missing Secret key ${secretRef.name}/${secretRef.key}`);
          if (value !== undefined) env[variable.name] = value;
        } else if (variable.valueFrom === undefined) {
          env[variable.name] = variable.value ?? '';
          if ((SECRET_VARIABLES as readonly string[]).includes(variable.name))
            problems.push(`${c}: ${variable.name} is set inline; take it from the Secret`);
        }
      }
      for (const variable of DEPLOYED_VARIABLES) if (!(variable in env)) problems.push(`${c}: ${variable} is not set`);
      for (const variable of Object.keys(env))
        if (!known.has(variable)) problems.push(`${c}: ${variable} is not a variable packages/config reads`);
      if (env.NODE_ENV !== 'production') problems.push(`${c}: NODE_ENV is ${env.NODE_ENV}, not production`);
      // A pod is reached on its own IP (Service, probes): a loopback-only listener would never be ready.
      if (env.BIND_ADDRESS !== '0.0.0.0' && env.BIND_ADDRESS !== '::')
        problems.push(`${c}: BIND_ADDRESS is ${env.BIND_ADDRESS ?? 'unset'}; a pod must listen on 0.0.0.0`);
      problems.push(...configProblems(env, c));
      if (container === podSpec.containers[0]) firstEnv = env;
    }
    workloads.push({
      where,
      kind,
      name: obj.metadata!.name!,
      podSpec,
      podLabels: obj.spec!.template.metadata?.labels ?? {},
      env: firstEnv,
    });
  }
  if (images.size > 1) problems.push(`${render.name}: the containers use ${images.size} images (${[...images].join(', ')}), not one`);
  const configOf = (workload: Workload | undefined): KasaConfig | undefined => {
    try {
      return workload ? loadConfig(workload.env) : undefined;
    } catch {
      return undefined; // Reported above.
    }
  };

  // 6. Deployments: the four services, their args, ports, probes, grace, selectors, replicas.
  const hpasOf = (name: string) =>
    hpas.filter(({ obj }) => obj.spec?.scaleTargetRef.kind === 'Deployment' && obj.spec.scaleTargetRef.name === name);
  const scaledObjectsOf = (name: string) =>
    scaledObjects.filter(
      ({ obj }) => (obj.spec.scaleTargetRef.kind ?? 'Deployment') === 'Deployment' && obj.spec.scaleTargetRef.name === name,
    );
  const effectiveReplicas = (deployment: IDeployment): number => {
    const name = deployment.metadata!.name!;
    const hpa = hpasOf(name)[0]?.obj;
    if (hpa) return hpa.spec?.minReplicas ?? 1;
    const scaled = scaledObjectsOf(name)[0]?.obj;
    if (scaled) return scaled.spec.minReplicaCount ?? 0;
    return deployment.spec?.replicas ?? 1;
  };

  for (const service of APP_SERVICES) {
    const name = `kasa-${service}`;
    const found = deployments.find(({ obj }) => obj.metadata!.name === name);
    if (!found) {
      problems.push(`${render.name}: no Deployment ${name}`);
      continue;
    }
    const { where, obj } = found;
    const podSpec = obj.spec!.template.spec!;
    const container = podSpec.containers.find((c) => sameList(c.args, serviceCommand(service)));
    if (!container) {
      problems.push(`${where}: no container runs args ${serviceCommand(service).join(' ')}`);
      continue;
    }
    const workload = workloads.find((w) => w.kind === 'Deployment' && w.name === name)!;
    const port = SERVICE_PORTS[service];
    if (!(container.ports ?? []).some((p) => p.containerPort === port)) problems.push(`${where}: no containerPort ${port}`);
    const portValue = workload.env[PORT_VARIABLES[service]];
    if (portValue !== String(port)) problems.push(`${where}: ${PORT_VARIABLES[service]} is ${portValue}, the container port is ${port}`);

    const liveness = httpProbe(container.livenessProbe);
    const readiness = httpProbe(container.readinessProbe);
    const startup = httpProbe(container.startupProbe);
    if (liveness?.path !== '/healthz') problems.push(`${where}: livenessProbe is not GET /healthz`);
    if (readiness?.path !== '/readyz') problems.push(`${where}: readinessProbe is not GET /readyz`);
    for (const [kind, probe] of [
      ['liveness', liveness],
      ['readiness', readiness],
      ['startup', startup],
    ] as const) {
      if (probe && portOf(container, probe.port) !== port)
        problems.push(`${where}: ${kind} probe port ${probe.port} is not the service port ${port}`);
    }

    // SIGTERM comes after preStop; the service then takes up to its shutdown grace; the kubelet must wait longer.
    const grace = shutdownGraceSeconds(workload.env);
    const needed = preStopSeconds(container) + grace + STOP_MARGIN_SECONDS;
    const given = podSpec.terminationGracePeriodSeconds ?? 30;
    if (given < needed) {
      problems.push(
        `${where}: terminationGracePeriodSeconds ${given} < preStop ${preStopSeconds(container)}s + shutdown grace ${grace}s + ${STOP_MARGIN_SECONDS}s`,
      );
    }

    const expected = EXPECTED_REPLICAS[service];
    if (effectiveReplicas(obj) !== expected)
      problems.push(`${where}: runs ${effectiveReplicas(obj)} replicas at rest, expected ${expected}`);
    const owned = hpasOf(name).length + scaledObjectsOf(name).length;
    if (owned > 0 && obj.spec?.replicas !== undefined) problems.push(`${where}: sets replicas although an autoscaler owns them`);
    if (owned > 1) problems.push(`${where}: ${owned} autoscalers target it; they would fight`);
    const scaling = SCALED_BY[service];
    if (scaling === 'cpu-hpa') {
      const cpu = hpasOf(name)[0]?.obj.spec?.metrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (!cpu || cpu.resource!.target.type !== 'Utilization' || cpu.resource!.target.averageUtilization === undefined) {
        problems.push(`${where}: no autoscaling/v2 HPA scales it on CPU utilization`);
      }
    } else if (scaling === 'keda' && scaledObjectsOf(name).length !== 1) {
      problems.push(`${where}: no KEDA ScaledObject scales it`);
    }
    if (scaling !== 'keda' && scaledObjectsOf(name).length > 0) problems.push(`${where}: scaled by KEDA, expected ${scaling}`);
    if (expected > 1) {
      const update = obj.spec?.strategy?.rollingUpdate;
      if (obj.spec?.strategy?.type === 'Recreate' || update?.maxUnavailable === undefined || String(update.maxUnavailable) !== '0') {
        problems.push(`${where}: rollingUpdate.maxUnavailable is not 0 (old pods must keep serving until new ones are ready)`);
      }
    }
    if (!services.some(({ obj: svc }) => matches(svc.spec?.selector, obj.spec!.template.metadata?.labels))) {
      problems.push(`${where}: no Service selects its pods`);
    }
  }
  for (const { where, obj } of deployments) {
    const selector = obj.spec!.selector.matchLabels;
    if (!matches(selector, obj.spec!.template.metadata?.labels)) problems.push(`${where}: selector does not match the pod template labels`);
    if ((obj.spec!.selector.matchExpressions ?? []).length > 0) problems.push(`${where}: use matchLabels only`);
    for (const { obj: other } of deployments) {
      if (other !== obj && matches(selector, other.spec!.template.metadata?.labels)) {
        problems.push(`${where}: selector also matches the pods of ${other.metadata!.name}`);
      }
    }
  }
  const worker = deployments.find(({ obj }) => obj.metadata!.name === 'kasa-webhook-worker')?.obj;
  if (worker && (worker.spec!.template.spec!.terminationGracePeriodSeconds ?? 30) < 60) {
    problems.push('kasa-webhook-worker: terminationGracePeriodSeconds under 60 cuts in-flight deliveries short');
  }

  // 7. Services select pods and target ports those pods have.
  for (const { where, obj } of services) {
    const targets = workloads.filter((w) => matches(obj.spec?.selector, w.podLabels));
    if (targets.length === 0) {
      problems.push(`${where}: selector matches no pod template`);
      continue;
    }
    for (const port of obj.spec?.ports ?? []) {
      const target = port.targetPort ?? port.port;
      for (const workload of targets) {
        if (!workload.podSpec.containers.some((c) => portOf(c, target) !== undefined)) {
          problems.push(`${where}: targetPort ${target} is not a container port of ${workload.name}`);
        }
      }
    }
  }

  // 8. LEDGER_URL reaches the ledger through its Service, for every container that has it.
  for (const workload of workloads) {
    const ledgerUrl = workload.env.LEDGER_URL;
    const target = ledgerUrl === undefined ? undefined : hostAndPort(ledgerUrl);
    const ledgerService = services.find(({ obj }) => obj.metadata!.name === target?.host)?.obj;
    const ledgerDeployment = deployments.find(({ obj }) => obj.metadata!.name === 'kasa-ledger')?.obj;
    if (!ledgerService || !(ledgerService.spec?.ports ?? []).some((p) => p.port === target?.port)) {
      problems.push(`${workload.where}: LEDGER_URL ${ledgerUrl} does not name a Service port in ${NAMESPACE}`);
    } else if (!ledgerDeployment || !matches(ledgerService.spec?.selector, ledgerDeployment.spec!.template.metadata?.labels)) {
      problems.push(`${workload.where}: LEDGER_URL's Service ${ledgerService.metadata!.name} does not select the ledger pods`);
    }
  }

  // 9. HPAs aim at Deployments whose pods request what they scale on.
  for (const { where, obj } of hpas) {
    const ref = obj.spec!.scaleTargetRef;
    const target = deployments.find(({ obj: d }) => d.metadata!.name === ref.name)?.obj;
    if (ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !target) {
      problems.push(`${where}: scaleTargetRef ${ref.apiVersion}/${ref.kind}/${ref.name} is not a Deployment here`);
    }
    const min = obj.spec!.minReplicas ?? 1;
    if (min < 1 || obj.spec!.maxReplicas < min) problems.push(`${where}: replicas range ${min}..${obj.spec!.maxReplicas} is invalid`);
    for (const metric of obj.spec!.metrics ?? []) {
      if (metric.type === 'Resource' && metric.resource && target) {
        const resource = metric.resource.name;
        if (target.spec!.template.spec!.containers.some((c) => c.resources?.requests?.[resource] === undefined)) {
          problems.push(`${where}: scales on ${resource} utilization but the pods request no ${resource}`);
        }
      }
    }
  }

  // 10. KEDA: the worker scales on the BullMQ wait list of the webhook queue, authenticated from a Secret, with
  // KEDA's trigger for the Redis the services use: `redis` for one Redis, `redis-cluster` on a Redis Cluster
  // (REDIS_CLUSTER_NODES), whose seed nodes it reads as `addresses`; every Redis user agrees on which it is.
  const workerConfig = configOf(workloads.find((w) => w.name === 'kasa-webhook-worker'));
  const clusterNodesOf = (config: KasaConfig | undefined) => config?.redisClusterNodes?.map((n) => `${n.host}:${n.port}`).join(',') ?? null;
  const onCluster = clusterNodesOf(workerConfig) !== null;
  const redisTrigger = onCluster ? 'redis-cluster' : 'redis';
  for (const workload of workloads.filter((w) => ['kasa-gateway', 'kasa-ledger'].includes(w.name))) {
    if (clusterNodesOf(configOf(workload)) !== clusterNodesOf(workerConfig)) {
      problems.push(`${workload.where}: REDIS_CLUSTER_NODES differs from the webhook worker's (one Redis for every service)`);
    }
  }
  for (const { where, obj } of scaledObjects) {
    const ref = obj.spec.scaleTargetRef;
    const target = deployments.find(({ obj: d }) => d.metadata!.name === ref.name);
    if ((ref.kind ?? 'Deployment') !== 'Deployment' || (ref.apiVersion ?? 'apps/v1') !== 'apps/v1' || !target) {
      problems.push(`${where}: scaleTargetRef ${ref.apiVersion}/${ref.kind}/${ref.name} is not a Deployment here`);
    }
    const min = obj.spec.minReplicaCount ?? 0;
    const max = obj.spec.maxReplicaCount ?? 100;
    if (min < 1) problems.push(`${where}: minReplicaCount ${min} lets the worker scale to zero`);
    if (max < min) problems.push(`${where}: maxReplicaCount ${max} is below minReplicaCount ${min}`);
    const redis = obj.spec.triggers.filter((trigger) => trigger.type === redisTrigger);
    if (redis.length !== 1 || obj.spec.triggers.length !== 1)
      problems.push(`${where}: expected exactly one trigger, of type ${redisTrigger}`);
    for (const trigger of redis) {
      const expectedKey = workerConfig ? webhookWaitListKey(workerConfig.redisPrefix) : undefined;
      if (trigger.metadata.listName !== expectedKey) {
        problems.push(`${where}: listName ${trigger.metadata.listName} is not the webhook queue's wait list ${expectedKey}`);
      }
      if (!/^[1-9]\d*$/.test(trigger.metadata.listLength ?? '')) problems.push(`${where}: listLength is not a positive whole number`);
      const { address, addresses, host, hosts, addressFromEnv, addressesFromEnv, databaseIndex } = trigger.metadata;
      if (address || addresses || host || hosts || addressFromEnv || addressesFromEnv) {
        problems.push(`${where}: the Redis address belongs in the TriggerAuthentication's Secret`);
      }
      if (onCluster && databaseIndex !== undefined && databaseIndex !== '0') {
        problems.push(`${where}: databaseIndex ${databaseIndex} on a Redis Cluster, which has database 0 only`);
      }
      const authName = trigger.authenticationRef?.name;
      const auth = triggerAuths.find(
        ({ obj: a }) =>
          a.metadata?.name === authName && (trigger.authenticationRef?.kind ?? 'TriggerAuthentication') === 'TriggerAuthentication',
      );
      if (!auth) {
        problems.push(`${where}: authenticationRef ${authName} names no TriggerAuthentication here`);
        continue;
      }
      const refs = auth.obj.spec.secretTargetRef ?? [];
      for (const secretRef of refs) {
        if (!(EXTERNAL_SECRETS[secretRef.name] ?? []).includes(secretRef.key)) {
          problems.push(`${auth.where}: ${secretRef.parameter} reads ${secretRef.name}/${secretRef.key}, which the docs do not create`);
        }
      }
      for (const parameter of [onCluster ? 'addresses' : 'address', 'password']) {
        if (!refs.some((r) => r.parameter === parameter)) problems.push(`${auth.where}: no ${parameter} parameter`);
      }
    }
  }

  // 11. PDBs select one Deployment's pods and leave room for a drain; every replicated Deployment has one.
  for (const { where, obj } of pdbs) {
    const selected = deployments.filter(({ obj: d }) => matches(obj.spec?.selector?.matchLabels, d.spec!.template.metadata?.labels));
    if (selected.length !== 1) {
      problems.push(`${where}: selects the pods of ${selected.length} Deployments, not 1`);
      continue;
    }
    if ((obj.spec?.minAvailable !== undefined) === (obj.spec?.maxUnavailable !== undefined)) {
      problems.push(`${where}: set exactly one of minAvailable and maxUnavailable`);
    }
    const minAvailable = obj.spec?.minAvailable;
    const replicas = effectiveReplicas(selected[0]!.obj);
    if (typeof minAvailable === 'number' && minAvailable >= replicas) {
      problems.push(`${where}: minAvailable ${minAvailable} with ${replicas} replicas blocks every node drain`);
    }
    if (obj.spec?.maxUnavailable === 0 || obj.spec?.maxUnavailable === '0%')
      problems.push(`${where}: maxUnavailable 0 blocks every node drain`);
  }
  for (const { obj } of deployments) {
    if (effectiveReplicas(obj) < 2) continue;
    if (!pdbs.some(({ obj: pdb }) => matches(pdb.spec?.selector?.matchLabels, obj.spec!.template.metadata?.labels))) {
      problems.push(`${obj.metadata!.name}: replicated but has no PodDisruptionBudget`);
    }
  }

  // 12. The migrate Job: one per release (its name follows the image), same image as the services.
  const migrateJobs = jobs.filter(({ obj }) => obj.spec!.template.spec!.containers.some((c) => sameList(c.args, MIGRATE_COMMAND)));
  if (migrateJobs.length !== 1)
    problems.push(`${render.name}: ${migrateJobs.length} Jobs run args ${MIGRATE_COMMAND.join(' ')}, expected 1`);
  for (const { where, obj } of migrateJobs) {
    const image = obj.spec!.template.spec!.containers[0]!.image ?? '';
    const expectedName = migrateJobName(image);
    if (obj.metadata!.name !== expectedName) {
      problems.push(`${where}: named ${obj.metadata!.name}, expected ${expectedName} for image ${image} (one Job per release)`);
    }
    for (const { where: dWhere, obj: d } of deployments) {
      if (d.spec!.template.spec!.containers[0]?.image !== image) problems.push(`${dWhere}: image differs from the migrate Job's ${image}`);
    }
    if (obj.spec!.activeDeadlineSeconds === undefined) problems.push(`${where}: no activeDeadlineSeconds`);
    if (obj.spec!.ttlSecondsAfterFinished === undefined)
      problems.push(`${where}: no ttlSecondsAfterFinished (old releases' Jobs would pile up)`);
  }
  for (const { where, obj } of jobs) {
    const restart = obj.spec!.template.spec!.restartPolicy;
    if (restart !== 'Never' && restart !== 'OnFailure') problems.push(`${where}: a Job's restartPolicy must be Never or OnFailure`);
    if (obj.spec!.backoffLimit === undefined) problems.push(`${where}: no backoffLimit`);
  }

  // 13. Ingress: HTTPS hosts for the gateway and the console that match their public URLs; nothing else.
  for (const { where, obj } of ingresses) {
    for (const rule of obj.spec?.rules ?? []) {
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend.service;
        const svc = services.find(({ obj: s }) => s.metadata!.name === backend?.name)?.obj;
        if (!backend || !svc) {
          problems.push(`${where}: backend ${backend?.name} is not a Service here`);
          continue;
        }
        const portOk = (svc.spec?.ports ?? []).some((p) =>
          backend.port?.name !== undefined ? p.name === backend.port.name : p.port === backend.port?.number,
        );
        if (!portOk) problems.push(`${where}: backend port ${JSON.stringify(backend.port)} is not a port of Service ${svc.metadata!.name}`);
        if (!['kasa-gateway', 'kasa-console'].includes(backend.name))
          problems.push(`${where}: exposes ${backend.name}; only the gateway and the console are public`);
      }
    }
  }
  for (const [service, publicUrl] of Object.entries(PUBLIC_URL_OF) as Array<[AppService, (config: KasaConfig) => string]>) {
    const serviceName = `kasa-${service}`;
    const rules = ingresses.flatMap(({ where, obj }) =>
      (obj.spec?.rules ?? [])
        .filter((rule) => (rule.http?.paths ?? []).some((path) => path.backend.service?.name === serviceName))
        .map((rule) => ({ where, ingress: obj, rule })),
    );
    if (rules.length !== 1) {
      problems.push(`${render.name}: ${rules.length} Ingress rules route to ${serviceName}, expected 1`);
      continue;
    }
    const { where, ingress, rule } = rules[0]!;
    if (!ingress.spec?.ingressClassName) problems.push(`${where}: no ingressClassName`);
    const host = rule.host;
    const tls = (ingress.spec?.tls ?? []).find((entry) => host !== undefined && (entry.hosts ?? []).includes(host));
    if (!host) problems.push(`${where}: the rule for ${serviceName} has no host`);
    else if (!tls?.secretName) problems.push(`${where}: no TLS secret covers ${host}`);
    const config = configOf(workloads.find((w) => w.name === serviceName));
    const url = config ? hostAndPort(publicUrl(config)) : undefined;
    if (!url || url.protocol !== 'https:') problems.push(`${where}: the public URL of ${service} is not https`);
    else if (url.host !== host) problems.push(`${where}: host ${host} differs from ${service}'s public URL host ${url.host}`);
    const paths = (rule.http?.paths ?? []).filter((path) => path.backend.service?.name === serviceName);
    const routes = (request: string): boolean => paths.some((path) => pathRoutes(path.path ?? '/', path.pathType, request));
    if (service === 'gateway') {
      for (const request of GATEWAY_PUBLIC_PATHS) if (!routes(request)) problems.push(`${where}: does not route ${request} to the gateway`);
      for (const request of INTERNAL_PATHS) if (routes(request)) problems.push(`${where}: publishes the gateway's ${request}`);
    } else if (!routes('/')) {
      problems.push(`${where}: does not route / to the ${service}`);
    }
  }

  // 14. CloudNativePG: a Cluster with synchronous standbys, and Kasa's PostgreSQL users on its -rw Service.
  problems.push(
    ...postgresClusterProblems(
      clusters,
      workloads.map((workload) => {
        const variable = workload.podSpec.containers[0]?.env?.find((entry) => entry.name === 'DATABASE_URL');
        const ref = variable?.valueFrom?.secretKeyRef;
        return {
          where: workload.where,
          name: workload.name,
          databaseUrl: ref ? { secret: ref.name, key: ref.key } : variable ? ('inline' as const) : ('envFrom' as const),
        };
      }),
    ),
  );

  // 15. NetworkPolicies.
  problems.push(
    ...networkPolicyProblems(
      policies.map(({ obj }) => obj),
      workloads,
    ),
  );

  return problems;
}

// ---------------------------------------------------------------------------------------------------
// NetworkPolicies: who can reach whom.

/** Pods and addresses outside the namespace that the policies speak about. */
export const OUTSIDE = {
  ingressController: {
    kind: 'pod',
    name: 'the ingress controller',
    namespace: 'ingress-nginx',
    namespaceLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' },
    labels: { 'app.kubernetes.io/name': 'ingress-nginx', 'app.kubernetes.io/component': 'controller' },
    ports: [],
  },
  clusterDns: {
    kind: 'pod',
    name: 'cluster DNS',
    namespace: 'kube-system',
    namespaceLabels: { 'kubernetes.io/metadata.name': 'kube-system' },
    labels: { 'k8s-app': 'kube-dns' },
    ports: [
      { name: 'dns', containerPort: 53, protocol: 'UDP' },
      { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
    ],
  },
  otherPod: {
    kind: 'pod',
    name: 'a pod in another namespace',
    namespace: 'default',
    namespaceLabels: { 'kubernetes.io/metadata.name': 'default' },
    labels: { app: 'something-else' },
    ports: [],
  },
  postgres: { kind: 'address', name: 'PostgreSQL', ip: '10.40.0.5' },
  redis: { kind: 'address', name: 'Redis', ip: '10.40.0.6' },
  partner: { kind: 'address', name: 'a partner on the internet', ip: '203.0.113.10' },
  partnerV6: { kind: 'address', name: 'a partner on the internet (IPv6)', ip: '2001:db8::10' },
  metadata: { kind: 'address', name: 'the cloud metadata endpoint', ip: '169.254.169.254' },
  privateHost: { kind: 'address', name: 'a private address', ip: '192.168.1.10' },
} as const satisfies Record<string, PodPeer | AddressPeer>;

const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;

/** Which services may reach PostgreSQL and Redis, and which one the internet (the code decides this). */
const USES_POSTGRES = new Set(['ledger', 'webhook-worker', 'migrate']);
const USES_REDIS = new Set(['gateway', 'ledger', 'webhook-worker']);
const REACHES_LEDGER = new Set(['gateway', 'console']);
const REACHED_FROM_INGRESS = new Set(['gateway', 'console']);

export function networkPolicyProblems(
  policies: INetworkPolicy[],
  workloads: Array<Pick<Workload, 'name' | 'podSpec' | 'podLabels' | 'env'>>,
): string[] {
  const problems: string[] = [];
  const pods: Array<PodPeer & { component: string; env: Record<string, string> }> = workloads.map((w) => ({
    kind: 'pod',
    name: w.name,
    namespace: NAMESPACE,
    namespaceLabels: { 'kubernetes.io/metadata.name': NAMESPACE },
    labels: w.podLabels,
    ports: w.podSpec.containers.flatMap((c) => c.ports ?? []),
    component: w.podLabels['app.kubernetes.io/component'] ?? w.name,
    env: w.env,
  }));
  const may = (from: PodPeer | AddressPeer, to: PodPeer | AddressPeer, port: number, protocol: Protocol = 'TCP'): boolean =>
    connectionAllowed(policies, from, to, port, protocol);
  const expect = (
    allowed: boolean,
    from: PodPeer | AddressPeer,
    to: PodPeer | AddressPeer,
    port: number,
    protocol: Protocol = 'TCP',
  ): void => {
    const actual = may(from, to, port, protocol);
    if (actual !== allowed)
      problems.push(`NetworkPolicy: ${from.name} ${actual ? 'can' : 'cannot'} reach ${to.name} on ${protocol} ${port}`);
  };

  for (const pod of pods) {
    for (const type of ['Ingress', 'Egress'] as const) {
      if (!isolated(policies, pod, type)) problems.push(`NetworkPolicy: ${pod.name} is not isolated for ${type} (no default deny)`);
    }
    expect(true, pod, OUTSIDE.clusterDns, 53, 'UDP');
    expect(true, pod, OUTSIDE.clusterDns, 53, 'TCP');
    expect(USES_POSTGRES.has(pod.component), pod, OUTSIDE.postgres, POSTGRES_PORT);
    expect(USES_REDIS.has(pod.component), pod, OUTSIDE.redis, REDIS_PORT);
    const worker = pod.component === 'webhook-worker';
    expect(worker, pod, OUTSIDE.partner, 443);
    expect(worker, pod, OUTSIDE.partnerV6, 443);
    expect(false, pod, OUTSIDE.partner, 80);
    expect(false, pod, OUTSIDE.metadata, 80);
    expect(false, pod, OUTSIDE.metadata, 443);
    expect(false, pod, OUTSIDE.privateHost, 443);
    expect(false, pod, OUTSIDE.otherPod, 443);

    for (const port of pod.ports) {
      expect(REACHED_FROM_INGRESS.has(pod.component), OUTSIDE.ingressController, pod, port.containerPort);
      expect(false, OUTSIDE.otherPod, pod, port.containerPort);
      for (const other of pods) {
        if (other === pod) continue;
        const allowed = pod.component === 'ledger' && REACHES_LEDGER.has(other.component);
        expect(allowed, other, pod, port.containerPort);
      }
    }

    // Every port a webhook URL may name is open to public addresses (and only the worker delivers).
    if (worker) {
      let config: KasaConfig | undefined;
      try {
        config = loadConfig(pod.env);
      } catch {
        config = undefined;
      }
      for (const range of config?.webhookAllowedPorts ?? []) {
        for (const port of new Set([range.from, range.to])) {
          if (!may(pod, OUTSIDE.partner, port)) {
            problems.push(`NetworkPolicy: WEBHOOK_ALLOWED_PORTS allows port ${port} but ${pod.name} cannot reach the internet on it`);
          }
        }
      }
    }
  }
  if (!pods.some((pod) => pod.component === 'ledger')) problems.push('NetworkPolicy: no ledger pods to check');
  return problems;
}

// ---------------------------------------------------------------------------------------------------
// docs/operations.md: the deployment section takes an operator from an empty cluster to running.

/** Keys of `kubectl ... create secret generic <name>` in `text`, or undefined when there is no such command. */
export function createdSecretKeys(text: string, name: string): string[] | undefined {
  const start = text.search(new RegExp(`create secret generic ${name}(?![-\\w])`));
  if (start < 0) return undefined;
  // The command runs over continuation lines (ending in \) up to the first line that does not continue.
  const lines = text.slice(start).split('\n');
  const command: string[] = [];
  for (const line of lines) {
    command.push(line);
    if (!/\\\s*$/.test(line)) break;
  }
  return [...command.join('\n').matchAll(/--from-(?:literal|file)=([A-Za-z_][A-Za-z0-9_]*)=/g)].map((match) => match[1]!);
}

export function operationsDocProblems(text: string, tlsSecrets: string[]): string[] {
  const problems: string[] = [];
  const start = text.search(/^## Deploying/m);
  if (start < 0) return ['docs/operations.md has no "## Deploying" section'];
  const rest = text.slice(start + 1);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  for (const [name, keys] of Object.entries(EXTERNAL_SECRETS)) {
    const created = createdSecretKeys(section, name);
    if (!created) {
      problems.push(`Deploying: no "kubectl -n ${NAMESPACE} create secret generic ${name}" command`);
      continue;
    }
    const missing = keys.filter((key) => !created.includes(key));
    const extra = created.filter((key) => !keys.includes(key));
    if (missing.length > 0) problems.push(`Deploying: ${name} is created without ${missing.join(', ')}`);
    if (extra.length > 0) problems.push(`Deploying: ${name} is created with keys nothing reads: ${extra.join(', ')}`);
  }
  for (const secret of tlsSecrets)
    if (!section.includes(secret)) problems.push(`Deploying: does not say where the TLS Secret ${secret} comes from`);
  const required: Array<[RegExp, string]> = [
    [/kubectl apply -f k8s\/base\/namespace\.yaml/, 'create the namespace (kubectl apply -f k8s/base/namespace.yaml)'],
    [/kubectl apply -k k8s\/overlays\/production/, 'apply the overlay (kubectl apply -k k8s/overlays/production)'],
    [/wait --for=condition=complete job\/kasa-migrate-/, 'wait for the migrate Job'],
    [/rollout status/, 'watch the rollouts (kubectl rollout status)'],
    [/\/readyz/, 'say how readiness (/readyz) is checked'],
    [/KEDA/, 'install KEDA'],
    [/kustomize build|kubectl kustomize/, 'show how to preview the manifests'],
  ];
  for (const [pattern, what] of required) if (!pattern.test(section)) problems.push(`Deploying: does not ${what}`);
  return problems;
}

/** The TLS Secret names the Ingresses of a render use. */
export function tlsSecretNames(render: Render): string[] {
  return render.docs
    .filter((doc) => doc.kind === 'Ingress')
    .flatMap((doc) => ((doc.spec?.tls ?? []) as Array<{ secretName?: string }>).map((tls) => tls.secretName ?? ''))
    .filter((name) => name !== '');
}
