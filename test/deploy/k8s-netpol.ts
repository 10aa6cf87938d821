/**
 * A NetworkPolicy evaluator (networking.k8s.io/v1 semantics) for the tests: given the policies of a set
 * of namespaces, may `from` open a connection to `to` on a port? A connection passes when the sender's
 * egress and the receiver's ingress both allow it; a pod selected by no policy of a type is not isolated
 * for that type. Peers are pods (namespace, labels, named ports) or addresses outside the cluster
 * (IPv4 or IPv6); `ipBlock` matches addresses only, selectors match pods only.
 */
import type { INetworkPolicy, INetworkPolicyPeer, INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1';

type ILabelSelector = NonNullable<INetworkPolicyPeer['podSelector']>;

export interface PodPeer {
  kind: 'pod';
  /** For messages. */
  name: string;
  namespace: string;
  namespaceLabels: Record<string, string>;
  labels: Record<string, string>;
  ports: Array<{ name?: string; containerPort: number; protocol?: string }>;
}

export interface AddressPeer {
  kind: 'address';
  name: string;
  ip: string;
}

export type Peer = PodPeer | AddressPeer;

export type Protocol = 'TCP' | 'UDP' | 'SCTP';

export function labelSelectorMatches(selector: ILabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const expression of selector.matchExpressions ?? []) {
    const value = labels[expression.key];
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
      default:
        throw new Error(`unknown selector operator ${expression.operator}`);
    }
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Addresses.

function ipv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255)) return undefined;
  return parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n);
}

function ipv6(text: string): bigint | undefined {
  if (!text.includes(':')) return undefined;
  const [head = '', tail, extra] = text.split('::');
  if (extra !== undefined) return undefined;
  const groups = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if ((tail === undefined && missing !== 0) || missing < 0) return undefined;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right];
  if (!all.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  return all.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n);
}

interface Address {
  bits: 32 | 128;
  value: bigint;
}

function parseAddress(text: string): Address | undefined {
  const v4 = ipv4(text);
  if (v4 !== undefined) return { bits: 32, value: v4 };
  const v6 = ipv6(text);
  return v6 === undefined ? undefined : { bits: 128, value: v6 };
}

/** Whether `ip` lies in `cidr` (same family only: an IPv4 address is never in an IPv6 block). */
export function cidrContains(cidr: string, ip: string): boolean {
  const slash = cidr.lastIndexOf('/');
  const network = parseAddress(slash < 0 ? cidr : cidr.slice(0, slash));
  const address = parseAddress(ip);
  if (!network || !address) throw new Error(`cannot parse ${cidr} or ${ip}`);
  if (network.bits !== address.bits) return false;
  const prefix = slash < 0 ? network.bits : Number(cidr.slice(slash + 1));
  const shift = BigInt(network.bits - prefix);
  return network.value >> shift === address.value >> shift;
}

// ---------------------------------------------------------------------------------------------------
// Rules.

function policyTypes(policy: INetworkPolicy): string[] {
  return policy.spec?.policyTypes ?? ['Ingress', ...(policy.spec?.egress ? ['Egress'] : [])];
}

function selects(policy: INetworkPolicy, pod: PodPeer): boolean {
  return (policy.metadata?.namespace ?? 'default') === pod.namespace && labelSelectorMatches(policy.spec?.podSelector, pod.labels);
}

function peerMatches(peer: INetworkPolicyPeer, other: Peer, policyNamespace: string): boolean {
  if (peer.ipBlock) {
    if (other.kind !== 'address') return false;
    return cidrContains(peer.ipBlock.cidr, other.ip) && !(peer.ipBlock.except ?? []).some((cidr) => cidrContains(cidr, other.ip));
  }
  if (other.kind !== 'pod') return false;
  const namespaceOk = peer.namespaceSelector
    ? labelSelectorMatches(peer.namespaceSelector, other.namespaceLabels)
    : other.namespace === policyNamespace;
  return namespaceOk && labelSelectorMatches(peer.podSelector, other.labels);
}

/** `destination` is the pod whose named ports a named port refers to (undefined for an address). */
function portMatches(rulePort: INetworkPolicyPort, port: number, protocol: Protocol, destination: Peer): boolean {
  if ((rulePort.protocol ?? 'TCP') !== protocol) return false;
  if (rulePort.port === undefined) return true;
  let number: number | undefined;
  if (typeof rulePort.port === 'number') number = rulePort.port;
  else if (/^\d+$/.test(rulePort.port)) number = Number(rulePort.port);
  else if (destination.kind === 'pod') {
    number = destination.ports.find((p) => p.name === rulePort.port && (p.protocol ?? 'TCP') === protocol)?.containerPort;
  }
  if (number === undefined) return false;
  return rulePort.endPort === undefined ? port === number : port >= number && port <= rulePort.endPort;
}

function ingressAllows(policies: INetworkPolicy[], from: Peer, to: PodPeer, port: number, protocol: Protocol): boolean {
  const applying = policies.filter((policy) => selects(policy, to) && policyTypes(policy).includes('Ingress'));
  if (applying.length === 0) return true;
  return applying.some((policy) =>
    (policy.spec?.ingress ?? []).some(
      (rule) =>
        (rule.from === undefined || rule.from.length === 0 || rule.from.some((peer) => peerMatches(peer, from, to.namespace))) &&
        (rule.ports === undefined || rule.ports.length === 0 || rule.ports.some((p) => portMatches(p, port, protocol, to))),
    ),
  );
}

function egressAllows(policies: INetworkPolicy[], from: PodPeer, to: Peer, port: number, protocol: Protocol): boolean {
  const applying = policies.filter((policy) => selects(policy, from) && policyTypes(policy).includes('Egress'));
  if (applying.length === 0) return true;
  return applying.some((policy) =>
    (policy.spec?.egress ?? []).some(
      (rule) =>
        (rule.to === undefined || rule.to.length === 0 || rule.to.some((peer) => peerMatches(peer, to, from.namespace))) &&
        (rule.ports === undefined || rule.ports.length === 0 || rule.ports.some((p) => portMatches(p, port, protocol, to))),
    ),
  );
}

/** Whether `from` may open a connection to `to` on `port`. */
export function connectionAllowed(policies: INetworkPolicy[], from: Peer, to: Peer, port: number, protocol: Protocol = 'TCP'): boolean {
  if (from.kind === 'pod' && !egressAllows(policies, from, to, port, protocol)) return false;
  if (to.kind === 'pod' && !ingressAllows(policies, from, to, port, protocol)) return false;
  return true;
}

/** Whether some policy isolates `pod` for `type` (so that only what the policies allow gets through). */
export function isolated(policies: INetworkPolicy[], pod: PodPeer, type: 'Ingress' | 'Egress'): boolean {
  return policies.some((policy) => selects(policy, pod) && policyTypes(policy).includes(type));
}
