import { randomToken } from '../shared/secrets.js';

/** `sk_live_<site-slug>_<secret>`; the slug never contains an underscore, the secret may. */
const API_KEY = /^sk_live_([a-z0-9]+(?:-[a-z0-9]+)*)_([A-Za-z0-9_-]{32,128})$/;

export function generateApiKey(slug: string): string {
  return `sk_live_${slug}_${randomToken(32)}`;
}

export function parseApiKey(raw: string): { slug: string } | null {
  const match = API_KEY.exec(raw);
  return match ? { slug: match[1] as string } : null;
}

/** What an operator may see of a key: its site slug and the first characters of the secret. */
export function apiKeyPrefix(raw: string): string {
  const parsed = parseApiKey(raw);
  return parsed ? raw.slice(0, `sk_live_${parsed.slug}_`.length + 4) + '…' : 'sk_live_…';
}
