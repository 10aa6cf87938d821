import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { APP_SERVICES, MIGRATE_COMMAND, PUBLISHED_DEV_SECRETS, readRepoFile, serviceCommand } from './common.js';
import {
  EXTERNAL_SECRETS,
  createdSecretKeys,
  isPinnedImage,
  k8sProblems,
  loadRender,
  manifestSchemaProblems,
  migrateJobName,
  operationsDocProblems,
  tlsSecretNames,
  webhookWaitListKey,
  type Render,
} from './k8s-checks.js';
import { applyJsonPatch, formatImage, parseImage, renderKustomization, selectorMatches, type KObject } from './k8s-kustomize.js';
import { cidrContains, connectionAllowed, isolated, labelSelectorMatches, type PodPeer } from './k8s-netpol.js';

// Loose access for reading and editing rendered objects.
type Node = Record<string, any>;

const renders = {
  base: loadRender('base'),
  production: loadRender('production'),
  redisCluster: loadRender('redisCluster'),
  cloudnativePg: loadRender('cloudnativePg'),
};
const production = renders.production;
const redisCluster = renders.redisCluster;
const cloudnativePg = renders.cloudnativePg;

function copy(render: Render): Render {
  return JSON.parse(JSON.stringify(render)) as Render;
}

/** The object of `kind` named `name` (or whose name starts with `name` followed by "-", for the versioned Job). */
function find(render: Render, kind: string, name: string): Node {
  const found = render.docs.find(
    (doc) => doc.kind === kind && (doc.metadata.name === name || String(doc.metadata.name).startsWith(`${name}-`)),
  );
  if (!found) throw new Error(`no ${kind}/${name}`);
  return found;
}

const container = (render: Render, deployment: string): Node => find(render, 'Deployment', deployment).spec.template.spec.containers[0];
const configData = (render: Render): Record<string, string> => find(render, 'ConfigMap', 'kasa-config').data;
const policy = (render: Render, name: string): Node => find(render, 'NetworkPolicy', name);

describe.each(Object.entries(renders))('kustomize build k8s/%s', (name, render) => {
  it('renders every part', () => {
    const kinds = render.docs.map((doc) => `${doc.kind}/${doc.metadata.name}`);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'Namespace/kasa',
        'ConfigMap/kasa-config',
        ...APP_SERVICES.flatMap((service) => [`Deployment/kasa-${service}`, `Service/kasa-${service}`]),
        'Job/kasa-migrate-0-1-0',
        'Ingress/kasa-gateway',
        'Ingress/kasa-console',
        'NetworkPolicy/kasa-default-deny',
        'HorizontalPodAutoscaler/kasa-gateway',
        'HorizontalPodAutoscaler/kasa-ledger',
        'ScaledObject/kasa-webhook-worker',
        'TriggerAuthentication/kasa-redis',
        'PodDisruptionBudget/kasa-ledger',
      ]),
    );
  });

  it.each(render.docs.map((doc) => [`${doc.kind}/${doc.metadata.name}`, doc] as const))(
    '%s is valid against its API schema',
    (where, doc) => {
      expect(manifestSchemaProblems(doc, where)).toEqual([]);
    },
  );

  it('fits together: args, ports, probes, configuration, images, migrate Job, Ingress, NetworkPolicies, autoscaling, PDBs', () => {
    expect(k8sProblems(render)).toEqual([]);
  });

  it.each(APP_SERVICES)('runs %s as `args` under the image ENTRYPOINT, never `command`', (service) => {
    const c = container(render, `kasa-${service}`);
    expect(c.args).toEqual(serviceCommand(service));
    expect(c.command).toBeUndefined();
  });

  it('runs the migrate Job as `args` too', () => {
    const c = find(render, 'Job', 'kasa-migrate').spec.template.spec.containers[0];
    expect(c.args).toEqual(MIGRATE_COMMAND);
    expect(c.command).toBeUndefined();
  });

  it('holds no Secret and no published development secret', () => {
    expect(render.docs.filter((doc) => doc.kind === 'Secret')).toEqual([]);
    const text = JSON.stringify(render.docs);
    for (const secret of PUBLISHED_DEV_SECRETS) expect(text).not.toContain(secret);
  });

  it('scales the webhook-worker with KEDA on the BullMQ wait list, and nothing else on it', () => {
    const scaled = find(render, 'ScaledObject', 'kasa-webhook-worker');
    expect(scaled.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'kasa-webhook-worker' });
    expect(scaled.spec.triggers).toEqual([
      expect.objectContaining({
        type: name === 'redisCluster' ? 'redis-cluster' : 'redis',
        metadata: expect.objectContaining({ listName: 'kasa:{bull}:webhook-deliveries:wait' }),
        authenticationRef: { name: 'kasa-redis' },
      }),
    ]);
    expect(
      render.docs
        .filter((doc) => doc.kind === 'HorizontalPodAutoscaler')
        .map((hpa) => hpa.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual(['kasa-gateway', 'kasa-ledger']);
    expect(find(render, 'Deployment', 'kasa-webhook-worker').spec.replicas).toBeUndefined();
  });
});

