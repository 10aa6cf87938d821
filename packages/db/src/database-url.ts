/**
 * PostgreSQL connection URLs as libpq reads them, including its multi-host form
 * `postgresql://user@h1:5432,h2:5433/db?target_session_attrs=read-write`. node-postgres (and the WHATWG URL
 * parser under it) take one host only; this module splits the host list so each host can be tried in turn.
 */

/** libpq's `target_session_attrs`: what kind of session a connection must get to be kept. */
export const TARGET_SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface HostAddress {
  host: string;
  port: number;
}

export interface DatabaseUrl {
  /** The hosts in the order they are tried; one for a plain URL. */
  hosts: HostAddress[];
  targetSessionAttrs: TargetSessionAttrs;
  /** The database named in the path ('' when none). */
  database: string;
  /**
   * True when connecting needs more than node-postgres does alone: several hosts, or a session kind to check.
   * A plain single-host URL is given to node-postgres as it is.
   */
  multiHost: boolean;
  /** The same URL naming one of its hosts, without `target_session_attrs`: what node-postgres is given. */
  forHost(host: HostAddress): string;
  /** The same URL (every host, every parameter) naming another database. */
  withDatabase(name: string): string;
}

/** libpq's default port, used for a host of the list written without one. */
const DEFAULT_PORT = 5432;

// scheme, then the authority (up to the first / ? #), then the rest (path, query, fragment).
const URL_PARTS = /^(postgres(?:ql)?:\/\/)([^/?#]*)(.*)$/i;

/** A problem with a database URL; its message never repeats the URL (it may hold a password). */
export class DatabaseUrlError extends Error {
  override name = 'DatabaseUrlError';
}

/**
 * Splits a PostgreSQL URL into its hosts and the rest. Accepts what libpq accepts in the authority: a comma list
 * of `host`, `host:port` or `[ipv6]:port`. Throws {@link DatabaseUrlError} for an empty host in a list, a bad port
 * or an unknown `target_session_attrs`.
 */
export function parseDatabaseUrl(url: string): DatabaseUrl {
  const parts = URL_PARTS.exec(url);
  if (!parts) throw new DatabaseUrlError('a database URL must start with postgresql:// or postgres://');
  const [, scheme = '', authority = '', withFragment = ''] = parts;
  const rest = withFragment.replace(/#.*$/, '');
  // The user info ends at the last @ of the authority (a password's own @ should be written %40, but URL allows it).
  const at = authority.lastIndexOf('@');
  const userInfo = at === -1 ? '' : authority.slice(0, at + 1);
  const hostList = authority.slice(at + 1);
  const entries = hostList.split(',');
  const multiHostList = entries.length > 1;
  const hosts = multiHostList || hostList !== '' ? entries.map((entry) => parseHost(entry, multiHostList)) : [];

  const [pathPart = '', ...queryParts] = rest.split('?');
  const search = queryParts.join('?');
  const query = new URLSearchParams(search);
  const attrs = query.get('target_session_attrs') ?? 'any';
  if (!(TARGET_SESSION_ATTRS as readonly string[]).includes(attrs)) {
    throw new DatabaseUrlError(`target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')}, got "${attrs}"`);
  }
  const targetSessionAttrs = attrs as TargetSessionAttrs; // checked against the list just above
  if (hosts.length === 0 && targetSessionAttrs !== 'any') throw new DatabaseUrlError('target_session_attrs needs the hosts in the URL');
  query.delete('target_session_attrs');
  const queryString = query.toString();
  const tail = (path: string, search: string) => `${path}${search ? `?${search}` : ''}`;
  const database = decodeURIComponent(pathPart.replace(/^\//, ''));

  return {
    hosts,
    targetSessionAttrs,
    database,
    multiHost: hosts.length > 1 || targetSessionAttrs !== 'any',
    forHost: (host) => `${scheme}${userInfo}${formatHost(host)}${tail(pathPart, queryString)}`,
    withDatabase: (name) => `${scheme}${authority}${tail(`/${encodeURIComponent(name)}`, search)}`,
  };
}

/**
 * The parsed URL when it needs {@link parseDatabaseUrl}'s handling (several hosts, or a `target_session_attrs`);
 * null for anything else, which node-postgres is given untouched, exactly as before multi-host support.
 */
export function multiHostUrl(connectionString: string): DatabaseUrl | null {
  const parts = URL_PARTS.exec(connectionString);
  if (!parts || !(parts[2]?.includes(',') || /[?&]target_session_attrs=/.test(parts[3] ?? ''))) return null;
  const url = parseDatabaseUrl(connectionString);
  return url.multiHost ? url : null;
}

function parseHost(entry: string, inList: boolean): HostAddress {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d*))?$/.exec(entry);
  if (!match) throw new DatabaseUrlError(inList ? "a host in the URL's comma list is empty or malformed" : "the URL's host is malformed");
  const [, host = '', portText] = match;
  const port = portText === undefined || portText === '' ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new DatabaseUrlError(`port ${portText} is not within 1-65535`);
  return { host: decodeURIComponent(host.replace(/^\[(.*)\]$/, '$1')), port };
}

function formatHost({ host, port }: HostAddress): string {
  return `${host.includes(':') ? `[${host}]` : encodeURIComponent(host)}:${port}`;
}

/** `h1:5432,h2:5433`, for messages (never the user info). */
export function describeHosts(hosts: readonly HostAddress[]): string {
  return hosts.map(formatHost).join(',');
}
