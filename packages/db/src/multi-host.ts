import pg from 'pg';
import { describeHosts, multiHostUrl, type DatabaseUrl, type HostAddress, type TargetSessionAttrs } from './database-url.js';

/** What a server said about the session it gave: the two facts `target_session_attrs` asks about. */
interface SessionKind {
  /** `pg_is_in_recovery()`: a standby (hot standby, or a primary still being promoted). */
  standby: boolean;
  /** `transaction_read_only`: a standby, or a primary with `default_transaction_read_only` on. */
  readOnly: boolean;
}

async function readSession(client: pg.ClientBase): Promise<SessionKind> {
  const { rows } = await client.query<SessionKind>(
    `SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') = 'on' AS "readOnly"`,
  );
  const row = rows[0];
  if (!row) throw new Error('the server answered no row to the session check');
  return row;
}

/**
 * Whether a session is what `target_session_attrs` asks for, as libpq decides it. `prefer-standby` is tried in
 * two passes: standbys first, then any server.
 */
function fits(attrs: TargetSessionAttrs, session: SessionKind, pass: 'first' | 'fallback'): boolean {
  switch (attrs) {
    case 'any':
      return true;
    case 'read-write':
      return !session.readOnly;
    case 'read-only':
      return session.readOnly;
    case 'primary':
      return !session.standby;
    case 'standby':
      return session.standby;
    case 'prefer-standby':
      return pass === 'fallback' || session.standby;
  }
}

/**
 * No host of the list gave the session asked for. SQLSTATE 08001 (sqlclient_unable_to_establish_sqlconnection),
 * as libpq reports it, so the services answer 503 `service_unavailable` as for any unreachable database.
 */
export class NoFittingHostError extends Error {
  override name = 'NoFittingHostError';
  readonly code = '08001';
}

/**
 * Connects to the first host of `url` that gives the session its `target_session_attrs` asks for, trying them in
 * order with `connectTimeoutMs` each, as libpq does; a host that answers with the wrong kind of session is left
 * at once. Resolves to the connected client and its host; the caller ends the client.
 */
