import { describe, expect, it } from '@jest/globals';
import { readRepoFile } from './common.js';
import {
  PLACEHOLDER,
  QUEUE_METRIC,
  k8sProblems,
  loadManifestSet,
  manifestSchemaProblems,
  readmeProblems,
  type ManifestSet,
} from './k8s-checks.js';

// Loose access for editing copies of the manifests.
type Node = Record<string, any>;

const original = loadManifestSet();

function copy(): ManifestSet {
  return JSON.parse(JSON.stringify(original)) as ManifestSet;
}

/** The first document of `kind` named `name` in a copy. */
function find(set: ManifestSet, kind: string, name: string): Node {
  for (const file of set.files) {
    for (const doc of file.docs as Node[]) {
      if (doc.kind === kind && doc.metadata?.name === name) return doc;
    }
  }
  throw new Error(`no ${kind}/${name}`);
}

const container = (set: ManifestSet, deployment: string): Node => find(set, 'Deployment', deployment).spec.template.spec.containers[0];

describe('k8s manifests', () => {
  const documents = original.files.flatMap(({ file, docs }) =>
    docs.map((doc, index) => [`${file}#${index + 1} ${(doc as Node).kind}/${(doc as Node).metadata?.name}`, doc] as const),
  );

  it('exist', () => {
    expect(documents.length).toBeGreaterThanOrEqual(16);
  });

  it.each(documents)('%s is valid against the Kubernetes API schema', (where, doc) => {
    expect(manifestSchemaProblems(doc, where)).toEqual([]);
  });

  it('fit together: kustomization, selectors, ports, probes, security, env references, HPAs, PDBs', () => {
    expect(k8sProblems(original)).toEqual([]);
  });

  it('scale the webhook-worker on the external queue-depth metric', () => {
    const hpa = find(original, 'HorizontalPodAutoscaler', 'kasa-webhook-worker');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'kasa-webhook-worker' });
    expect(hpa.spec.metrics).toEqual([
      expect.objectContaining({ type: 'External', external: expect.objectContaining({ metric: { name: QUEUE_METRIC } }) }),
    ]);
  });

  it('give the worker 60 s to finish in-flight deliveries', () => {
    expect(find(original, 'Deployment', 'kasa-webhook-worker').spec.template.spec.terminationGracePeriodSeconds).toBe(60);
  });

  it('keep only placeholders in the Secret', () => {
    const secret = find(original, 'Secret', 'kasa-secrets');
    for (const value of Object.values(secret.data as Record<string, string>)) {
      expect(Buffer.from(value, 'base64').toString()).toBe(PLACEHOLDER);
    }
  });

  it('document where the queue metric comes from, with a prometheus-adapter rule', () => {
    expect(readmeProblems(readRepoFile('k8s/README.md'))).toEqual([]);
  });
});

