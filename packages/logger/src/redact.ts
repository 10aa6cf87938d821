/**
 * Log redaction: secrets (API keys, webhook secrets, bearer tokens) and full IBANs never reach a log line.
 * Applied to every string and to every field whose name marks it as sensitive, however deep.
 */

const SENSITIVE_FIELD =
  /^(authorization|cookie|set-cookie|password|passwordhash|token|apikey|api_key|secret|webhooksecret|internaltoken|opsbootstraptoken|x-internal-token|otp|totp|otpcode|totpsecret|recoverycodes|otpauthuri|qrdataurl)$/i;
const IBAN_FIELD = /iban/i;

const PATTERNS: Array<[RegExp, (match: string) => string]> = [
  [/sk_(live|test)_[A-Za-z0-9-]+_[A-Za-z0-9_-]+/g, (match) => `${match.slice(0, 8)}[REDACTED]`],
  [/whsec_[A-Za-z0-9_-]+/g, () => 'whsec_[REDACTED]'],
  // An operator's TOTP enrollment link carries the secret.
  [/otpauth:\/\/[^\s"',]+/gi, () => 'otpauth://[REDACTED]'],
  [/Bearer\s+[^\s"',]+/gi, () => 'Bearer [REDACTED]'],
  [/\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?\b/g, maskIban],
];

/** Keeps the country code and the last four characters: `TR** **** 1234`. */
export function maskIban(iban: string): string {
  const compact = iban.replace(/\s+/g, '');
  if (compact.length < 8) return '[REDACTED]';
  return `${compact.slice(0, 2)}**…${compact.slice(-4)}`;
}

/**
 * True for any string one of PATTERNS could match (and some more): most logged strings (lower-case ids,
 * routes, methods) fail these two tests and skip the five replacements.
 */
const mayHoldSecret = (value: string) => /sk_|whsec_|otpauth:|bearer/i.test(value) || /[A-Z]{2}\d{2}/.test(value);

export function redactString(value: string): string {
  if (!mayHoldSecret(value)) return value;
  let out = value;
  for (const [pattern, replace] of PATTERNS) out = out.replace(pattern, replace);
  return out;
}

/** Returns a redacted deep copy; cycles and depth are bounded so a strange object cannot hang logging. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8 || seen.has(value)) return '[Truncated]';
  seen.add(value);
  if (value instanceof Error) {
    return { name: value.name, message: redactString(value.message), stack: value.stack ? redactString(value.stack) : undefined };
  }
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SENSITIVE_FIELD.test(key)) out[key] = '[REDACTED]';
    else if (IBAN_FIELD.test(key) && typeof item === 'string') out[key] = maskIban(item);
    else out[key] = redact(item, depth + 1, seen);
  }
  return out;
}
