import { randomBytes } from 'node:crypto';

import { SECRET_PREFIX } from './constants.js';

// 32 random bytes encode to exactly 43 unpadded base64url characters.
const GENERATED_SECRET_PATTERN = /^whsec_[A-Za-z0-9_-]{43}$/;

/**
 * Creates a new webhook signing secret: `whsec_` followed by 32
 * cryptographically random bytes encoded as 43 base64url characters.
 *
 * The whole string (prefix included) is the HMAC key, so store and share it
 * verbatim.
 */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * Returns `true` when `secret` has the exact shape produced by
 * {@link generateWebhookSecret} (`whsec_` + 43 base64url characters).
 *
 * Use this to validate secrets entered or imported by operators. Signing and
 * verification themselves only require the looser `whsec_<something>` shape,
 * so that a legacy secret in another format keeps working.
 */
export function isValidWebhookSecretFormat(secret: unknown): secret is string {
  return typeof secret === 'string' && GENERATED_SECRET_PATTERN.test(secret);
}

/**
 * Throws unless `secret` is usable as a signing key: a string starting with
 * `whsec_`, with something after the prefix and no whitespace.
 *
 * Whitespace is rejected because the usual way it gets in is a trailing
 * newline from an env file or secret manager, which would otherwise show up
 * much later as a baffling "no matching signature".
 * The secret value is never included in the error message.
 */
export function assertUsableSecret(secret: unknown, label = 'secret'): asserts secret is string {
  if (typeof secret !== 'string') {
    throw new TypeError(`${label} must be a string, got ${typeof secret}`);
  }
  if (!secret.startsWith(SECRET_PREFIX) || secret.length === SECRET_PREFIX.length) {
    throw new TypeError(`${label} must look like "${SECRET_PREFIX}..."`);
  }
  if (/\s/.test(secret)) {
    throw new TypeError(`${label} contains whitespace (trailing newline from an env file?)`);
  }
}
