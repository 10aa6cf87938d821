import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOneOptions, LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import { AllowList, bareAddress, isBlockedAddress } from './address-policy.js';

/** Why a webhook URL was refused. */
export type WebhookUrlProblem = 'invalid_url' | 'scheme' | 'credentials' | 'private_address' | 'unresolvable';

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
  private readonly resolve: Resolver;

  constructor(options: WebhookUrlGuardOptions = {}) {
    this.allowed = new AllowList(options.allowedHosts ?? []);
    this.allowHttp = options.allowHttp ?? false;
    this.resolve = options.resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
  }

  /** Checks everything that needs no DNS: the scheme, credentials, and a literal IP host. */
  checkSyntax(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new WebhookUrlError('invalid_url', 'must be an absolute URL');
    }
    const schemes = this.allowHttp ? ['https:', 'http:'] : ['https:'];
    if (!schemes.includes(url.protocol)) throw new WebhookUrlError('scheme', 'must use https');
    if (url.username !== '' || url.password !== '') {
      throw new WebhookUrlError('credentials', 'must not carry credentials (user:password@)');
    }
    const host = bareAddress(url.hostname);
    if (host === '') throw new WebhookUrlError('invalid_url', 'must name a host');
    if (isIP(host) !== 0) this.assertAddressAllowed(url.hostname, host);
    return url;
  }

  /** {@link checkSyntax}, then resolves a host name and refuses it if any of its addresses is not public. */
  async check(raw: string): Promise<URL> {
    const url = this.checkSyntax(raw);
    const host = bareAddress(url.hostname);
    if (isIP(host) === 0) await this.resolveAllowed(host);
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
