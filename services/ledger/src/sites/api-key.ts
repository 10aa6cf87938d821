import { randomToken } from '../shared/secrets.js';

/** Live keys act on live money; test keys on the site's sandbox (its test twin, docs/sandbox.md). */
export type KeyMode = 'live' | 'test';

/** `sk_<live|test>_<site-slug>_<secret>`; the slug never contains an underscore, the secret may. */
const API_KEY = /^sk_(live|test)_([a-z0-9]+(?:-[a-z0-9]+)*)_([A-Za-z0-9_-]{32,128})$/;

/** The slug of a live site's test twin: the live slug with `.test`, which no live slug can have. */
export function testSlugOf(liveSlug: string): string {
  return `${liveSlug}.test`;
}

/** A new key for a site of the given mode; `slug` is the live site's slug either way. */
export function generateApiKey(slug: string, mode: KeyMode = 'live'): string {
  return `sk_${mode}_${slug}_${randomToken(32)}`;
}

/** The key's mode and the slug of the site it acts for (a test key: the test twin's slug). */
export function parseApiKey(raw: string): { mode: KeyMode; slug: string } | null {
  const match = API_KEY.exec(raw);
  if (!match) return null;
  const mode = match[1] as KeyMode;
  const slug = match[2] as string;
  return { mode, slug: mode === 'test' ? testSlugOf(slug) : slug };
}

/** What an operator may see of a key: its mode, site slug and the first characters of the secret. */
export function apiKeyPrefix(raw: string): string {
  const match = API_KEY.exec(raw);
  return match ? raw.slice(0, `sk_${match[1] as string}_${match[2] as string}_`.length + 4) + '…' : 'sk_…';
}
