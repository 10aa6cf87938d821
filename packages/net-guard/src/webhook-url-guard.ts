import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import { AllowList, bareAddress, isBlockedAddress } from './address-policy.js';

/** Why a webhook URL was refused. */
export type WebhookUrlProblem = 'invalid_url' | 'characters' | 'scheme' | 'credentials' | 'port' | 'private_address' | 'unresolvable';

/** An inclusive range of TCP ports; a single port is a range of one. */
export interface PortRange {
  from: number;
  to: number;
}

/** 443 and the unprivileged ports: never SSH (22), SMTP (25), port 0 or another well-known service port. */
export const DEFAULT_WEBHOOK_PORTS: readonly PortRange[] = [
  { from: 443, to: 443 },
  { from: 1024, to: 65535 },
];

/**
 * Characters RFC 3986 allows in a URI, `%XX` escapes included. Anything else (spaces, CR/LF and other control
 * characters, `< > " \ { } | ^` and backticks, non-ASCII) is refused rather than left to the WHATWG parser,
 * which silently drops or rewrites it: the stored string would not be the URL called, and it could inject
 * into a log line, a header or a page that shows it.
 */
const URI_TEXT = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})+$/;

/** A refused webhook URL or connection; `message` is safe to show the partner who configured the URL. */
export class WebhookUrlError extends Error {
  /** Node-style error code, so HTTP clients report it like any other connection failure. */
  readonly code = 'ERR_WEBHOOK_ADDRESS_BLOCKED';

  constructor(
    readonly problem: WebhookUrlProblem,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookUrlError';
  }
}

/** Resolves a host name to every address it has (like `dns.lookup` with `all: true`). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export interface WebhookUrlGuardOptions {
  /** Host names, IP addresses and CIDRs exempt from the address check (`WEBHOOK_ALLOWED_HOSTS`). */
  allowedHosts?: readonly string[];
  /** Accept `http:` URLs too (`WEBHOOK_ALLOW_HTTP`, local use only). */
  allowHttp?: boolean;
  /** Ports a URL may name (`WEBHOOK_ALLOWED_PORTS`); {@link DEFAULT_WEBHOOK_PORTS} unless given. No port means 443 (80 for http). */
  allowedPorts?: readonly PortRange[];
  /** The system resolver unless a test injects another. */
  resolve?: Resolver;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The private-address guard for webhook URLs. {@link check} runs when a URL is configured;
 * {@link lookup} is given to the HTTP agent, so the address actually connected to is checked again at
 * connect time and a name that re-resolves to a private address (DNS rebinding) fails.
 */
export class WebhookUrlGuard {
  private readonly allowed: AllowList;
  private readonly allowHttp: boolean;
  private readonly allowedPorts: readonly PortRange[];
  private readonly resolve: Resolver;

  constructor(options: WebhookUrlGuardOptions = {}) {
    this.allowed = new AllowList(options.allowedHosts ?? []);
    this.allowHttp = options.allowHttp ?? false;
    this.allowedPorts = options.allowedPorts ?? DEFAULT_WEBHOOK_PORTS;
    this.resolve = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
  }

