/**
 * A URL that may go into `href`, `src` or `action`: an absolute http(s) URL or a path on the page's own
 * origin. The only ways to get one are {@link safeUrl}, {@link trySafeUrl} and {@link localUrl}, which all
 * check it, so holding a SafeUrl means the check happened.
 */
export class SafeUrl {
  private constructor(readonly value: string) {}

  /** The checking constructor behind the exported ones; null when the value is refused. */
  static check(value: unknown): SafeUrl | null {
    return typeof value === 'string' && isAcceptable(value) ? new SafeUrl(value) : null;
  }

  toString(): string {
    return this.value;
  }
}

// Browsers drop tabs and newlines inside URLs and trim spaces around them, which is how `java\tscript:`
// slips past naive checks; a URL with any of them is refused rather than cleaned.
function hasControlOrSpace(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

// One leading slash, and not `/\`: browsers read a backslash as a slash, so `/\host` is `//host`.
const SAME_ORIGIN_PATH = /^\/(?![/\\])/;
const HTTP_SCHEME = /^https?:\/\//i;

function isAcceptable(value: string): boolean {
  if (hasControlOrSpace(value)) return false;
  if (SAME_ORIGIN_PATH.test(value)) return true;
  if (!HTTP_SCHEME.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Accepts an absolute `http:`/`https:` URL or a same-origin path starting with exactly one `/`, and throws
 * a TypeError for anything else: `javascript:`, `data:`, `//host`, `/\host`, relative paths, whitespace.
 */
export function safeUrl(value: string): SafeUrl {
  const url = SafeUrl.check(value);
  if (!url) throw new TypeError(`Refused as a URL: ${JSON.stringify(value.slice(0, 80))}`);
  return url;
}

/** Like {@link safeUrl}, but answers null instead of throwing; for URLs that came from a request. */
export function trySafeUrl(value: unknown): SafeUrl | null {
  return SafeUrl.check(value);
}

/**
 * Percent-encodes one path segment, so `/`, `?`, `#`, `&` and spaces in it stay data. Throws for `.` and `..`:
 * browsers read those (even percent-encoded) as "this folder" and "up", so no encoding keeps them data.
 */
export function pathSegment(value: string | number | bigint): string {
  const encoded = encodeURIComponent(String(value));
  if (encoded === '.' || encoded === '..') throw new TypeError(`Refused as a path segment: ${JSON.stringify(encoded)}`);
  return encoded;
}

/**
 * A same-origin URL from a literal template: `` localUrl`/intents/${intentId}/approve` `` or
 * `` localUrl`/sites?cursor=${cursor}` ``. Values in the path are encoded with {@link pathSegment}, values
 * after the literal `?` with `encodeURIComponent`. Throws when the literal does not start with a single `/`.
 */
export function localUrl(strings: TemplateStringsArray, ...values: Array<string | number | bigint>): SafeUrl {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    // Encoded values never contain a raw `?`, so one in `out` came from the literal.
    out += (out.includes('?') ? encodeURIComponent(String(value)) : pathSegment(value)) + (strings[index + 1] ?? '');
  });
  if (!SAME_ORIGIN_PATH.test(out)) throw new TypeError(`localUrl needs a path starting with one "/": ${JSON.stringify(out.slice(0, 80))}`);
  return safeUrl(out);
}
