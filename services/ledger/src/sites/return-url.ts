import { AppError } from '@kasa/http';

/** The user's own machine: the only hosts a plain-http returnUrl may name, and only outside production. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1']);

function refused(message: string): AppError {
  return AppError.validation([{ field: 'returnUrl', message }], 'The request body is not valid; nothing was created.');
}

/**
 * The partner's optional way back from the hosted deposit page (a deposit's own, or its site's), as it will be
 * stored and linked. The request
 * schema has already refused anything but RFC 3986 text with an https (or loopback http) scheme and no
 * `user:password@`; this adds what a pattern cannot say: the WHATWG parser (the browser's) must read the URL
 * the same way, and plain http to localhost or 127.0.0.1 is for development only, never in production.
 */
export function checkReturnUrl(raw: string | undefined, production: boolean): string | null {
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('must be a valid URL');
  }
  if (url.username !== '' || url.password !== '') throw refused('must not carry user:password@');
  if (url.protocol === 'https:' && url.hostname !== '') return raw;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && !production) return raw;
  throw refused(production ? 'must be an https URL' : 'must be an https URL (http only for localhost or 127.0.0.1)');
}
