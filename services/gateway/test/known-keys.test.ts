import { describe, expect, it } from '@jest/globals';
import type { Principal } from '@kasa/contracts';
import { KnownKeys } from '../src/auth/known-keys.js';

const principal: Principal = { apiKeyId: 'k1', siteId: 's1', siteSlug: 'shop', rateLimitPerMinute: 600, livemode: true };

function trustedKeys(now: () => number = Date.now, ttlMs?: number): KnownKeys {
  const keys = new KnownKeys(now, ttlMs);
  keys.trust();
  return keys;
}

describe("a gateway's memory of known API keys", () => {
  it('answers nothing before it is trusted, and keeps nothing offered meanwhile', () => {
    const keys = new KnownKeys();
    keys.remember('h1', principal, keys.version);
    expect(keys.get('h1')).toBeNull();
    keys.trust();
    expect(keys.get('h1')).toBeNull();
  });

  it('answers a remembered key while trusted', () => {
    const keys = trustedKeys();
    keys.remember('h1', principal, keys.version);
    expect(keys.get('h1')).toBe(principal);
    expect(keys.get('h2')).toBeNull();
  });

  it('forgets a key the ledger changed, and only that key', () => {
    const keys = trustedKeys();
    keys.remember('h1', principal, keys.version);
    keys.remember('h2', principal, keys.version);
    keys.forget('h1');
    expect(keys.get('h1')).toBeNull();
    expect(keys.get('h2')).toBe(principal);
  });

  it('keeps nothing read before a change arrived (the read may predate the revocation)', () => {
    const keys = trustedKeys();
    const version = keys.version;
    keys.forget('h1');
    keys.remember('h1', principal, version);
    expect(keys.get('h1')).toBeNull();
  });

  it('drops everything when the subscription is lost, and starts empty when it is back', () => {
    const keys = trustedKeys();
    keys.remember('h1', principal, keys.version);
    keys.distrust();
    expect(keys.get('h1')).toBeNull();
    const versionWhileLost = keys.version;
    keys.trust();
    expect(keys.size).toBe(0);
    expect(keys.get('h1')).toBeNull();
    // A read begun before the subscription came back is not kept either: messages may have been missed.
    keys.remember('h1', principal, versionWhileLost);
    expect(keys.get('h1')).toBeNull();
  });

  it('drops everything on a resubscribe even without a lost call in between', () => {
    const keys = trustedKeys();
    keys.remember('h1', principal, keys.version);
    keys.trust();
    expect(keys.get('h1')).toBeNull();
  });

  it('stops answering a key after its time to live', () => {
    let now = 1_000;
    const keys = trustedKeys(() => now, 500);
    keys.remember('h1', principal, keys.version);
    now = 1_499;
    expect(keys.get('h1')).toBe(principal);
    now = 1_500;
    expect(keys.get('h1')).toBeNull();
  });
});