describe('the k8s checks reject broken copies', () => {
  const cases: Array<[string, (set: ManifestSet) => void, string]> = [
    ['a containerPort that is not a number', (set) => (container(set, 'kasa-ledger').ports[0].containerPort = 'http'), 'is invalid'],
    ['replicas as a word', (set) => (find(set, 'Deployment', 'kasa-console').spec.replicas = 'one'), 'is invalid'],
    ['a Deployment without a selector', (set) => delete find(set, 'Deployment', 'kasa-console').spec.selector, 'is invalid'],
    [
      'an old apiVersion',
      (set) => (find(set, 'Deployment', 'kasa-ledger').apiVersion = 'extensions/v1beta1'),
      'unexpected apiVersion/kind',
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
    [
      'a selector that misses the pod labels',
      (set) => (find(set, 'Deployment', 'kasa-gateway').spec.template.metadata.labels['app.kubernetes.io/component'] = 'edge'),
      'selector does not match the pod template labels',
    ],
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
      'envFrom a missing Secret',
      (set) => (container(set, 'kasa-ledger').envFrom[1].secretRef.name = 'kasa-secret'),
      'envFrom missing Secret kasa-secret',
    ],
    [
      'a secretKeyRef to a missing key',
      (set) =>
        (container(set, 'kasa-gateway').env = [
          { name: 'INTERNAL_TOKEN', valueFrom: { secretKeyRef: { name: 'kasa-secrets', key: 'INTERNAL_TOKN' } } },
        ]),
      'missing Secret key kasa-secrets/INTERNAL_TOKN',
    ],
    [
      'a configMapKeyRef to a missing key',
      (set) =>
        (container(set, 'kasa-gateway').env = [
          { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'kasa-config', key: 'LOGLEVEL' } } },
        ]),
      'missing ConfigMap key kasa-config/LOGLEVEL',
    ],
    [
      'a real secret in git',
      (set) => (find(set, 'Secret', 'kasa-secrets').data.INTERNAL_TOKEN = Buffer.from('9f86d081884c7d659a2feaa0').toString('base64')),
      'not the placeholder',
    ],
    ['a secret in the ConfigMap', (set) => (find(set, 'ConfigMap', 'kasa-config').data.OPS_BOOTSTRAP_TOKEN = 'x'), 'belongs in the Secret'],
    [
      'a missing configuration variable',
      (set) => delete find(set, 'ConfigMap', 'kasa-config').data.WEBHOOK_TIMEOUT_MS,
      'WEBHOOK_TIMEOUT_MS is not set',
    ],
    [
      'a value the config rejects',
      (set) => (find(set, 'ConfigMap', 'kasa-config').data.WEBHOOK_ALLOW_HTTP = 'no'),
      'refuse to start: WEBHOOK_ALLOW_HTTP',
    ],
    [
      'a misspelt variable',
      (set) => (find(set, 'ConfigMap', 'kasa-config').data.WEBHOOK_ALLOWED_HOST = ''),
      'WEBHOOK_ALLOWED_HOST is not a variable',
    ],
    [
      'an HPA aimed at nothing',
      (set) => (find(set, 'HorizontalPodAutoscaler', 'kasa-webhook-worker').spec.scaleTargetRef.name = 'worker'),
      'scaleTargetRef',
    ],
    [
      'the worker HPA on another metric',
      (set) => (find(set, 'HorizontalPodAutoscaler', 'kasa-webhook-worker').spec.metrics[0].external.metric.name = 'queue_depth'),
      `External metric ${QUEUE_METRIC}`,
    ],
    [
      'a gateway HPA without CPU',
      (set) => (find(set, 'HorizontalPodAutoscaler', 'kasa-gateway').spec.metrics[0].resource.name = 'memory'),
      'kasa-gateway on CPU',
    ],
    [
      'a replicas field fighting the HPA',
      (set) => (find(set, 'Deployment', 'kasa-gateway').spec.replicas = 3),
      'sets replicas although an HPA owns them',
    ],
    ['one ledger replica', (set) => (find(set, 'Deployment', 'kasa-ledger').spec.replicas = 1), 'expected 2'],
    [
      'a kustomization missing a file',
      (set) => ((set.kustomization as Node).resources = (set.kustomization as Node).resources.filter((r: string) => r !== 'pdb.yaml')),
      'does not list pdb.yaml',
    ],
    [
      'a kustomization listing a missing file',
      (set) => (set.kustomization as Node).resources.push('ingress.yaml'),
      'lists missing ingress.yaml',
    ],
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
      'a short worker grace period',
      (set) => (find(set, 'Deployment', 'kasa-webhook-worker').spec.template.spec.terminationGracePeriodSeconds = 30),
      'terminationGracePeriodSeconds',
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
    [
      'a manifest outside the namespace',
      (set) => delete find(set, 'Service', 'kasa-gateway').metadata.namespace,
      'is not in namespace kasa',
    ],
    [
      'a LEDGER_URL on the wrong port',
      (set) => (find(set, 'ConfigMap', 'kasa-config').data.LEDGER_URL = 'http://kasa-ledger'),
      'LEDGER_URL',
    ],
    ['another image', (set) => (container(set, 'kasa-console').image = 'nginx:latest'), 'is not the Kasa image'],
    [
      'a wrong migrate command',
      (set) => (find(set, 'Job', 'kasa-migrate').spec.template.spec.containers[0].command = ['npx', 'prisma', 'migrate', 'deploy']),
      'no Job runs',
    ],
  ];

  it.each(cases)('%s', (_name, mutate, expected) => {
    const set = copy();
    mutate(set);
    expect(k8sProblems(set)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });

  it('a README without the adapter rule', () => {
    expect(readmeProblems('# Kasa\nScaled on kasa_webhook_queue_waiting.')).not.toEqual([]);
  });
});
