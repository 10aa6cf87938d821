/**
 * Checks for k8s/: every manifest against the Kubernetes API schemas (npm `kubernetes-models`), then how
 * the manifests fit together (kustomization, selectors, ports, probes, env references, HPAs, PDBs).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
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
  APP_SERVICES,
  DEPLOYED_VARIABLES,
  MIGRATE_COMMAND,
  PORT_VARIABLES,
  SECRET_VARIABLES,
  SERVICE_PORTS,
  configProblems,
  configVariableNames,
  parseQuantity,
  repoRoot,
  sameList,
  secretValueProblems,
  serviceCommand,
  type AppService,
} from './common.js';

export const PLACEHOLDER = 'REPLACE_ME';
export const NAMESPACE = 'kasa';
export const QUEUE_METRIC = 'kasa_webhook_queue_waiting';

/** Replicas each service runs with at rest: a fixed count, or the HPA's minReplicas. */
const EXPECTED_REPLICAS: Record<AppService, number> = { gateway: 2, ledger: 2, 'webhook-worker': 2, console: 1 };

export interface ManifestFile {
  file: string;
  docs: unknown[];
}

export interface ManifestSet {
  files: ManifestFile[];
  kustomization: unknown;
}

/** Every YAML document of a (multi-document) file; empty documents are skipped, syntax errors throw. */
export function parseManifests(text: string, file = '(text)'): unknown[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((error) => error.message).join('; ')}`);
      return doc.toJS() as unknown;
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

export function loadManifestSet(dir = resolve(repoRoot, 'k8s')): ManifestSet {
  const names = readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort();
  const files: ManifestFile[] = [];
  let kustomization: unknown;
  for (const name of names) {
    const text = readFileSync(join(dir, name), 'utf8');
    if (name === 'kustomization.yaml' || name === 'kustomization.yml') {
      kustomization = parseManifests(text, name)[0];
    } else {
      files.push({ file: name, docs: parseManifests(text, name) });
    }
  }
  return { files, kustomization };
}

// ---------------------------------------------------------------------------------------------------
// Schema validation through kubernetes-models.

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
};

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeKey(doc: Record<string, unknown>): string {
  return `${String(doc.apiVersion)}/${String(doc.kind)}`;
}

/** Schema problems of one manifest: an unknown apiVersion/kind, or what kubernetes-models rejects. */
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
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '') {
    return [`${where}: metadata.name is missing`];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------------
// Cross-manifest rules.

interface Workload {
  where: string;
  name: string;
  podSpec: IPodSpec;
  podLabels: Record<string, string>;
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

function decodeSecret(secret: ISecret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(secret.data ?? {})) out[key] = Buffer.from(value, 'base64').toString('utf8');
  for (const [key, value] of Object.entries(secret.stringData ?? {})) out[key] = value;
  return out;
}

/** Valid stand-ins for the Secret's placeholders, to show the configuration works once they are replaced. */
const SAMPLE_SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgresql://kasa:sample@db.internal:5432/kasa',
  REDIS_URL: 'redis://redis.internal:6379',
  INTERNAL_TOKEN: 'sample-internal-token-0123456789abcdef',
  OPS_BOOTSTRAP_TOKEN: 'sample-ops-token-0123456789abcdef',
  CURSOR_SIGNING_KEY: 'sample-cursor-key-0123456789abcdef',
  SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};

function hostAndPort(url: string): { host: string; port: number } | undefined {
  try {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port) };
  } catch {
    return undefined;
  }
}

/** Every rule k8s/ must meet; [] when it does. */
export function k8sProblems(set: ManifestSet): string[] {
  const problems: string[] = [];

  // 1. Each document is a valid Kubernetes object of a kind Kasa uses.
  const docs: Array<{ where: string; doc: Record<string, unknown> }> = [];
  for (const { file, docs: fileDocs } of set.files) {
    fileDocs.forEach((doc, index) => {
      const where = `${file}#${index + 1}`;
      const found = manifestSchemaProblems(doc, where);
      problems.push(...found);
      if (found.length === 0) docs.push({ where, doc: doc as Record<string, unknown> });
    });
  }

  // 2. The kustomization lists exactly the manifest files and sets the namespace and the image.
  const kustomization = isObject(set.kustomization) ? set.kustomization : {};
  if (kustomization.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || kustomization.kind !== 'Kustomization') {
    problems.push('kustomization.yaml: not a kustomize.config.k8s.io/v1beta1 Kustomization');
  }
  const resources = Array.isArray(kustomization.resources) ? kustomization.resources.map(String) : [];
  const files = set.files.map((f) => f.file);
  for (const file of files) if (!resources.includes(file)) problems.push(`kustomization.yaml: does not list ${file}`);
  for (const resource of resources) if (!files.includes(resource)) problems.push(`kustomization.yaml: lists missing ${resource}`);
  if (new Set(resources).size !== resources.length) problems.push('kustomization.yaml: lists a file twice');
  if (kustomization.namespace !== NAMESPACE) problems.push(`kustomization.yaml: namespace is not ${NAMESPACE}`);
  const images = Array.isArray(kustomization.images) ? kustomization.images.filter(isObject) : [];
  const imageName = typeof images[0]?.name === 'string' ? images[0].name : undefined;
  if (images.length !== 1 || imageName === undefined) problems.push("kustomization.yaml: should set exactly one image (Kasa's)");

  // 3. Names, namespaces.
  const seen = new Set<string>();
  for (const { where, doc } of docs) {
    const metadata = doc.metadata as { name: string; namespace?: string };
    const id = `${String(doc.kind)}/${metadata.name}`;
    if (seen.has(id)) problems.push(`${where}: duplicate ${id}`);
    seen.add(id);
    if (doc.kind === 'Namespace') {
      if (metadata.name !== NAMESPACE) problems.push(`${where}: namespace is not ${NAMESPACE}`);
    } else if (metadata.namespace !== NAMESPACE) {
      problems.push(`${where}: ${id} is not in namespace ${NAMESPACE}`);
    }
  }
  if (!docs.some(({ doc }) => doc.kind === 'Namespace')) problems.push(`no Namespace ${NAMESPACE}`);

  const ofKind = <T>(kind: string): Array<{ where: string; obj: T }> =>
    docs.filter(({ doc }) => doc.kind === kind).map(({ where, doc }) => ({ where, obj: doc as T }));
  const configMaps = ofKind<IConfigMap>('ConfigMap');
  const secrets = ofKind<ISecret>('Secret');
  const deployments = ofKind<IDeployment>('Deployment');
  const jobs = ofKind<IJob>('Job');
  const services = ofKind<IService>('Service');
  const hpas = ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
  const pdbs = ofKind<IPodDisruptionBudget>('PodDisruptionBudget');

  const configMapData = new Map(configMaps.map(({ obj }) => [obj.metadata!.name!, obj.data ?? {}]));
  const secretData = new Map(secrets.map(({ obj }) => [obj.metadata!.name!, decodeSecret(obj)]));

  // 4. Secrets hold only clearly marked placeholders; the ConfigMap holds no secret.
  for (const { where, obj } of secrets) {
    for (const [key, value] of Object.entries(decodeSecret(obj))) {
      if (value !== PLACEHOLDER) problems.push(`${where}: ${key} is not the placeholder ${PLACEHOLDER} (no real secret in git)`);
    }
  }
  const secretKeys = new Set([...secretData.values()].flatMap((data) => Object.keys(data)));
  for (const variable of SECRET_VARIABLES) {
    if (!secretKeys.has(variable)) problems.push(`no Secret has ${variable}`);
  }
  for (const { where, obj } of configMaps) {
    for (const [key, value] of Object.entries(obj.data ?? {})) {
      if ((SECRET_VARIABLES as readonly string[]).includes(key)) problems.push(`${where}: ${key} is a secret; it belongs in the Secret`);
      problems.push(...secretValueProblems(key, value, () => false, where));
    }
  }

  // 5. Pods: one image, resources, security, volumes, env references, configuration.
  const workloads: Workload[] = [
    ...deployments.map(({ where, obj }) => ({
      where,
      name: obj.metadata!.name!,
      podSpec: obj.spec!.template.spec!,
      podLabels: obj.spec!.template.metadata?.labels ?? {},
    })),
    ...jobs.map(({ where, obj }) => ({
      where,
      name: obj.metadata!.name!,
      podSpec: obj.spec!.template.spec!,
      podLabels: obj.spec!.template.metadata?.labels ?? {},
    })),
  ];
  const known = configVariableNames();
  for (const { where, name, podSpec } of workloads) {
    const at = `${where} (${name})`;
    if (podSpec.automountServiceAccountToken !== false) problems.push(`${at}: automountServiceAccountToken should be false`);
    if (podSpec.hostNetwork || podSpec.hostPID || podSpec.hostIPC) problems.push(`${at}: uses the host's namespaces`);
    const podSecurity = podSpec.securityContext ?? {};
    const volumes = new Map((podSpec.volumes ?? []).map((volume) => [volume.name, volume]));
    for (const volume of podSpec.volumes ?? []) {
      if (volume.configMap && !configMapData.has(volume.configMap.name ?? '') && !volume.configMap.optional) {
        problems.push(`${at}: volume ${volume.name} refers to missing ConfigMap ${volume.configMap.name}`);
      }
      if (volume.secret && !secretData.has(volume.secret.secretName ?? '') && !volume.secret.optional) {
        problems.push(`${at}: volume ${volume.name} refers to missing Secret ${volume.secret.secretName}`);
      }
    }
    for (const container of [...(podSpec.initContainers ?? []), ...podSpec.containers]) {
      const c = `${at} container ${container.name}`;
      if (imageName !== undefined && (container.image ?? '').split(':')[0] !== imageName) {
        problems.push(`${c}: image ${container.image} is not the Kasa image "${imageName}" set in kustomization.yaml`);
      }

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
      // The image's USER is the name `node`; the kubelet can only verify runAsNonRoot for a numeric uid.
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
        if (!tmp || !volumes.get(tmp.name)?.emptyDir) {
          problems.push(`${c}: read-only root filesystem but no emptyDir at /tmp (tsx and npm write there)`);
        }
      }

      // Env references resolve, and yield the environment this container starts with.
      const env: Record<string, string> = {};
      for (const source of container.envFrom ?? []) {
        const prefix = source.prefix ?? '';
        if (source.configMapRef) {
          const data = configMapData.get(source.configMapRef.name ?? '');
          if (!data && !source.configMapRef.optional) problems.push(`${c}: envFrom missing ConfigMap ${source.configMapRef.name}`);
          for (const [key, value] of Object.entries(data ?? {})) env[prefix + key] = value;
        }
        if (source.secretRef) {
          const data = secretData.get(source.secretRef.name ?? '');
          if (!data && !source.secretRef.optional) problems.push(`${c}: envFrom missing Secret ${source.secretRef.name}`);
          for (const [key, value] of Object.entries(data ?? {})) env[prefix + key] = value;
        }
      }
      for (const variable of container.env ?? []) {
        const cmRef = variable.valueFrom?.configMapKeyRef;
        const secretRef = variable.valueFrom?.secretKeyRef;
        if (cmRef) {
          const value = configMapData.get(cmRef.name ?? '')?.[cmRef.key];
          if (value === undefined && !cmRef.optional) {
            problems.push(`${c}: ${variable.name} refers to missing ConfigMap key ${cmRef.name}/${cmRef.key}`);
          }
          if (value !== undefined) env[variable.name] = value;
        } else if (secretRef) {
          const value = secretData.get(secretRef.name ?? '')?.[secretRef.key];
          if (value === undefined && !secretRef.optional) {
            problems.push(`${c}: ${variable.name} refers to missing Secret key ${secretRef.name}/${secretRef.key}`);
          }
          if (value !== undefined) env[variable.name] = value;
        } else if (variable.valueFrom === undefined) {
          env[variable.name] = variable.value ?? '';
          if (SECRET_VARIABLES.includes(variable.name as (typeof SECRET_VARIABLES)[number])) {
            problems.push(`${c}: ${variable.name} is set inline; take it from the Secret`);
          }
        }
      }
      for (const variable of DEPLOYED_VARIABLES) {
        if (!(variable in env)) problems.push(`${c}: ${variable} is not set`);
      }
      for (const variable of Object.keys(env)) {
        if (!known.has(variable)) problems.push(`${c}: ${variable} is not a variable packages/config reads`);
      }
      // Once the placeholders are replaced the configuration loads in production mode...
      const replaced = Object.fromEntries(
        Object.entries(env).map(([key, value]) => [key, value === PLACEHOLDER ? (SAMPLE_SECRETS[key] ?? value) : value]),
      );
      problems.push(...configProblems({ ...replaced, NODE_ENV: 'production' }, c));
      // ...and any one placeholder left in place stops the process instead of running with it.
      for (const [key, value] of Object.entries(env)) {
        if (value !== PLACEHOLDER) continue;
        if (configProblems({ ...replaced, [key]: PLACEHOLDER, NODE_ENV: 'production' }, c).length === 0) {
          problems.push(`${c}: the service would start with ${key} still ${PLACEHOLDER}`);
        }
      }
    }
  }

  // 6. Deployments: the four services, their commands, ports, probes, selectors, replicas.
  const hpaTarget = (deploymentName: string): IHorizontalPodAutoscaler | undefined =>
    hpas.find(({ obj }) => obj.spec?.scaleTargetRef.kind === 'Deployment' && obj.spec.scaleTargetRef.name === deploymentName)?.obj;
  const effectiveReplicas = (deployment: IDeployment): number =>
    hpaTarget(deployment.metadata!.name!)?.spec?.minReplicas ?? deployment.spec?.replicas ?? 1;

  for (const service of APP_SERVICES) {
    const name = `kasa-${service}`;
    const found = deployments.find(({ obj }) => obj.metadata!.name === name);
    if (!found) {
      problems.push(`no Deployment ${name}`);
      continue;
    }
    const { where, obj } = found;
    const at = `${where} (${name})`;
    const container = obj.spec!.template.spec!.containers.find((c) => sameList(c.command ?? c.args, serviceCommand(service)));
    if (!container) {
      problems.push(`${at}: no container runs ${serviceCommand(service).join(' ')}`);
      continue;
    }
    const port = SERVICE_PORTS[service];
    if (!(container.ports ?? []).some((p) => p.containerPort === port)) problems.push(`${at}: no containerPort ${port}`);
    const portVariable = PORT_VARIABLES[service];
    const portValue = configMapData.get('kasa-config')?.[portVariable];
    if (portValue !== undefined && portValue !== String(port))
      problems.push(`${at}: ${portVariable} is ${portValue}, the container port is ${port}`);

    const liveness = httpProbe(container.livenessProbe);
    const readiness = httpProbe(container.readinessProbe);
    if (liveness?.path !== '/healthz') problems.push(`${at}: livenessProbe is not GET /healthz`);
    if (readiness?.path !== '/readyz') problems.push(`${at}: readinessProbe is not GET /readyz`);
    for (const [kind, probe] of [
      ['liveness', liveness],
      ['readiness', readiness],
      ['startup', httpProbe(container.startupProbe)],
    ] as const) {
      if (probe && portOf(container, probe.port) !== port) problems.push(`${at}: ${kind} probe port ${probe.port} is not the service port`);
    }

    const expected = EXPECTED_REPLICAS[service];
    if (effectiveReplicas(obj) !== expected) problems.push(`${at}: runs ${effectiveReplicas(obj)} replicas, expected ${expected}`);
    if (hpaTarget(name) && obj.spec?.replicas !== undefined) {
      problems.push(`${at}: sets replicas although an HPA owns them (every apply would reset the scale)`);
    }
    if (!services.some(({ obj: svc }) => matches(svc.spec?.selector, obj.spec!.template.metadata?.labels))) {
      problems.push(`${at}: no Service selects its pods`);
    }
  }
  for (const { where, obj } of deployments) {
    const at = `${where} (${obj.metadata!.name})`;
    const selector = obj.spec!.selector.matchLabels;
    if (!matches(selector, obj.spec!.template.metadata?.labels)) problems.push(`${at}: selector does not match the pod template labels`);
    if ((obj.spec!.selector.matchExpressions ?? []).length > 0) problems.push(`${at}: use matchLabels only`);
    for (const { obj: other } of deployments) {
      if (other !== obj && matches(selector, other.spec!.template.metadata?.labels)) {
        problems.push(`${at}: selector also matches the pods of ${other.metadata!.name}`);
      }
    }
  }
  const worker = deployments.find(({ obj }) => obj.metadata!.name === 'kasa-webhook-worker')?.obj;
  if (worker && (worker.spec!.template.spec!.terminationGracePeriodSeconds ?? 30) < 60) {
    problems.push('kasa-webhook-worker: terminationGracePeriodSeconds under 60 cuts in-flight deliveries short');
  }

  // 7. Services select pods and target ports those pods have.
  for (const { where, obj } of services) {
    const at = `${where} (Service ${obj.metadata!.name})`;
    const targets = workloads.filter((w) => matches(obj.spec?.selector, w.podLabels));
    if (targets.length === 0) {
      problems.push(`${at}: selector matches no pod template`);
      continue;
    }
    for (const port of obj.spec?.ports ?? []) {
      const target = port.targetPort ?? port.port;
      for (const workload of targets) {
        if (!workload.podSpec.containers.some((c) => portOf(c, target) !== undefined)) {
          problems.push(`${at}: targetPort ${target} is not a container port of ${workload.name}`);
        }
      }
    }
  }

  // 8. LEDGER_URL reaches the ledger through its Service.
  const ledgerUrl = configMapData.get('kasa-config')?.LEDGER_URL;
  const ledgerTarget = ledgerUrl === undefined ? undefined : hostAndPort(ledgerUrl);
  const ledgerService = services.find(({ obj }) => obj.metadata!.name === ledgerTarget?.host)?.obj;
  const ledgerDeployment = deployments.find(({ obj }) => obj.metadata!.name === 'kasa-ledger')?.obj;
  if (!ledgerService || !(ledgerService.spec?.ports ?? []).some((p) => p.port === ledgerTarget?.port)) {
    problems.push(`LEDGER_URL ${ledgerUrl} does not name a Service port in ${NAMESPACE}`);
  } else if (!ledgerDeployment || !matches(ledgerService.spec?.selector, ledgerDeployment.spec!.template.metadata?.labels)) {
    problems.push(`LEDGER_URL's Service ${ledgerService.metadata!.name} does not select the ledger pods`);
  }

  // 9. HPAs: the worker on queue depth (External metric), the gateway on CPU.
  for (const { where, obj } of hpas) {
    const at = `${where} (HPA ${obj.metadata!.name})`;
    const ref = obj.spec!.scaleTargetRef;
    const target = deployments.find(({ obj: d }) => d.metadata!.name === ref.name)?.obj;
    if (ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !target) {
      problems.push(`${at}: scaleTargetRef ${ref.apiVersion}/${ref.kind}/${ref.name} is not a Deployment here`);
    }
    const min = obj.spec!.minReplicas ?? 1;
    if (min < 1 || obj.spec!.maxReplicas < min) problems.push(`${at}: replicas range ${min}..${obj.spec!.maxReplicas} is invalid`);
    for (const metric of obj.spec!.metrics ?? []) {
      if (metric.type === 'Resource' && metric.resource && target) {
        const resource = metric.resource.name;
        const missing = target.spec!.template.spec!.containers.some((c) => c.resources?.requests?.[resource] === undefined);
        if (missing) problems.push(`${at}: scales on ${resource} utilization but the pods request no ${resource}`);
      }
    }
  }
  const workerHpa = hpaTarget('kasa-webhook-worker');
  const queueMetric = workerHpa?.spec?.metrics?.find((m) => m.type === 'External' && m.external?.metric.name === QUEUE_METRIC);
  if (!queueMetric) {
    problems.push(`no HPA scales kasa-webhook-worker on the External metric ${QUEUE_METRIC}`);
  } else {
    const target = queueMetric.external!.target;
    const ok =
      (target.type === 'AverageValue' && target.averageValue !== undefined) || (target.type === 'Value' && target.value !== undefined);
    if (!ok) problems.push(`the ${QUEUE_METRIC} target is not an AverageValue or Value`);
  }
  const gatewayHpa = hpaTarget('kasa-gateway');
  const cpuMetric = gatewayHpa?.spec?.metrics?.find((m) => m.type === 'Resource' && m.resource?.name === 'cpu');
  if (!cpuMetric || cpuMetric.resource!.target.type !== 'Utilization' || cpuMetric.resource!.target.averageUtilization === undefined) {
    problems.push('no HPA scales kasa-gateway on CPU utilization');
  }

  // 10. PDBs select one Deployment's pods and leave room for a drain; every replicated Deployment has one.
  for (const { where, obj } of pdbs) {
    const at = `${where} (PDB ${obj.metadata!.name})`;
    const selected = deployments.filter(({ obj: d }) => matches(obj.spec?.selector?.matchLabels, d.spec!.template.metadata?.labels));
    if (selected.length !== 1) {
      problems.push(`${at}: selects the pods of ${selected.length} Deployments, not 1`);
      continue;
    }
    const hasMin = obj.spec?.minAvailable !== undefined;
    const hasMax = obj.spec?.maxUnavailable !== undefined;
    if (hasMin === hasMax) problems.push(`${at}: set exactly one of minAvailable and maxUnavailable`);
    const minAvailable = obj.spec?.minAvailable;
    const replicas = effectiveReplicas(selected[0]!.obj);
    if (typeof minAvailable === 'number' && minAvailable >= replicas) {
      problems.push(`${at}: minAvailable ${minAvailable} with ${replicas} replicas blocks every node drain`);
    }
    if (obj.spec?.maxUnavailable === 0 || obj.spec?.maxUnavailable === '0%')
      problems.push(`${at}: maxUnavailable 0 blocks every node drain`);
  }
  for (const { obj } of deployments) {
    if (effectiveReplicas(obj) < 2) continue;
    const covered = pdbs.some(({ obj: pdb }) => matches(pdb.spec?.selector?.matchLabels, obj.spec!.template.metadata?.labels));
    if (!covered) problems.push(`${obj.metadata!.name}: replicated but has no PodDisruptionBudget`);
  }

  // 11. The migrate Job.
  const migrate = jobs.find(({ obj }) => obj.spec!.template.spec!.containers.some((c) => sameList(c.command ?? c.args, MIGRATE_COMMAND)));
  if (!migrate) problems.push(`no Job runs ${MIGRATE_COMMAND.join(' ')}`);
  for (const { where, obj } of jobs) {
    const restart = obj.spec!.template.spec!.restartPolicy;
    if (restart !== 'Never' && restart !== 'OnFailure') problems.push(`${where}: a Job's restartPolicy must be Never or OnFailure`);
    if (obj.spec!.backoffLimit === undefined) problems.push(`${where}: no backoffLimit`);
  }

  return problems;
}

/** k8s/README.md must explain where the queue metric comes from, with a prometheus-adapter rule. */
export function readmeProblems(text: string): string[] {
  const problems: string[] = [];
  if (!text.includes(QUEUE_METRIC)) problems.push(`README does not mention ${QUEUE_METRIC}`);
  if (!/prometheus-adapter/.test(text)) problems.push('README does not mention prometheus-adapter');
  if (!/\/metrics/.test(text)) problems.push("README does not say the metric comes from the worker's /metrics");
  if (!/seriesQuery:.*kasa_webhook_queue_waiting/.test(text) || !/metricsQuery:/.test(text)) {
    problems.push('README has no example adapter rule (seriesQuery/metricsQuery) for the metric');
  }
  if (!/externalRules|external:/.test(text)) problems.push('README example is not an external-metrics rule');
  return problems;
}