export async function connectFitting(
  url: DatabaseUrl,
  connectTimeoutMs: number,
  config: pg.ClientConfig = {},
): Promise<{ client: pg.Client; host: HostAddress }> {
  const reasons: string[] = [];
  const passes = url.targetSessionAttrs === 'prefer-standby' ? (['first', 'fallback'] as const) : (['first'] as const);
  for (const pass of passes) {
    for (const host of url.hosts) {
      const client = new pg.Client({ ...config, connectionString: url.forHost(host), connectionTimeoutMillis: connectTimeoutMs });
      // A server that dies while we look must not crash the process; the failed call below reports it.
      client.on('error', () => undefined);
      try {
        await client.connect();
        const session = url.targetSessionAttrs === 'any' ? null : await readSession(client);
        if (!session || fits(url.targetSessionAttrs, session, pass)) return { client, host };
        reasons.push(`${describeHosts([host])}: ${session.standby ? 'a standby' : 'read-only'}`);
      } catch (error) {
        reasons.push(`${describeHosts([host])}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await client.end().catch(() => undefined);
    }
  }
  throw new NoFittingHostError(`no host of ${describeHosts(url.hosts)} gave a ${url.targetSessionAttrs} session (${reasons.join('; ')})`);
}

/**
 * Which host a pool's new connections go to: the one last found fitting, while it stays so; else the first fitting
 * host found by trying them in order ({@link connectFitting}). Concurrent connects share one search.
 */
export class HostSelector {
  private chosen: HostAddress | null = null;
  private search: Promise<HostAddress> | null = null;

  constructor(
    readonly url: DatabaseUrl,
    /** How long each host is given to connect. */
    readonly connectTimeoutMs: number,
  ) {}

  /** The first host of the list (a multi-host URL has at least one). */
  get firstHost(): HostAddress {
    const [first] = this.url.hosts;
    if (!first) throw new Error('a multi-host URL names at least one host');
    return first;
  }

  choose(): Promise<HostAddress> {
    if (this.chosen) return Promise.resolve(this.chosen);
    this.search ??= connectFitting(this.url, this.connectTimeoutMs)
      .then(async ({ client, host }) => {
        await client.end().catch(() => undefined);
        this.chosen = host;
        return host;
      })
      .finally(() => {
        this.search = null;
      });
    return this.search;
  }

  /** The host failed a connect or no longer gives the session asked for (a failover): search again next time. */
  forget(host: HostAddress): void {
    if (this.chosen === host) this.chosen = null;
  }

  /** Whether a session from `host` is what the URL asks for (`prefer-standby` takes any, as its fallback would). */
  async check(client: pg.ClientBase, host: HostAddress): Promise<void> {
    if (this.url.targetSessionAttrs === 'any') return;
    const session = await readSession(client);
    if (fits(this.url.targetSessionAttrs, session, 'fallback')) return;
    throw new NoFittingHostError(`${describeHosts([host])} no longer gives a ${this.url.targetSessionAttrs} session`);
  }
}

/**
 * A node-postgres `Client` class for a pool over a multi-host URL: each new connection goes to the host the
 * selector chooses and is checked there before the pool hands it out; a failed connect or a wrong session makes
 * the selector search again, so after a failover the pool's next connections find the promoted server.
 */
export function multiHostClient(selector: HostSelector): new (config?: pg.ClientConfig) => pg.Client {
  return class MultiHostClient extends pg.Client {
    constructor(config: pg.ClientConfig = {}) {
      // The pool's own timeout covers trying every host; this connection is to one host and gets that host's share.
      super({ ...config, connectionTimeoutMillis: selector.connectTimeoutMs });
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: ((err: Error) => void) | ((err: null, client: pg.Client) => void)): void;
    override connect(callback?: ((err: Error) => void) | ((err: null, client: pg.Client) => void)): Promise<pg.Client> | void {
      const connected = this.connectToChosenHost().then(() => this);
      if (!callback) return connected;
      // node-postgres's callback form, which pg-pool uses: called once, with the error or with the client. Both
      // members of the union take an error first; the cast says which one is called.
      const done = callback as (err: Error | null, client?: pg.Client) => void;
      connected.then(
        (client) => done(null, client),
        // Passed on as it came (node-postgres's own error, with its code), never rewrapped.
        (error: unknown) => done(error as Error),
      );
    }

    private async connectToChosenHost(): Promise<void> {
      const host = await selector.choose();
      // pg.Client reads host and port when it connects; both were set from the first host at construction.
      this.host = host.host;
      this.port = host.port;
      // Until the pool has this client it listens for none of its errors, and node-postgres emits a dead socket's
      // error on the client as well as failing the session check: unheard, it would crash the process. The check's
      // own failure reports it.
      const untilPooled = () => undefined;
      this.on('error', untilPooled);
      try {
        await super.connect();
        await selector.check(this, host);
      } catch (error) {
        // The client is dropped; the listener stays, so nothing it still emits is unheard.
        selector.forget(host);
        await this.end().catch(() => undefined);
        throw error;
      }
      this.removeListener('error', untilPooled);
    }
  };
}

/** How long a one-off connection gives each host of a multi-host URL (a plain URL keeps node-postgres's default). */
const ONE_OFF_HOST_TIMEOUT_MS = 5_000;

/**
 * A connected client for one-off work (migrations, creating the database): on the fitting host of a multi-host
 * URL, or exactly as node-postgres connects to a plain URL.
 */
export async function connectClient(connectionString: string): Promise<pg.Client> {
  const url = multiHostUrl(connectionString);
  if (url) return (await connectFitting(url, ONE_OFF_HOST_TIMEOUT_MS)).client;
  const client = new pg.Client({ connectionString });
  await client.connect();
  return client;
}
