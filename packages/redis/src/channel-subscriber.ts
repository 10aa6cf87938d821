import { Redis } from 'ioredis';
import { credentialsOf, type RedisTarget } from './redis-client.js';

/** How often the subscriber asks its Redis whether it is still there: a silently dead link must not look subscribed. */
export const SUBSCRIBER_PING_MS = 2_000;
/** Longest wait before the next connection attempt after a lost or refused one. */
const MAX_RETRY_DELAY_MS = 2_000;

/** What a {@link subscribeChannel} caller is told. */
export interface ChannelListener {
  /** A message published on the channel while subscribed. */
  message(text: string): void;
  /**
   * The subscription is in place (at start and after every reconnect). Messages published while it was not may
   * have been missed: whatever they would have invalidated must be dropped here.
   */
  subscribed(): void;
  /** The subscription is gone (connection closed, failed or silent); messages may be missed until `subscribed`. */
  lost(): void;
  /** A connection error, for the log: a reconnect loop repeats it, so rate-limit the lines (@kasa/logger repeatLimited). */
  error(error: Error): void;
}

export interface ChannelSubscription {
  /** True only while the subscription is confirmed and its connection answers. */
  readonly subscribed: boolean;
  /** Unsubscribes and closes the connection; no listener call after it resolves. */
  close(): Promise<void>;
}

/**
 * Subscribes to one pub/sub channel on its own connection and keeps it subscribed, telling the listener exactly
 * when messages can and cannot be missed. One Redis or a Redis Cluster alike: a cluster broadcasts PUBLISH to
 * every node, so the subscriber talks to one seed node at a time and moves to the next when it loses it. The
 * connection is never reconnected behind the listener's back (no auto-resubscribe): each connection is new, and
 * `subscribed` is called only once its SUBSCRIBE is confirmed. A ping every {@link SUBSCRIBER_PING_MS} that gets
 * no answer within the same time closes the connection, so a link that died without a reset is noticed.
 */
export function subscribeChannel(
  target: RedisTarget,
  channel: string,
  listener: ChannelListener,
  /** CLIENT SETNAME of each connection, to find it in CLIENT LIST. */
  connectionName?: string,
): ChannelSubscription {
  const nodes = target.redisClusterNodes;
  let attempt = 0;
  let current: Redis | null = null;
  let confirmed = false;
  let closed = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let pingTimer: NodeJS.Timeout | undefined;

  const lose = () => {
    clearInterval(pingTimer);
    pingTimer = undefined;
    if (!confirmed) return;
    confirmed = false;
    listener.lost();
  };

  const connect = () => {
    retryTimer = undefined;
    if (closed) return;
    const node = nodes ? nodes[attempt % nodes.length] : undefined;
    const options = {
      autoResubscribe: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: SUBSCRIBER_PING_MS,
      connectTimeout: 2_000,
      retryStrategy: () => null,
      lazyConnect: true,
      ...(connectionName ? { connectionName } : {}),
    };
    const client = node
      ? new Redis({ ...credentialsOf(target.redisUrl), ...options, host: node.host, port: node.port })
      : new Redis(target.redisUrl, options);
    current = client;
    client.on('error', (error: Error) => listener.error(error));
    client.on('message', (from: string, text: string) => {
      if (client === current && confirmed && from === channel) listener.message(text);
    });
    client.on('close', () => {
      if (client !== current) return;
      lose();
    });
    client.once('end', () => {
      if (client !== current || closed) return;
      lose();
      current = null;
      attempt += 1;
      retryTimer = setTimeout(connect, Math.min(MAX_RETRY_DELAY_MS, 100 * 2 ** Math.min(attempt, 5)));
    });
    client
      .connect()
      .then(() => client.subscribe(channel))
      .then(() => {
        if (client !== current || closed) return;
        attempt = 0;
        confirmed = true;
        listener.subscribed();
        pingTimer = setInterval(() => {
          client.ping().catch(() => client.disconnect());
        }, SUBSCRIBER_PING_MS);
      })
      .catch(() => client.disconnect());
  };

  connect();
  return {
    get subscribed() {
      return confirmed;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const client = current;
      lose();
      current = null;
      if (client?.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client?.disconnect();
    },
  };
}
