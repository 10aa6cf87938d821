import type { SharedSiteHealth, SiteHealthStore } from './site-health.js';

/**
 * Partner isolation inside one worker process (docs/adr/0017-webhook-partner-isolation.md). The worker's
 * BullMQ concurrency is its delivery capacity; an attempt to an endpoint that never answers holds one slot
 * for the whole timeout. So a site's share of the slots follows how its endpoint behaves:
 *
 * - a site seen for the first time gets one slot, and one more per delivered attempt (its share doubles
 *   per round trip) up to `perSite` (slow start): a partner that hangs from the start holds one slot, not ten;
 * - a site whose last finished attempt failed gets one slot, taken from the failing lane: at most
 *   `failingLane` attempts in flight over all such sites (attempts unanswered for `slowMs` count there too);
 * - a site whose attempt went unanswered (timed out, or took longer than `slowMs`) is paused (the breaker):
 *   no attempt until `cooldown` has passed, doubling per unanswered attempt in a row up to `maxCooldownMs`;
 *   then one attempt finds out whether it answers again;
 * - a site with an attempt unanswered for `slowMs` gets no further slot until that attempt ends.
 *
 * A refused job is deferred by the caller (moved to BullMQ's delayed set without using an attempt) until
 * `retryAt`. The in-flight counts are this process's own (they measure its capacity); the health (failing,
 * breaker) is shared through `store`, so that a replica that starts (or restarts) knows the failing sites
 * instead of spending a timeout on each to find out, and one replica's finding pauses the site in all.
 */
export interface SiteSlotsOptions {
  /** Most attempts in flight to one site that answers (WEBHOOK_SITE_CONCURRENCY). */
  perSite: number;
  /** Most attempts in flight, over all sites, to sites that are failing or not answering. */
  failingLane: number;
  /** One attempt's whole time (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** An attempt unanswered this long counts as not answering; default half the timeout. */
  slowMs?: number;
  /** First breaker pause; default the timeout. */
  cooldownMs?: number;
  /** Longest breaker pause; default 5 minutes (never less than `cooldownMs`). */
  maxCooldownMs?: number;
  /** Shared health across replicas; without one, each process learns on its own. */
  store?: SiteHealthStore | null;
  /** How often a site's shared health is read again while it is in use. */
  refreshMs?: number;
  /** Epoch milliseconds (tests pin it). */
  now?: () => number;
  /** In [0, 1) (tests pin it): spreads deferred jobs so they do not come back together. */
  random?: () => number;
}

/** A held slot; hand it back with {@link SiteSlots.release} (once; later calls do nothing). */
export interface SlotTicket {
  readonly siteId: string;
  readonly startedAt: number;
}

/** Why a job was not given a slot: the site is at its share, paused by the breaker, or the failing lane is full. */
export type DeferReason = 'busy' | 'failing' | 'lane';

export type Admission = { ok: true; ticket: SlotTicket } | { ok: false; reason: DeferReason; retryAt: number };

/** What an attempt said about its site: `none` when it never reached the network (no URL, no secret). */
export type SlotOutcome = 'delivered' | 'failed' | 'none';

interface SiteState {
  inFlight: Set<SlotTicket>;
  /** Slow-start share while the site answers. */
  limit: number;
  failing: boolean;
  strikes: number;
  openUntil: number;
  /** When the health last changed, here or (read from the store) in another replica. */
  changedAt: number;
  syncedAt: number;
  syncing: Promise<void> | undefined;
  lastUsed: number;
}

const MIN_DEFER_MS = 50;
const FORGET_AFTER_MS = 15 * 60_000;

export class SiteSlots {
  private readonly sites = new Map<string, SiteState>();
  /** Sites with attempts in flight, for the failing-lane count. */
  private readonly active = new Set<SiteState>();
  private readonly slowMs: number;
  private readonly cooldownMs: number;
  private readonly maxCooldownMs: number;
  private readonly refreshMs: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private lastPrune = 0;