describe('the production overlay', () => {
  it('pins the image to a version tag of its registry, for every container', () => {
    const images = new Set(
      production.docs.flatMap((doc) => ((doc.spec?.template?.spec?.containers ?? []) as Node[]).map((c) => c.image as string)),
    );
    expect([...images]).toEqual(['registry.example.com/kasa:0.1.0']);
    expect(production.kustomization.images).toEqual([{ name: 'kasa', newName: 'registry.example.com/kasa', newTag: '0.1.0' }]);
  });

  it('names the migrate Job after the release it migrates to', () => {
    expect(find(production, 'Job', 'kasa-migrate').metadata.name).toBe('kasa-migrate-0-1-0');
  });

  it('serves the gateway and the console on their own https hosts, matching their public URLs', () => {
    expect(configData(production).PUBLIC_BASE_URL).toBe('https://pay.kasa.example.com');
    expect(configData(production).CONSOLE_PUBLIC_URL).toBe('https://console.kasa.example.com');
    expect(find(production, 'Ingress', 'kasa-gateway').spec.rules[0].host).toBe('pay.kasa.example.com');
    expect(find(production, 'Ingress', 'kasa-console').spec.tls).toEqual([
      { hosts: ['console.kasa.example.com'], secretName: 'kasa-console-tls' },
    ]);
  });

  it('labels what it deploys as the production instance, leaving selectors alone', () => {
    const gateway = find(production, 'Deployment', 'kasa-gateway');
    expect(gateway.metadata.labels['app.kubernetes.io/instance']).toBe('kasa-production');
    expect(gateway.spec.selector.matchLabels['app.kubernetes.io/instance']).toBeUndefined();
  });
});

describe('the redis-cluster overlay', () => {
  it('is the production overlay with the cluster seed nodes and nothing else changed in the pods', () => {
    const { REDIS_CLUSTER_NODES: nodes, ...rest } = configData(redisCluster);
    expect(nodes).toMatch(/^[a-z0-9.-]+:\d+(,[a-z0-9.-]+:\d+)+$/);
    expect(rest).toEqual(configData(production));
    for (const service of APP_SERVICES)
      expect(container(redisCluster, `kasa-${service}`)).toEqual(container(production, `kasa-${service}`));
  });

  it("scales the worker with KEDA's redis-cluster trigger, the seed nodes read from the Secret's address as addresses", () => {
    const [trigger] = find(redisCluster, 'ScaledObject', 'kasa-webhook-worker').spec.triggers;
    expect(trigger).toEqual({
      type: 'redis-cluster',
      metadata: { listName: 'kasa:{bull}:webhook-deliveries:wait', listLength: '100', enableTLS: 'false' },
      authenticationRef: { name: 'kasa-redis' },
    });
    expect(find(redisCluster, 'TriggerAuthentication', 'kasa-redis').spec.secretTargetRef).toEqual([
      { parameter: 'addresses', name: 'kasa-keda-redis', key: 'address' },
      { parameter: 'password', name: 'kasa-keda-redis', key: 'password' },
    ]);
  });

  it.each<[string, (set: Render) => void, string]>([
    [
      'the single-Redis trigger on a cluster',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.triggers[0].type = 'redis'),
      'expected exactly one trigger, of type redis-cluster',
    ],
    [
      'the single-Redis address parameter on a cluster',
      (set) => (find(set, 'TriggerAuthentication', 'kasa-redis').spec.secretTargetRef[0].parameter = 'address'),
      'no addresses parameter',
    ],
    [
      'a database other than 0 on a cluster',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.triggers[0].metadata.databaseIndex = '1'),
      'database 0 only',
    ],
    [
      'a service on another Redis than the worker',
      (set) => {
        const gateway = find(set, 'Deployment', 'kasa-gateway').spec.template.spec.containers[0];
        gateway.env = [...(gateway.env ?? []), { name: 'REDIS_CLUSTER_NODES', value: 'other-redis:6379' }];
      },
      'REDIS_CLUSTER_NODES differs',
    ],
    ['malformed seed nodes', (set) => (configData(set).REDIS_CLUSTER_NODES = 'redis-0'), 'REDIS_CLUSTER_NODES: must be'],
  ])('is checked: %s is caught', (_name, mutate, expected) => {
    const set = copy(redisCluster);
    mutate(set);
    expect(k8sProblems(set)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });

  it('is checked the other way too: the cluster trigger on one Redis is caught', () => {
    const set = copy(production);
    find(set, 'ScaledObject', 'kasa-webhook-worker').spec.triggers[0].type = 'redis-cluster';
    expect(k8sProblems(set)).toEqual(expect.arrayContaining([expect.stringContaining('expected exactly one trigger, of type redis')]));
  });
});

