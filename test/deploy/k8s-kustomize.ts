/**
 * A small kustomize renderer, so the tests can check what `kubectl apply -k` would send without the
 * kustomize binary. It implements only the kustomization fields k8s/ uses, with kustomize's semantics and
 * order (a kustomization builds its resources, bases included, then runs patches, namespace, labels and
 * images on the result), and refuses every other field instead of ignoring it:
 *
 * - `resources`: YAML files (one or more documents) and directories holding a kustomization.yaml.
 * - `namespace`: set on every namespaced object. What kustomize does beyond that (renaming a Namespace
 *   object, rewriting RoleBinding subjects) is not implemented: such objects are refused.
 * - `labels`: `pairs` added to metadata.labels and, with `includeTemplates`, to pod templates.
 *   `includeSelectors: true` (which rewrites immutable selectors) is refused.
 * - `images`: `name` matched against each container image's name; `newName`, `newTag`, `digest`.
 * - `patches`: JSON 6902 patches (inline `patch` or `path`) with a `target` (group, version, kind, name as
 *   an anchored regular expression, namespace, labelSelector / annotationSelector with =, ==, !=); ops
 *   add, remove, replace and test. `options.allowNameChange` / `allowKindChange` as in kustomize.
 *   Strategic-merge patches are refused.
 *
 * Stricter than kustomize on purpose: a patch whose target matches nothing is an error, as is an image
 * entry that changes nothing.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export type KObject = Record<string, any>;

const SUPPORTED_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);

/** Kinds without a namespace (those a Kasa overlay could plausibly contain). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
  'ClusterTriggerAuthentication',
]);

/** Workload kinds and where their pod template sits (for `labels.includeTemplates`). */
const POD_TEMPLATE_PATHS: Record<string, string[][]> = {
  Deployment: [['spec', 'template']],
  StatefulSet: [['spec', 'template']],
  DaemonSet: [['spec', 'template']],
  ReplicaSet: [['spec', 'template']],
  Job: [['spec', 'template']],
  CronJob: [['spec', 'jobTemplate', 'spec', 'template']],
};

export class KustomizeError extends Error {
  override name = 'KustomizeError';
}

function isObject(value: unknown): value is KObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** `group/version` of an object's apiVersion; the core group is "". */
function groupVersion(apiVersion: unknown): { group: string; version: string } {
  const text = String(apiVersion ?? '');
  const slash = text.indexOf('/');
  return slash < 0 ? { group: '', version: text } : { group: text.slice(0, slash), version: text.slice(slash + 1) };
}

export function resourceId(obj: KObject): string {
  return `${String(obj.kind)}/${String(obj.metadata?.namespace ?? '~')}/${String(obj.metadata?.name)}`;
}

function parseYamlDocuments(text: string, where: string): KObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new KustomizeError(`${where}: ${doc.errors.map((error) => error.message).join('; ')}`);
      return doc.toJS() as unknown;
    })
    .filter((doc) => doc !== null && doc !== undefined)
    .map((doc) => {
      if (!isObject(doc) || typeof doc.kind !== 'string' || !isObject(doc.metadata) || typeof doc.metadata.name !== 'string') {
        throw new KustomizeError(`${where}: every document must be an object with kind and metadata.name`);
      }
      return doc;
    });
}

// ---------------------------------------------------------------------------------------------------
// Selectors and targets.

/** kustomize's label/annotation selector subset: comma-separated `k=v`, `k==v`, `k!=v`, `k`, `!k`. */
export function selectorMatches(selector: string, labels: Record<string, string> | undefined): boolean {
  return selector
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .every((part) => {
      const notEqual = /^([^!=\s]+)\s*!=\s*(.*)$/.exec(part);
      if (notEqual) return labels?.[notEqual[1]!] !== notEqual[2];
      const equal = /^([^!=\s]+)\s*==?\s*(.*)$/.exec(part);
      if (equal) return labels?.[equal[1]!] === equal[2];
      if (part.startsWith('!')) return labels?.[part.slice(1)] === undefined;
      if (/^[^!=\s]+$/.test(part)) return labels?.[part] !== undefined;
      throw new KustomizeError(`unsupported selector "${part}"`);
    });
}