  constructor(private readonly options: SiteSlotsOptions) {
    this.slowMs = options.slowMs ?? Math.ceil(options.timeoutMs / 2);
    this.cooldownMs = options.cooldownMs ?? options.timeoutMs;
    this.maxCooldownMs = Math.max(this.cooldownMs, options.maxCooldownMs ?? 300_000);
    this.refreshMs = options.refreshMs ?? 2_000;
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  /** Reads the site's shared health when it is new here or stale, then {@link tryAcquire}. */
  async acquire(siteId: string): Promise<Admission> {
    await this.sync(siteId);
    return this.tryAcquire(siteId);
  }

  /** Takes a slot for `siteId` if its share allows, from local knowledge only. */
  tryAcquire(siteId: string): Admission {
    const now = this.now();
    this.prune(now);
    const site = this.state(siteId, now);
    site.lastUsed = now;
    if (site.failing && now < site.openUntil) {
      return { ok: false, reason: 'failing', retryAt: site.openUntil + Math.floor(this.random() * this.spread(site)) };
    }
    const oldest = this.oldestStart(site);
    const limit = site.failing ? 1 : site.limit;
    if (site.inFlight.size >= limit || (oldest !== undefined && now - oldest >= this.slowMs)) {
      return { ok: false, reason: 'busy', retryAt: now + this.jitter(this.busyWait(site, now, oldest ?? now)) };
    }
    if (site.failing) {
      const lane = this.lane(now);
      if (lane.count >= this.options.failingLane) {
        return { ok: false, reason: 'lane', retryAt: now + this.jitter(Math.max(MIN_DEFER_MS * 4, lane.firstDeadline - now)) };
      }
    }
    const ticket: SlotTicket = { siteId, startedAt: now };
    site.inFlight.add(ticket);
    this.active.add(site);
    return { ok: true, ticket };
  }

  /** Hands a slot back with what the attempt said about the site. */
  release(ticket: SlotTicket, outcome: SlotOutcome): void {
    const site = this.sites.get(ticket.siteId);
    if (!site?.inFlight.delete(ticket)) return;
    if (site.inFlight.size === 0) this.active.delete(site);
    const now = this.now();
    site.lastUsed = now;
    if (outcome === 'delivered') {
      if (site.failing) {
        // Back: start again from one slot, and tell the other replicas.
        Object.assign(site, { failing: false, strikes: 0, openUntil: 0, limit: 1, changedAt: now });
        this.publish(ticket.siteId, site);
      } else {
        site.limit = Math.min(this.options.perSite, site.limit + 1);
      }
    } else if (outcome === 'failed') {
      const unanswered = now - ticket.startedAt >= this.slowMs;
      const strikes = unanswered ? site.strikes + 1 : 0;
      const openUntil = unanswered ? now + this.cooldown(strikes) : 0;
      // Several attempts in flight when a site stops answering each time out; one pause covers them.
      if (unanswered && site.failing && site.openUntil > now && ticket.startedAt < site.changedAt) return;
      // A site failing fast stays as it is (one slot, no pause): no write per failed attempt.
      const changed = !site.failing || site.strikes !== strikes || site.openUntil !== openUntil;
      Object.assign(site, { failing: true, limit: 1, strikes, openUntil });
      if (changed) {
        site.changedAt = now;
        this.publish(ticket.siteId, site);
      }
    }
  }

  /** Sites known here whose last attempt failed (a gauge). */
  failingSites(): number {
    let count = 0;
    for (const site of this.sites.values()) if (site.failing) count += 1;
    return count;
  }

  /** In-flight attempts in the failing lane now (a gauge). */
  failingLaneInFlight(): number {
    return this.lane(this.now()).count;
  }

  private state(siteId: string, now: number): SiteState {
    let site = this.sites.get(siteId);
    if (!site) {
      site = {
        inFlight: new Set(),
        limit: 1,
        failing: false,
        strikes: 0,
        openUntil: 0,
        changedAt: 0,
        syncedAt: 0,
        syncing: undefined,
        lastUsed: now,
      };
      this.sites.set(siteId, site);
    }
    return site;
  }

  private async sync(siteId: string): Promise<void> {
    const { store } = this.options;
    if (!store) return;
    const now = this.now();
    const site = this.state(siteId, now);
    if (site.syncing === undefined && now - site.syncedAt >= this.refreshMs) {
      site.syncing = store
        .read(siteId)
        .then((shared) => this.merge(site, shared))
        .catch(() => undefined)
        .finally(() => {
          site.syncedAt = this.now();
          site.syncing = undefined;
        });
    }
    // The first look at a site waits for what the other replicas know; later refreshes do not.
    if (site.syncedAt === 0 && site.syncing) await site.syncing;
  }

  private merge(site: SiteState, shared: SharedSiteHealth | null): void {
    if (!shared || shared.at <= site.changedAt) return;
    const recovered = site.failing && !shared.failing;
    site.failing = shared.failing;
    site.strikes = shared.strikes;
    site.openUntil = shared.openUntil;
    site.changedAt = shared.at;
    if (shared.failing || recovered) site.limit = 1;
  }

  private publish(siteId: string, site: SiteState): void {
    const { store } = this.options;
    if (!store) return;
    const health: SharedSiteHealth = { failing: site.failing, strikes: site.strikes, openUntil: site.openUntil, at: site.changedAt };
    store.write(siteId, health).catch(() => undefined);
  }

  private oldestStart(site: SiteState): number | undefined {
    let oldest: number | undefined;
    for (const ticket of site.inFlight) if (oldest === undefined || ticket.startedAt < oldest) oldest = ticket.startedAt;
    return oldest;
  }

  /** Attempts of failing sites, and attempts unanswered for `slowMs`, with the soonest of their timeouts. */
  private lane(now: number): { count: number; firstDeadline: number } {
    let count = 0;
    let firstDeadline = now + this.options.timeoutMs;
    for (const site of this.active) {
      for (const ticket of site.inFlight) {
        if (site.failing || now - ticket.startedAt >= this.slowMs) {
          count += 1;
          firstDeadline = Math.min(firstDeadline, ticket.startedAt + this.options.timeoutMs);
        }
      }
    }
    return { count, firstDeadline };
  }

  /**
   * How long a job of a site at its share waits: about as long as the site's oldest attempt has run (a
   * quick partner frees a slot within milliseconds, a hanging one not before its timeout), so a job asks
   * again a few times at most instead of every few milliseconds. While a paused site's one probe runs, its
   * other jobs wait for that probe's end.
   */
  private busyWait(site: SiteState, now: number, oldest: number): number {
    const age = now - oldest;
    if (age >= this.slowMs || site.strikes > 0) return Math.max(MIN_DEFER_MS * 4, oldest + this.options.timeoutMs - now);
    return Math.max(MIN_DEFER_MS, age);
  }

  private jitter(ms: number): number {
    return Math.ceil(ms * (1 + this.random()));
  }

  private cooldown(strikes: number): number {
    return Math.min(this.maxCooldownMs, this.cooldownMs * 2 ** Math.min(30, Math.max(0, strikes - 1)));
  }

  /** Deferred jobs of a paused site come back spread over a quarter of its pause. */
  private spread(site: SiteState): number {
    return Math.max(MIN_DEFER_MS, Math.floor(this.cooldown(site.strikes) / 4));
  }

  /** Forgets, at most once a minute, sites idle for a while with nothing in flight and no pause running. */
  private prune(now: number): void {
    if (now - this.lastPrune < 60_000) return;
    this.lastPrune = now;
    for (const [siteId, site] of this.sites) {
      if (site.inFlight.size === 0 && site.openUntil < now && now - site.lastUsed > FORGET_AFTER_MS) this.sites.delete(siteId);
    }
  }
}