describe('the cloudnative-pg overlay', () => {
  const cluster = () => find(cloudnativePg, 'Cluster', 'kasa-pg');

  it('runs PostgreSQL as a CloudNativePG Cluster of three with one synchronous standby that commits must wait for', () => {
    expect(cluster().apiVersion).toBe('postgresql.cnpg.io/v1');
    expect(cluster().spec.instances).toBe(3);
    expect(cluster().spec.postgresql.synchronous).toEqual({ method: 'any', number: 1, dataDurability: 'required' });
    expect(manifestSchemaProblems(cluster(), 'Cluster')).toEqual([]);
  });

  it("points the ledger, the worker and the migrate Job at the Cluster's -rw Service (its app Secret's uri), and changes nothing else in the pods", () => {
    const databaseUrl = { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'kasa-pg-app', key: 'uri' } } };
    for (const service of APP_SERVICES) {
      const { env, ...rest } = container(cloudnativePg, `kasa-${service}`);
      const { env: productionEnv, ...productionRest } = container(production, `kasa-${service}`);
      expect(rest).toEqual(productionRest);
      expect(env).toEqual(['ledger', 'webhook-worker'].includes(service) ? [databaseUrl] : productionEnv);
    }
    expect(find(cloudnativePg, 'Job', 'kasa-migrate').spec.template.spec.containers[0].env).toEqual([databaseUrl]);
  });

  it("lets only Kasa's PostgreSQL users, the instances and the operator reach the instances", () => {
    const instance: PodPeer = {
      kind: 'pod',
      name: 'kasa-pg-1',
      namespace: 'kasa',
      namespaceLabels: { 'kubernetes.io/metadata.name': 'kasa' },
      labels: { 'cnpg.io/cluster': 'kasa-pg' },
      ports: [{ containerPort: 5432, protocol: 'TCP' }],
    };
    const pod = (component: string): PodPeer => ({
      ...instance,
      name: component,
      labels: { 'app.kubernetes.io/name': 'kasa', 'app.kubernetes.io/component': component },
    });
    const operator: PodPeer = {
      ...instance,
      name: 'operator',
      namespace: 'cnpg-system',
      namespaceLabels: { 'kubernetes.io/metadata.name': 'cnpg-system' },
      labels: { 'app.kubernetes.io/name': 'cloudnative-pg' },
    };
    const policies = cloudnativePg.docs.filter((doc) => doc.kind === 'NetworkPolicy') as INetworkPolicy[];
    for (const component of ['ledger', 'webhook-worker', 'migrate'])
      expect(connectionAllowed(policies, pod(component), instance, 5432)).toBe(true);
    for (const component of ['gateway', 'console']) expect(connectionAllowed(policies, pod(component), instance, 5432)).toBe(false);
    expect(connectionAllowed(policies, { ...instance, name: 'kasa-pg-2' }, instance, 5432)).toBe(true);
    expect(connectionAllowed(policies, operator, instance, 8000)).toBe(true);
    expect(connectionAllowed(policies, { ...operator, namespace: 'default', namespaceLabels: {} }, instance, 5432)).toBe(false);
  });

  it.each<[string, (set: Render) => void, string]>([
    [
      'asynchronous replication',
      (set) => delete find(set, 'Cluster', 'kasa-pg').spec.postgresql.synchronous,
      'no spec.postgresql.synchronous',
    ],
    [
      'preferred data durability',
      (set) => (find(set, 'Cluster', 'kasa-pg').spec.postgresql.synchronous.dataDurability = 'preferred'),
      'only required keeps every acknowledged write',
    ],
    ['two instances', (set) => (find(set, 'Cluster', 'kasa-pg').spec.instances = 2), '2 instances'],
    [
      'a worker on another database',
      (set) => {
        container(set, 'kasa-webhook-worker').env = [];
      },
      'DATABASE_URL is not the kasa-pg-app',
    ],
    [
      'a field the operator does not know',
      (set) => (find(set, 'Cluster', 'kasa-pg').spec.postgresql.synchronous.method = 'all'),
      'Cluster is invalid',
    ],
  ])('is checked: %s is caught', (_name, mutate, expected) => {
    expect(k8sProblems(cloudnativePg)).toEqual([]);
    const set = copy(cloudnativePg);
    mutate(set);
    expect(k8sProblems(set)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});

describe('image pinning and the migrate Job name', () => {
  it.each([
    ['kasa:0.1.0', true],
    ['registry.example.com:5000/kasa:v1.2.3-rc.1', true],
    [`kasa@sha256:${'a'.repeat(64)}`, true],
    ['kasa:latest', false],
    ['kasa', false],
    ['kasa:main', false],
    ['kasa@sha256:abc', false],
  ])('%s pinned: %s', (image, pinned) => {
    expect(isPinnedImage(image)).toBe(pinned);
  });

  it('follows the tag, or the digest', () => {
    expect(migrateJobName('registry.example.com/kasa:1.4.2')).toBe('kasa-migrate-1-4-2');
    expect(migrateJobName('kasa:v2.0.0-rc.1')).toBe('kasa-migrate-v2-0-0-rc-1');
    expect(migrateJobName(`kasa@sha256:0123456789abcdef${'0'.repeat(48)}`)).toBe('kasa-migrate-sha256-0123456789ab');
  });

  it('parses and formats image references with registries, ports, tags and digests', () => {
    expect(parseImage('registry:5000/team/kasa:1.0.0')).toEqual({ name: 'registry:5000/team/kasa', tag: '1.0.0', digest: undefined });
    expect(parseImage('registry:5000/kasa')).toEqual({ name: 'registry:5000/kasa', tag: undefined, digest: undefined });
    expect(formatImage(parseImage('kasa:1@sha256:ab'))).toBe('kasa:1@sha256:ab');
  });
});

describe('the worker backlog key', () => {
  it("is BullMQ's wait list of the webhook queue under <REDIS_PREFIX>:bull", () => {
    expect(webhookWaitListKey('kasa')).toBe('kasa:{bull}:webhook-deliveries:wait');
    expect(webhookWaitListKey('staging')).toBe('staging:{bull}:webhook-deliveries:wait');
  });
});

describe('the k8s checks reject broken copies', () => {
  const ledgerPolicy = (set: Render): Node => policy(set, 'kasa-ledger');
  const cases: Array<[string, (set: Render) => void, string]> = [
    // Schemas.
    ['a containerPort that is not a number', (set) => (container(set, 'kasa-ledger').ports[0].containerPort = 'http'), 'is invalid'],
    ['replicas as a word', (set) => (find(set, 'Deployment', 'kasa-console').spec.replicas = 'one'), 'is invalid'],
    [
      'an old apiVersion',
      (set) => (find(set, 'Deployment', 'kasa-ledger').apiVersion = 'extensions/v1beta1'),
      'unexpected apiVersion/kind',
    ],
    [
      'a ScaledObject count as a word',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.maxReplicaCount = 'ten'),
      'is invalid',
    ],
    [
      'a ScaledObject trigger without a type',
      (set) => delete find(set, 'ScaledObject', 'kasa-webhook-worker').spec.triggers[0].type,
      'is invalid',
    ],
    [
      'a TriggerAuthentication without a key',
      (set) => delete find(set, 'TriggerAuthentication', 'kasa-redis').spec.secretTargetRef[0].key,
      'is invalid',
    ],
    ['a NetworkPolicy without podSelector', (set) => delete policy(set, 'kasa-console').spec.podSelector, 'is invalid'],
    [
      'an Ingress path without pathType',
      (set) => delete find(set, 'Ingress', 'kasa-console').spec.rules[0].http.paths[0].pathType,
      'is invalid',
    ],
    ['a name that is not a DNS label', (set) => (find(set, 'Job', 'kasa-migrate').metadata.name = 'kasa-migrate-1.2.3'), 'not a DNS label'],
    // Commands, probes, ports.
    ['a command replacing tini', (set) => (container(set, 'kasa-gateway').command = ['node']), 'sets command'],
    ['the wrong args', (set) => (container(set, 'kasa-ledger').args = ['node', 'services/gateway/dist/main.js']), 'no container runs args'],
    [
      'tsx in production',
      (set) => (container(set, 'kasa-console').args = ['npx', 'tsx', 'services/console/src/main.ts']),
      'no container runs args',
    ],
    [
      'a readiness probe on /healthz',
      (set) => (container(set, 'kasa-gateway').readinessProbe.httpGet.path = '/healthz'),
      'readinessProbe is not GET /readyz',
    ],
    ['no liveness probe', (set) => delete container(set, 'kasa-console').livenessProbe, 'livenessProbe is not GET /healthz'],
    [
      'a probe on a port the container lacks',
      (set) => (container(set, 'kasa-ledger').readinessProbe.httpGet.port = 9999),
      'readiness probe port',
    ],
    ['a port variable out of step', (set) => (configData(set).WORKER_PORT = '9090'), 'WORKER_PORT is 9090, the container port is 8082'],
    [
      'a Service targeting a port nobody has',
      (set) => (find(set, 'Service', 'kasa-console').spec.ports[0].targetPort = 'metrics'),
      'targetPort metrics',
    ],
    [
      'a Service selecting nothing',
      (set) => (find(set, 'Service', 'kasa-ledger').spec.selector = { app: 'ledger' }),
      'selector matches no pod template',
    ],
    [
      'a selector that misses the pod labels',
      (set) => (find(set, 'Deployment', 'kasa-gateway').spec.template.metadata.labels['app.kubernetes.io/component'] = 'edge'),
      'selector does not match the pod template labels',
    ],
    ['a LEDGER_URL on the wrong port', (set) => (configData(set).LEDGER_URL = 'http://kasa-ledger'), 'LEDGER_URL'],
    // Shutdown.
    [
      'a grace period that does not cover preStop and the shutdown grace',
      (set) => (find(set, 'Deployment', 'kasa-gateway').spec.template.spec.terminationGracePeriodSeconds = 30),
      'terminationGracePeriodSeconds 30 < preStop 5s + shutdown grace 25s + 5s',
    ],
    [
      'a short worker grace period',
      (set) => (find(set, 'Deployment', 'kasa-webhook-worker').spec.template.spec.terminationGracePeriodSeconds = 40),
      'under 60',
    ],
    // Images and the migrate Job.
    ['a latest image', (set) => (container(set, 'kasa-console').image = 'registry.example.com/kasa:latest'), 'is not pinned'],
    ['an untagged image', (set) => (container(set, 'kasa-console').image = 'registry.example.com/kasa'), 'is not pinned'],
    ['an overlay on latest', (set) => (set.kustomization.images[0].newTag = 'latest'), 'kustomization: image kasa is not pinned'],
    [
      'a release whose migrate Job kept the old name',
      (set) => {
        for (const doc of set.docs)
          for (const c of (doc.spec?.template?.spec?.containers ?? []) as Node[]) c.image = 'registry.example.com/kasa:0.2.0';
      },
      'named kasa-migrate-0-1-0, expected kasa-migrate-0-2-0',
    ],
    [
      'a migrate Job on another image',
      (set) => (find(set, 'Job', 'kasa-migrate').spec.template.spec.containers[0].image = 'registry.example.com/kasa:0.0.9'),
      "image differs from the migrate Job's",
    ],
    ['no migrate Job', (set) => (set.docs = set.docs.filter((doc) => doc.kind !== 'Job')), '0 Jobs run args'],
    [
      'a migrate Job without a deadline',
      (set) => delete find(set, 'Job', 'kasa-migrate').spec.activeDeadlineSeconds,
      'no activeDeadlineSeconds',
    ],
    [
      'a ledger rollout that drops old pods first',
      (set) => (find(set, 'Deployment', 'kasa-ledger').spec.strategy.rollingUpdate.maxUnavailable = 1),
      'maxUnavailable is not 0',
    ],
    // Secrets and configuration.
    [
      'a Secret in the output',
      (set) =>
        set.docs.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'kasa-secrets', namespace: 'kasa' },
          stringData: { INTERNAL_TOKEN: 'x' },
        }),
      'a Secret in the kustomize output',
    ],
    [
      'a published development secret',
      (set) => (find(set, 'Deployment', 'kasa-ledger').metadata.annotations = { note: 'token dev-internal-token-change-me' }),
      'contains a published development secret',
    ],
    ['a secret in the ConfigMap', (set) => (configData(set).OPS_BOOTSTRAP_TOKEN = 'x'), 'belongs in a Secret'],
    [
      'envFrom a Secret nobody creates',
      (set) => (container(set, 'kasa-ledger').envFrom[1].secretRef.name = 'kasa-secret'),
      'kasa-secret is not one of the Secrets',
    ],
    ['a missing configuration variable', (set) => delete configData(set).CONSOLE_PUBLIC_URL, 'CONSOLE_PUBLIC_URL is not set'],
    ['a value the config rejects', (set) => (configData(set).WEBHOOK_ALLOW_HTTP = 'no'), 'refuse to start: WEBHOOK_ALLOW_HTTP'],
    ['a misspelt variable', (set) => (configData(set).WEBHOOK_ALLOWED_HOST = ''), 'WEBHOOK_ALLOWED_HOST is not a variable'],
    ['development mode', (set) => (configData(set).NODE_ENV = 'development'), 'NODE_ENV is development, not production'],
    [
      'a loopback listener',
      (set) => (configData(set).BIND_ADDRESS = '127.0.0.1'),
      'BIND_ADDRESS is 127.0.0.1; a pod must listen on 0.0.0.0',
    ],
    // Ingress.
    [
      'a console without https',
      (set) => (configData(set).CONSOLE_PUBLIC_URL = 'http://console.kasa.example.com'),
      'the public URL of console is not https',
    ],
    [
      'an Ingress host out of step',
      (set) => (find(set, 'Ingress', 'kasa-gateway').spec.rules[0].host = 'pay.example.com'),
      "differs from gateway's public URL host",
    ],
    ['no TLS', (set) => delete find(set, 'Ingress', 'kasa-console').spec.tls, 'no TLS secret covers'],
    ['no ingress class', (set) => delete find(set, 'Ingress', 'kasa-gateway').spec.ingressClassName, 'no ingressClassName'],
    [
      'the gateway published whole',
      (set) => (find(set, 'Ingress', 'kasa-gateway').spec.rules[0].http.paths[0].path = '/'),
      "publishes the gateway's /metrics",
    ],
    [
      'the ledger published',
      (set) => (find(set, 'Ingress', 'kasa-console').spec.rules[0].http.paths[0].backend.service.name = 'kasa-ledger'),
      'exposes kasa-ledger',
    ],
    // NetworkPolicies.
    [
      'no ledger policy',
      (set) => (set.docs = set.docs.filter((doc) => !(doc.kind === 'NetworkPolicy' && doc.metadata.name === 'kasa-ledger'))),
      'kasa-gateway cannot reach kasa-ledger on TCP 8081',
    ],
    [
      'no default deny and no migrate policy',
      (set) =>
        (set.docs = set.docs.filter(
          (doc) => !(doc.kind === 'NetworkPolicy' && ['kasa-default-deny', 'kasa-migrate'].includes(doc.metadata.name)),
        )),
      'kasa-migrate-0-1-0 is not isolated for Ingress',
    ],
    [
      'the worker let into the ledger',
      (set) => {
        const worker = { podSelector: { matchLabels: { 'app.kubernetes.io/component': 'webhook-worker' } } };
        ledgerPolicy(set).spec.ingress[0].from.push(worker);
        policy(set, 'kasa-webhook-worker').spec.egress.push({ to: [{ podSelector: {} }], ports: [{ port: 8081 }] });
      },
      'kasa-webhook-worker can reach kasa-ledger on TCP 8081',
    ],
    [
      'the ledger open to everyone',
      (set) => delete ledgerPolicy(set).spec.ingress[0].from,
      'a pod in another namespace can reach kasa-ledger',
    ],
    [
      'the worker out to every address',
      (set) => (policy(set, 'kasa-webhook-worker').spec.egress[2].to = [{ ipBlock: { cidr: '0.0.0.0/0' } }]),
      'kasa-webhook-worker can reach the cloud metadata endpoint on TCP 443',
    ],
    [
      'the gateway out to the internet',
      (set) => policy(set, 'kasa-gateway').spec.egress.push({ ports: [{ port: 443 }] }),
      'kasa-gateway can reach a partner on the internet on TCP 443',
    ],
    [
      'the console to Redis',
      (set) => policy(set, 'kasa-console').spec.egress.push({ ports: [{ port: 6379 }] }),
      'kasa-console can reach Redis',
    ],
    ['the gateway cut off from Redis', (set) => policy(set, 'kasa-gateway').spec.egress.pop(), 'kasa-gateway cannot reach Redis'],
    [
      'no DNS',
      (set) => (set.docs = set.docs.filter((doc) => doc.metadata.name !== 'kasa-allow-dns')),
      'cannot reach cluster DNS on UDP 53',
    ],
    [
      'another ingress controller',
      (set) => (policy(set, 'kasa-gateway').spec.ingress[0].from[0].podSelector.matchLabels = { app: 'traefik' }),
      'the ingress controller cannot reach kasa-gateway on TCP 8080',
    ],
    ['webhook ports the policy blocks', (set) => delete configData(set).WEBHOOK_ALLOWED_PORTS, 'WEBHOOK_ALLOWED_PORTS allows port 1024'],
    // Autoscaling and disruption.
    [
      'a listName without the BullMQ prefix',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.triggers[0].metadata.listName = 'kasa:webhook-deliveries:wait'),
      "is not the webhook queue's wait list kasa:{bull}:webhook-deliveries:wait",
    ],
    [
      'a REDIS_PREFIX the ScaledObject does not follow',
      (set) => (configData(set).REDIS_PREFIX = 'prod'),
      'wait list prod:{bull}:webhook-deliveries:wait',
    ],
    [
      'a ScaledObject aimed at nothing',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.scaleTargetRef.name = 'worker'),
      'scaleTargetRef',
    ],
    [
      'a Redis password nobody creates',
      (set) => (find(set, 'TriggerAuthentication', 'kasa-redis').spec.secretTargetRef[1].key = 'REDIS_PASSWORD'),
      'reads kasa-keda-redis/REDIS_PASSWORD, which the docs do not create',
    ],
    [
      'the Redis address in the trigger',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.triggers[0].metadata.address = 'redis:6379'),
      'belongs in the TriggerAuthentication',
    ],
    [
      'a worker that may scale to zero',
      (set) => (find(set, 'ScaledObject', 'kasa-webhook-worker').spec.minReplicaCount = 0),
      'lets the worker scale to zero',
    ],
    [
      'an HPA fighting KEDA',
      (set) => {
        const hpa = JSON.parse(JSON.stringify(find(set, 'HorizontalPodAutoscaler', 'kasa-gateway'))) as Node;
        hpa.metadata.name = 'kasa-webhook-worker';
        hpa.spec.scaleTargetRef.name = 'kasa-webhook-worker';
        set.docs.push(hpa);
      },
      '2 autoscalers target it',
    ],
    [
      'a replicas field fighting KEDA',
      (set) => (find(set, 'Deployment', 'kasa-webhook-worker').spec.replicas = 3),
      'sets replicas although an autoscaler owns them',
    ],
    [
      'no ledger HPA',
      (set) => (set.docs = set.docs.filter((doc) => !(doc.kind === 'HorizontalPodAutoscaler' && doc.metadata.name === 'kasa-ledger'))),
      'kasa-ledger: no autoscaling/v2 HPA scales it on CPU',
    ],
    [
      'a gateway HPA on memory',
      (set) => (find(set, 'HorizontalPodAutoscaler', 'kasa-gateway').spec.metrics[0].resource.name = 'memory'),
      'on CPU utilization',
    ],
    [
      'a PDB that blocks drains',
      (set) => (find(set, 'PodDisruptionBudget', 'kasa-ledger').spec.minAvailable = 2),
      'blocks every node drain',
    ],
    [
      'a PDB selecting nothing',
      (set) => (find(set, 'PodDisruptionBudget', 'kasa-gateway').spec.selector.matchLabels = { app: 'x' }),
      'selects the pods of 0 Deployments',
    ],
    // Pod security and resources.
    ['root', (set) => (find(set, 'Deployment', 'kasa-ledger').spec.template.spec.securityContext.runAsUser = 0), 'runAsUser'],
    [
      'a writable root filesystem',
      (set) => (container(set, 'kasa-console').securityContext.readOnlyRootFilesystem = false),
      'readOnlyRootFilesystem',
    ],
    [
      'privilege escalation',
      (set) => delete container(set, 'kasa-webhook-worker').securityContext.allowPrivilegeEscalation,
      'allowPrivilegeEscalation',
    ],
    ['no /tmp volume', (set) => (container(set, 'kasa-gateway').volumeMounts = []), 'no emptyDir at /tmp'],
    ['no limits', (set) => delete container(set, 'kasa-ledger').resources.limits, 'no cpu limit'],
    [
      'a request above its limit',
      (set) => (container(set, 'kasa-ledger').resources.requests.memory = '1Gi'),
      'memory request exceeds its limit',
    ],
    [
      'an object outside the namespace',
      (set) => delete find(set, 'Service', 'kasa-gateway').metadata.namespace,
      'is not in namespace kasa',
    ],
    [
      'a namespace without Pod Security',
      (set) => delete find(set, 'Namespace', 'kasa').metadata.labels['pod-security.kubernetes.io/enforce'],
      'restricted Pod Security',
    ],
  ];

  it.each(cases)('%s', (_name, mutate, expected) => {
    const set = copy(production);
    mutate(set);
    expect(k8sProblems(set)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});

describe('the kustomize renderer', () => {
  const root = mkdtempSync(join(tmpdir(), 'kasa-kustomize-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let counter = 0;

  /** Writes files (path -> text) into a fresh directory and returns it. */
  function tree(files: Record<string, string>): string {
    const dir = join(root, String((counter += 1)));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  const head = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  labels: { app.kubernetes.io/component: app }
spec:
  selector: { matchLabels: { app: a } }
  template:
    metadata: { labels: { app: a } }
    spec:
      initContainers: [{ name: init, image: 'kasa' }]
      containers: [{ name: app, image: 'kasa:old' }, { name: sidecar, image: 'other:1' }]
---
apiVersion: v1
kind: Namespace
metadata: { name: prod }
`;

  it('loads bases, then patches, sets the namespace, labels and images, overlay after base', () => {
    const dir = tree({
      'base/kustomization.yaml': `${head}resources: [app.yaml]\nimages: [{ name: kasa, newTag: 1.0.0 }]\n`,
      'base/app.yaml': deployment,
      'overlay/kustomization.yaml': `${head}namespace: prod
resources: [../base]
labels: [{ pairs: { tier: backend }, includeTemplates: true }]
images: [{ name: kasa, newName: reg.example/kasa, digest: 'sha256:${'b'.repeat(64)}' }]
patches:
  - target: { group: apps, version: v1, kind: Deployment, labelSelector: 'app.kubernetes.io/component=app' }
    patch: |-
      - op: add
        path: /metadata/annotations
        value: { a~b/c: d }
      - op: replace
        path: /spec/template/metadata/labels/app
        value: b
      - op: add
        path: /metadata/labels/app.kubernetes.io~1tier
        value: x
      - op: test
        path: /spec/template/spec/containers/1/image
        value: other:1
      - op: remove
        path: /spec/template/spec/containers/1
`,
    });
    const [app, namespace] = renderKustomization(join(dir, 'overlay')) as [KObject, KObject];
    expect(app.metadata.namespace).toBe('prod');
    expect(namespace.metadata).toEqual({ name: 'prod', labels: { tier: 'backend' } });
    expect(app.metadata.labels).toEqual({ 'app.kubernetes.io/component': 'app', 'app.kubernetes.io/tier': 'x', tier: 'backend' });
    expect(app.metadata.annotations).toEqual({ 'a~b/c': 'd' });
    expect(app.spec.selector.matchLabels).toEqual({ app: 'a' });
    expect(app.spec.template.metadata.labels).toEqual({ app: 'b', tier: 'backend' });
    expect(app.spec.template.spec.containers).toEqual([{ name: 'app', image: `reg.example/kasa@sha256:${'b'.repeat(64)}` }]);
    expect(app.spec.template.spec.initContainers[0].image).toBe(`reg.example/kasa@sha256:${'b'.repeat(64)}`);
  });

  it.each([
    ['a field it does not implement', `${head}resources: [app.yaml]\ncommonLabels: { a: b }\n`, 'field "commonLabels" is not implemented'],
    [
      'a strategic-merge patch',
      `${head}resources: [app.yaml]\npatches: [{ target: { kind: Deployment }, patch: 'metadata: { labels: { a: b } }' }]\n`,
      'strategic-merge',
    ],
    [
      'a patch that matches nothing',
      `${head}resources: [app.yaml]\npatches: [{ target: { kind: Job }, patch: '[{op: remove, path: /spec}]' }]\n`,
      'matches nothing',
    ],
    [
      'a rename without allowNameChange',
      `${head}resources: [app.yaml]\npatches: [{ target: { kind: Deployment, name: ap. }, patch: '[{op: replace, path: /metadata/name, value: b}]' }]\n`,
      'without options.allowNameChange',
    ],
    [
      'a failed test op',
      `${head}resources: [app.yaml]\npatches: [{ target: { kind: Deployment }, patch: '[{op: test, path: /kind, value: Job}]' }]\n`,
      'test failed',
    ],
    [
      'a replace of nothing',
      `${head}resources: [app.yaml]\npatches: [{ target: { kind: Deployment }, patch: '[{op: replace, path: /nope, value: 1}]' }]\n`,
      'nothing there',
    ],
    ['an image nobody uses', `${head}resources: [app.yaml]\nimages: [{ name: nginx, newTag: '1' }]\n`, 'used by no container'],
    [
      'includeSelectors',
      `${head}resources: [app.yaml]\nlabels: [{ pairs: { a: b }, includeSelectors: true }]\n`,
      'includeSelectors is not implemented',
    ],
    ['a remote resource', `${head}resources: ['https://example.com/x.yaml']\n`, 'not a local file'],
    ['the same object twice', `${head}resources: [app.yaml, copy.yaml]\n`, 'defined twice'],
    ['a Namespace object kustomize would rename', `${head}namespace: other\nresources: [app.yaml]\n`, 'kustomize renames it'],
  ])('refuses %s', (_name, kustomization, message) => {
    const dir = tree({ 'kustomization.yaml': kustomization, 'app.yaml': deployment, 'copy.yaml': deployment });
    expect(() => renderKustomization(dir)).toThrow(message);
  });

  it('renames with allowNameChange, selecting by an anchored name pattern', () => {
    const dir = tree({
      'kustomization.yaml': `${head}resources: [app.yaml]\npatches: [{ target: { kind: Deployment, name: ap. }, options: { allowNameChange: true }, patch: '[{op: replace, path: /metadata/name, value: app-2}]' }]\n`,
      'app.yaml': deployment,
    });
    expect(renderKustomization(dir)[0]!.metadata.name).toBe('app-2');
  });

  it('applies JSON patch array operations like RFC 6902', () => {
    const doc = { list: [1, 2, 3] };
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/list/1', value: 9 }])).toEqual({ list: [1, 9, 2, 3] });
    expect(applyJsonPatch(doc, [{ op: 'add', path: '/list/-', value: 4 }])).toEqual({ list: [1, 2, 3, 4] });
    expect(applyJsonPatch(doc, [{ op: 'replace', path: '/list/2', value: 0 }])).toEqual({ list: [1, 2, 0] });
    expect(() => applyJsonPatch(doc, [{ op: 'remove', path: '/list/3' }])).toThrow('out of range');
    expect(() => applyJsonPatch(doc, [{ op: 'move', path: '/a', from: '/list' }])).toThrow('not implemented');
    expect(doc).toEqual({ list: [1, 2, 3] });
  });

  it('matches label selectors as kustomize does', () => {
    expect(selectorMatches('a=b,c!=d', { a: 'b', c: 'x' })).toBe(true);
    expect(selectorMatches('a==b', { a: 'c' })).toBe(false);
    expect(selectorMatches('a,!e', { a: '' })).toBe(true);
  });
});

describe('the NetworkPolicy evaluator', () => {
  const pod = (name: string, labels: Record<string, string>, namespace = 'ns'): PodPeer => ({
    kind: 'pod',
    name,
    namespace,
    namespaceLabels: { 'kubernetes.io/metadata.name': namespace },
    labels,
    ports: [{ name: 'http', containerPort: 8080 }],
  });
  const web = pod('web', { app: 'web' });
  const db = pod('db', { app: 'db' });
  const stranger = pod('stranger', { app: 'web' }, 'other');
  const deny: INetworkPolicy = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'deny', namespace: 'ns' },
    spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'] },
  };
  const allow: INetworkPolicy = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'allow', namespace: 'ns' },
    spec: {
      podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['db'] }] },
      ingress: [{ from: [{ podSelector: { matchLabels: { app: 'web' } } }], ports: [{ port: 'http' }] }],
    },
  };
  const out: INetworkPolicy = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: 'out', namespace: 'ns' },
    spec: {
      podSelector: { matchLabels: { app: 'web' } },
      policyTypes: ['Egress'],
      egress: [
        { to: [{ podSelector: {} }] },
        { to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }], ports: [{ port: 8000, endPort: 8100 }] },
      ],
    },
  };

  it('allows everything until a policy isolates a pod', () => {
    expect(connectionAllowed([], stranger, db, 1)).toBe(true);
    expect(isolated([allow], web, 'Ingress')).toBe(false);
    expect(isolated([allow], db, 'Ingress')).toBe(true);
    expect(isolated([allow], db, 'Egress')).toBe(false);
  });

  it('needs the egress of the sender and the ingress of the receiver', () => {
    const policies = [deny, allow, out];
    expect(connectionAllowed(policies, web, db, 8080)).toBe(true);
    expect(connectionAllowed(policies, web, db, 8081)).toBe(false);
    expect(connectionAllowed([deny, allow], web, db, 8080)).toBe(false);
    expect(connectionAllowed(policies, stranger, db, 8080)).toBe(false);
    expect(connectionAllowed(policies, web, { kind: 'address', name: 'x', ip: '10.2.3.4' }, 8050)).toBe(true);
    expect(connectionAllowed(policies, web, { kind: 'address', name: 'x', ip: '10.1.3.4' }, 8050)).toBe(false);
    expect(connectionAllowed(policies, web, { kind: 'address', name: 'x', ip: '10.2.3.4' }, 8101)).toBe(false);
  });

  it('reads CIDRs of both families and label expressions', () => {
    expect(cidrContains('0.0.0.0/0', '203.0.113.1')).toBe(true);
    expect(cidrContains('169.254.0.0/16', '169.254.169.254')).toBe(true);
    expect(cidrContains('::/0', '203.0.113.1')).toBe(false);
    expect(cidrContains('fc00::/7', 'fd12::1')).toBe(true);
    expect(cidrContains('fc00::/7', '2001:db8::1')).toBe(false);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, { b: '1' })).toBe(true);
    expect(labelSelectorMatches({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['1'] }] }, { a: '1' })).toBe(false);
  });
});

describe('docs/operations.md, Deploying', () => {
  const text = readRepoFile('docs/operations.md');

  it('takes an operator from an empty cluster to running: namespace, Secrets, KEDA, apply, migrate, readiness', () => {
    expect(operationsDocProblems(text, tlsSecretNames(production))).toEqual([]);
  });

  it('creates exactly the Secret keys the manifests read', () => {
    for (const [name, keys] of Object.entries(EXTERNAL_SECRETS)) expect(createdSecretKeys(text, name)?.sort()).toEqual([...keys].sort());
  });

  it('is checked: a command that forgets a key is caught', () => {
    const broken = text.replace(/--from-literal=CURSOR_SIGNING_KEY=/, '--from-literal=CURSOR_KEY=');
    expect(operationsDocProblems(broken, tlsSecretNames(production))).toEqual(
      expect.arrayContaining([expect.stringContaining('kasa-secrets is created without CURSOR_SIGNING_KEY')]),
    );
  });
});

describe('k8s/README.md', () => {
  it('points at the overlay and the operations guide, and names the backlog key', () => {
    const readme = readRepoFile('k8s/README.md');
    expect(readme).toContain('k8s/overlays/production');
    expect(readme).toContain('docs/operations.md');
    expect(readme).toContain('kasa:{bull}:webhook-deliveries:wait');
  });
});