interface Target {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

function targetMatches(target: Target, obj: KObject): boolean {
  const { group, version } = groupVersion(obj.apiVersion);
  const anchored = (pattern: string, value: unknown): boolean => new RegExp(`^(?:${pattern})$`).test(String(value ?? ''));
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  if (target.kind !== undefined && !anchored(target.kind, obj.kind)) return false;
  if (target.name !== undefined && !anchored(target.name, obj.metadata?.name)) return false;
  if (target.namespace !== undefined && !anchored(target.namespace, obj.metadata?.namespace)) return false;
  if (target.labelSelector !== undefined && !selectorMatches(target.labelSelector, obj.metadata?.labels)) return false;
  if (target.annotationSelector !== undefined && !selectorMatches(target.annotationSelector, obj.metadata?.annotations)) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// JSON 6902.

export interface JsonPatchOp {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new KustomizeError(`JSON pointer "${path}" must start with /`);
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function arrayIndex(container: unknown[], token: string, forAdd: boolean): number {
  if (forAdd && token === '-') return container.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new KustomizeError(`"${token}" is not an array index`);
  const index = Number(token);
  if (index > container.length || (!forAdd && index === container.length)) throw new KustomizeError(`index ${index} is out of range`);
  return index;
}

/** Applies RFC 6902 operations (add, remove, replace, test) to a copy of `doc` and returns it. */
export function applyJsonPatch(doc: KObject, ops: JsonPatchOp[]): KObject {
  const root = clone(doc);
  for (const operation of ops) {
    if (!isObject(operation) || typeof operation.op !== 'string' || typeof operation.path !== 'string') {
      throw new KustomizeError(`not a JSON patch operation: ${JSON.stringify(operation)}`);
    }
    const tokens = pointer(operation.path);
    if (tokens.length === 0) throw new KustomizeError('patching the whole document is not supported');
    const parentTokens = tokens.slice(0, -1);
    const last = tokens[tokens.length - 1]!;
    let parent: unknown = root;
    for (const token of parentTokens) {
      if (Array.isArray(parent)) parent = parent[arrayIndex(parent, token, false)];
      else if (isObject(parent) && token in parent) parent = parent[token];
      else throw new KustomizeError(`${operation.op} ${operation.path}: ${token} does not exist`);
    }
    const at = `${operation.op} ${operation.path}`;
    switch (operation.op) {
      case 'add':
        if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true), 0, clone(operation.value));
        else if (isObject(parent)) parent[last] = clone(operation.value);
        else throw new KustomizeError(`${at}: the parent is not an object or array`);
        break;
      case 'replace':
      case 'remove':
      case 'test': {
        let exists: boolean;
        let current: unknown;
        if (Array.isArray(parent)) {
          const index = arrayIndex(parent, last, false);
          exists = true;
          current = parent[index];
          if (operation.op === 'replace') parent[index] = clone(operation.value);
          if (operation.op === 'remove') parent.splice(index, 1);
        } else if (isObject(parent)) {
          exists = last in parent;
          current = parent[last];
          if (exists && operation.op === 'replace') parent[last] = clone(operation.value);
          if (exists && operation.op === 'remove') delete parent[last];
        } else {
          throw new KustomizeError(`${at}: the parent is not an object or array`);
        }
        if (!exists) throw new KustomizeError(`${at}: nothing there`);
        if (operation.op === 'test' && JSON.stringify(current) !== JSON.stringify(operation.value)) {
          throw new KustomizeError(`${at}: test failed`);
        }
        break;
      }
      default:
        throw new KustomizeError(`${at}: op "${operation.op}" is not implemented (add, remove, replace, test)`);
    }
  }
  return root;
}

// ---------------------------------------------------------------------------------------------------
// Images.

export interface ImageRef {
  name: string;
  tag?: string;
  digest?: string;
}

/** `registry:5000/path/name:tag@sha256:...` into name, tag and digest. */
export function parseImage(image: string): ImageRef {
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  return { name: rest, tag, digest };
}

export function formatImage(ref: ImageRef): string {
  return `${ref.name}${ref.tag !== undefined ? `:${ref.tag}` : ''}${ref.digest !== undefined ? `@${ref.digest}` : ''}`;
}

interface ImageSetting {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

function setImage(image: string, setting: ImageSetting): string {
  const ref = parseImage(image);
  const name = setting.newName ?? ref.name;
  if (setting.digest !== undefined) return formatImage({ name, digest: setting.digest });
  if (setting.newTag !== undefined) return formatImage({ name, tag: setting.newTag });
  return formatImage({ ...ref, name });
}

/** Every container list in an object (pod specs at any depth), as kustomize's image transformer finds them. */
function containerLists(node: unknown, out: KObject[][] = []): KObject[][] {
  if (Array.isArray(node)) node.forEach((item) => containerLists(item, out));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) out.push(value.filter(isObject));
      containerLists(value, out);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The build.

function readKustomization(dir: string): KObject {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((name) => join(dir, name)).find((path) => existsSync(path));
  if (!file) throw new KustomizeError(`${dir}: no kustomization.yaml`);
  const kustomization = parse(readFileSync(file, 'utf8')) as unknown;
  if (!isObject(kustomization)) throw new KustomizeError(`${file}: not a mapping`);
  if (kustomization.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || kustomization.kind !== 'Kustomization') {
    throw new KustomizeError(`${file}: not a kustomize.config.k8s.io/v1beta1 Kustomization`);
  }
  for (const field of Object.keys(kustomization)) {
    if (!SUPPORTED_FIELDS.has(field)) throw new KustomizeError(`${file}: field "${field}" is not implemented by this renderer`);
  }
  return kustomization;
}

function loadResources(dir: string, kustomization: KObject, seen: Set<string>): KObject[] {
  const objects: KObject[] = [];
  for (const entry of (kustomization.resources ?? []) as unknown[]) {
    if (typeof entry !== 'string' || /^[a-z]+:\/\//i.test(entry) || entry.startsWith('github.com/')) {
      throw new KustomizeError(`${dir}: resource ${JSON.stringify(entry)} is not a local file or directory`);
    }
    const path = resolve(dir, entry);
    if (!existsSync(path)) throw new KustomizeError(`${dir}: resource ${entry} does not exist`);
    const loaded = statSync(path).isDirectory() ? build(path, seen) : parseYamlDocuments(readFileSync(path, 'utf8'), path);
    for (const obj of loaded) {
      if (objects.some((other) => resourceId(other) === resourceId(obj))) {
        throw new KustomizeError(`${dir}: ${resourceId(obj)} is defined twice`);
      }
      objects.push(obj);
    }
  }
  return objects;
}

function applyPatches(dir: string, kustomization: KObject, objects: KObject[]): KObject[] {
  let result = objects;
  for (const [index, entry] of ((kustomization.patches ?? []) as unknown[]).entries()) {
    const at = `${dir}: patches[${index}]`;
    if (!isObject(entry)) throw new KustomizeError(`${at}: not a mapping`);
    const text =
      typeof entry.patch === 'string'
        ? entry.patch
        : typeof entry.path === 'string'
          ? readFileSync(resolve(dir, entry.path), 'utf8')
          : undefined;
    if (text === undefined) throw new KustomizeError(`${at}: neither patch nor path`);
    const ops = parse(text) as unknown;
    if (!Array.isArray(ops)) throw new KustomizeError(`${at}: strategic-merge patches are not implemented; use a JSON 6902 patch`);
    if (!isObject(entry.target)) throw new KustomizeError(`${at}: a JSON 6902 patch needs a target`);
    const target = entry.target as Target;
    const options = isObject(entry.options) ? entry.options : {};
    let matched = 0;
    result = result.map((obj) => {
      if (!targetMatches(target, obj)) return obj;
      matched += 1;
      const patched = applyJsonPatch(obj, ops as JsonPatchOp[]);
      if (patched.metadata?.name !== obj.metadata?.name && options.allowNameChange !== true) {
        throw new KustomizeError(`${at}: changes the name of ${resourceId(obj)} without options.allowNameChange`);
      }
      if (patched.kind !== obj.kind && options.allowKindChange !== true) {
        throw new KustomizeError(`${at}: changes the kind of ${resourceId(obj)} without options.allowKindChange`);
      }
      return patched;
    });
    if (matched === 0) throw new KustomizeError(`${at}: the target ${JSON.stringify(target)} matches nothing`);
  }
  return result;
}

function applyNamespace(kustomization: KObject, objects: KObject[]): void {
  if (kustomization.namespace === undefined) return;
  const namespace = String(kustomization.namespace);
  for (const obj of objects) {
    if (obj.kind === 'Namespace' && obj.metadata.name !== namespace) {
      throw new KustomizeError(
        `Namespace ${String(obj.metadata.name)} under namespace: ${namespace} is not implemented (kustomize renames it)`,
      );
    }
    if (obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding') {
      throw new KustomizeError(`${resourceId(obj)} under namespace: ${namespace} is not implemented (kustomize rewrites its subjects)`);
    }
    if (!CLUSTER_SCOPED.has(String(obj.kind))) obj.metadata.namespace = namespace;
  }
}

function applyLabels(dir: string, kustomization: KObject, objects: KObject[]): void {
  for (const entry of (kustomization.labels ?? []) as unknown[]) {
    if (!isObject(entry) || !isObject(entry.pairs)) throw new KustomizeError(`${dir}: labels entries need pairs`);
    if (entry.includeSelectors === true)
      throw new KustomizeError(`${dir}: labels.includeSelectors is not implemented (it rewrites immutable selectors)`);
    const pairs = Object.fromEntries(Object.entries(entry.pairs).map(([key, value]) => [key, String(value)]));
    for (const obj of objects) {
      obj.metadata.labels = { ...(obj.metadata.labels ?? {}), ...pairs };
      if (entry.includeTemplates !== true) continue;
      for (const path of POD_TEMPLATE_PATHS[String(obj.kind)] ?? []) {
        let template: unknown = obj;
        for (const key of path) template = isObject(template) ? template[key] : undefined;
        if (isObject(template)) {
          template.metadata = isObject(template.metadata) ? template.metadata : {};
          template.metadata.labels = { ...(template.metadata.labels ?? {}), ...pairs };
        }
      }
    }
  }
}

function applyImages(dir: string, kustomization: KObject, objects: KObject[]): void {
  for (const entry of (kustomization.images ?? []) as unknown[]) {
    if (!isObject(entry) || typeof entry.name !== 'string') throw new KustomizeError(`${dir}: images entries need a name`);
    const setting = entry as unknown as ImageSetting;
    let changed = 0;
    for (const obj of objects) {
      for (const containers of containerLists(obj)) {
        for (const container of containers) {
          if (typeof container.image === 'string' && parseImage(container.image).name === setting.name) {
            container.image = setImage(container.image, setting);
            changed += 1;
          }
        }
      }
    }
    if (changed === 0) throw new KustomizeError(`${dir}: image ${setting.name} is used by no container`);
  }
}

function build(dir: string, seen: Set<string>): KObject[] {
  const absolute = resolve(dir);
  if (seen.has(absolute)) throw new KustomizeError(`${absolute}: kustomization cycle`);
  const kustomization = readKustomization(absolute);
  const objects = applyPatches(absolute, kustomization, loadResources(absolute, kustomization, new Set([...seen, absolute])));
  applyNamespace(kustomization, objects);
  applyLabels(absolute, kustomization, objects);
  applyImages(absolute, kustomization, objects);
  return objects;
}

/** What `kustomize build <dir>` (and so `kubectl apply -k <dir>`) produces, for the fields above. */
export function renderKustomization(dir: string): KObject[] {
  return build(dir, new Set());
}

/** The parsed kustomization.yaml of a directory (checked as the renderer checks it). */
export function loadKustomization(dir: string): KObject {
  return readKustomization(resolve(dir));
}
