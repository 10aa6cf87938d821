import { BlockList, isIP } from 'node:net';

/** IPv4 ranges a webhook must never reach: private, loopback, link-local, CGNAT, multicast, reserved. */
const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8], // "this network", includes the unspecified address
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata endpoints live here
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes the broadcast address
];

/** IPv6 ranges refused outright; IPv4-mapped and NAT64 well-known-prefix addresses are judged by the IPv4 address inside. */
const BLOCKED_V6: ReadonlyArray<readonly [string, number]> = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['100::', 64], // discard-only
  ['64:ff9b:1::', 48], // NAT64 local-use (RFC 8215): the operator's own translator, which reaches private IPv4 too
  ['64:ff9b::', 32], // the rest of the NAT64 /32 beside the well-known /96 (judged by its IPv4 address instead)
  ['2001::', 32], // Teredo: tunnels to an IPv4 address carried (obfuscated) inside, private ones included
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 can wrap any IPv4 address, private ones included
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [network, prefix] of BLOCKED_V4) blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of BLOCKED_V6) blocked.addSubnet(network, prefix, 'ipv6');

/**
 * The eight 16-bit groups of an IPv6 address in any textual form (`::` compression, leading zeros, a dotted
 * IPv4 tail), or null when `address` is not IPv6. Prefixes are judged on these, never on the text, so a
 * non-canonical spelling such as `0:0:0:0:0:ffff:10.0.0.1` cannot slip past a pattern.
 */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const words = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const [head, tail] = text.split('::');
  const left = words(head);
  if (tail === undefined) return left;
  const right = words(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The IPv4 address embedded in an IPv4-mapped (`::ffff:a.b.c.d`, also `::ffff:0:a.b.c.d`) or NAT64
 * well-known-prefix (`64:ff9b::/96`) address, in any spelling, if any.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const [g0, g1, g2, g3, g4, g5, high = 0, low = 0] = groups;
  const zeroToG3 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  const mapped = zeroToG3 && ((g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0));
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (!mapped && !nat64) return null;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Strips the brackets of an IPv6 URL host and a zone index (`fe80::1%eth0`). */
export function bareAddress(host: string): string {
  const unbracketed = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const zone = unbracketed.indexOf('%');
  return zone >= 0 ? unbracketed.slice(0, zone) : unbracketed;
}

/**
 * True when `address` (an IP literal) is private, loopback, link-local, CGNAT, multicast, unspecified or
 * otherwise not a public unicast address. Anything that is not an IP address at all counts as blocked.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(bare);
  if (inner !== null) return blocked.check(inner, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

/** An allow-list of host names, IP addresses and CIDRs (`WEBHOOK_ALLOWED_HOSTS`), for local development. */
export class AllowList {
  private readonly names = new Set<string>();
  private readonly networks = new BlockList();

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      const [network, prefix] = entry.split('/');
      const address = bareAddress(network as string);
      const family = isIP(address);
      if (family === 0) {
        this.names.add(normalizeHostname(entry));
        continue;
      }
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.networks.addAddress(address, type);
      else this.networks.addSubnet(address, Number(prefix), type);
    }
  }

  /** True for a host name listed by name. */
  hasName(hostname: string): boolean {
    return this.names.has(normalizeHostname(hostname));
  }

  /** True for an address inside a listed address or CIDR. */
  hasAddress(address: string): boolean {
    const bare = bareAddress(address);
    const family = isIP(bare);
    if (family === 0) return false;
    if (this.networks.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return true;
    const inner = family === 6 ? embeddedIpv4(bare) : null;
    return inner !== null && this.networks.check(inner, 'ipv4');
  }
}

/** Lower case without the trailing dot of a fully qualified name. */
export function normalizeHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}