  /** Checks everything that needs no DNS: the characters, scheme, credentials, port and a literal IP host. */
  checkSyntax(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new WebhookUrlError('invalid_url', 'must be an absolute URL such as https://partner.example/webhooks');
    }
    if (!URI_TEXT.test(raw)) {
      throw new WebhookUrlError(
        'characters',
        'must contain only URL characters: no spaces, line breaks, double quotes, < > or \\ (percent-encode them)',
      );
    }
    // `https:host` and `https:///host` parse too, into a URL the string does not spell.
    if (!/^[a-z][a-z0-9+.-]*:\/\/[^/]/i.test(raw)) {
      throw new WebhookUrlError('invalid_url', 'must be an absolute URL such as https://partner.example/webhooks');
    }
    const schemes = this.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(url.protocol)) throw new WebhookUrlError('scheme', 'must use https');
    // An `@` in the authority is refused even when empty (`https://:@host`): the host is then easy to misread.
    const authority = /^[^:]+:\/\/([^/?#]*)/.exec(raw)?.[1] ?? '';
    if (url.username !== '' || url.password !== '' || authority.includes('@')) {
      throw new WebhookUrlError('credentials', 'must not carry credentials (user:password@)');
    }
    const host = bareAddress(url.hostname);
    if (host === '') throw new WebhookUrlError('invalid_url', 'must name a host');
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    if (!this.allowedPorts.some((range) => port >= range.from && port <= range.to)) {
      throw new WebhookUrlError('port', `must not use port ${port} (allowed: ${this.allowedPorts.map(describeRange).join(', ')})`);
    }
    if (isIP(host) !== 0) this.assertAddressAllowed(url.hostname, host);
    return url;
  }

  /**
   * {@link checkSyntax}, then resolves a host name and refuses it if any of its addresses is not public. A name
   * in `allowedHosts` is exempt whatever it resolves to, so it is not resolved here (a local receiver's name may
   * have no DNS where the ledger runs); the connect-time {@link lookup} still resolves it.
   */
  async check(raw: string): Promise<URL> {
    const url = this.checkSyntax(raw);
    const host = bareAddress(url.hostname);
    if (isIP(host) === 0 && !this.allowed.hasName(host)) await this.resolveAllowed(host);
    return url;
  }

  /** A `lookup` for `http(s).Agent` / got's `dnsLookup`: resolves, then refuses non-public addresses. */
  readonly lookup = (
    hostname: string,
    options: LookupOneOptions | LookupAllOptions | number | LookupCallback,
    callback?: LookupCallback,
  ): void => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts = typeof options === 'object' ? options : {};
    const wantFamily = typeof options === 'number' ? options : (opts.family ?? 0);
    this.resolveAllowed(hostname).then(
      (addresses) => {
        const usable = wantFamily === 4 || wantFamily === 6 ? addresses.filter((a) => a.family === wantFamily) : addresses;
        if (usable.length === 0) {
          done(Object.assign(new Error(`no IPv${wantFamily} address for ${hostname}`), { code: 'ENOTFOUND' }), []);
          return;
        }
        if (opts.all) done(null, usable);
        else done(null, (usable[0] as LookupAddress).address, (usable[0] as LookupAddress).family);
      },
      (error: NodeJS.ErrnoException) => done(error, []),
    );
  };

  private async resolveAllowed(hostname: string): Promise<LookupAddress[]> {
    const host = bareAddress(hostname);
    if (isIP(host) !== 0) {
      this.assertAddressAllowed(hostname, host);
      return [{ address: host, family: isIP(host) }];
    }
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch {
      throw new WebhookUrlError('unresolvable', `host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new WebhookUrlError('unresolvable', `host ${host} does not resolve`);
    // Every address must pass: a name with one private address among public ones is refused whole.
    for (const { address } of addresses) this.assertAddressAllowed(host, address);
    return addresses;
  }

  private assertAddressAllowed(hostname: string, address: string): void {
    if (this.allowed.hasName(hostname) || this.allowed.hasAddress(address)) return;
    if (isBlockedAddress(address)) {
      throw new WebhookUrlError('private_address', 'must resolve only to public addresses (private, loopback and link-local are refused)');
    }
  }
}

function describeRange(range: PortRange): string {
  return range.from === range.to ? String(range.from) : `${range.from}-${range.to}`;
}

/** A webhook URL's verdict: the parsed URL, or why it is refused (`message` is safe to show who set it). */
export type WebhookUrlVerdict = { ok: true; url: URL } | { ok: false; problem: WebhookUrlProblem; message: string };

/**
 * The one check every path that stores a webhook URL runs (the partner's webhook-config call, ops site
 * creation), so their verdicts cannot differ: characters, scheme, credentials, port, then the addresses the
 * host is or resolves to. A refused URL is a verdict, not an exception; anything else thrown is a bug.
 */
export async function checkWebhookUrl(raw: string, guard: WebhookUrlGuard): Promise<WebhookUrlVerdict> {
  try {
    return { ok: true, url: await guard.check(raw) };
  } catch (error) {
    if (error instanceof WebhookUrlError) return { ok: false, problem: error.problem, message: error.message };
    throw error;
  }
}
