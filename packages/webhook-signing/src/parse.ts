import { MAX_HEADER_LENGTH, MAX_SIGNATURES, SIGNATURE_HEADER, SIGNATURE_SCHEME } from './constants.js';
import { WebhookVerificationError } from './errors.js';
import type { HeaderValue } from './inputs.js';

/** Result of {@link parseSignatureHeader}. */
export interface ParsedSignatureHeader {
  /** The `t` value, in unix seconds. */
  timestamp: number;
  /** All `v1` signatures, in header order, lowercased (64 hex chars each). */
  signatures: string[];
}

// Canonical decimal only (no sign, no leading zeros, at most 11 digits): the
// t string is part of the signed message, so accepting "0017..." or "+17..."
// would make our reading of t differ from what was signed.
const TIMESTAMP_PATTERN = /^(?:0|[1-9][0-9]{0,10})$/;
const V1_PATTERN = /^[0-9a-fA-F]{64}$/;

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `${SIGNATURE_HEADER} header is malformed: ${detail}`);
}

/**
 * Parses a `Service-Signature` header value
 * (`t=<unix seconds>,v1=<hex>[,v1=<hex>...]`).
 *
 * Entries with an unknown scheme (e.g. `v0=...`) are ignored so a future
 * scheme can be added alongside `v1` without breaking existing receivers.
 * A repeated header (array, as Node may deliver it) is treated as one
 * comma-joined value; a second `t` then makes it malformed.
 *
 * @throws WebhookVerificationError with reason `missing_header` when the
 *   value is absent/empty, or `malformed_header` for anything unparseable:
 *   oversized input, an entry without `=`, missing or repeated `t`,
 *   non-numeric `t`, no `v1`, a `v1` that is not 64 hex characters, or too
 *   many `v1` entries.
 */
export function parseSignatureHeader(header: HeaderValue): ParsedSignatureHeader {
  // Checked through `unknown`: JS callers may pass numbers or objects.
  const value: unknown = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value === null || value === '') {
    throw new WebhookVerificationError('missing_header', `${SIGNATURE_HEADER} header is missing`);
  }
  if (typeof value !== 'string') throw malformed('expected a string');
  // Length check before any splitting so hostile input costs O(1).
  if (value.length > MAX_HEADER_LENGTH) {
    throw malformed(`longer than ${MAX_HEADER_LENGTH} characters`);
  }
  if (value.trim() === '') {
    throw new WebhookVerificationError('missing_header', `${SIGNATURE_HEADER} header is missing`);
  }

  let timestamp: number | undefined;
  const signatures: string[] = [];

  for (const rawEntry of value.split(',')) {
    const entry = rawEntry.trim();
    const eq = entry.indexOf('=');
    if (eq <= 0) throw malformed('every entry must look like key=value');
    const key = entry.slice(0, eq);
    const entryValue = entry.slice(eq + 1);

    if (key === 't') {
      if (timestamp !== undefined) throw malformed('t appears more than once');
      if (!TIMESTAMP_PATTERN.test(entryValue)) {
        throw malformed('t must be unix seconds (digits only)');
      }
      timestamp = Number(entryValue);
    } else if (key === SIGNATURE_SCHEME) {
      if (!V1_PATTERN.test(entryValue)) throw malformed('v1 must be 64 hex characters');
      if (signatures.length === MAX_SIGNATURES) {
        throw malformed(`more than ${MAX_SIGNATURES} v1 signatures`);
      }
      signatures.push(entryValue.toLowerCase());
    }
    // Any other key: unknown scheme or extension, deliberately ignored.
  }

  if (timestamp === undefined) throw malformed('missing t');
  if (signatures.length === 0) throw malformed('no v1 signature');
  return { timestamp, signatures };
}
