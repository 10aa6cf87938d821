import { createHash, createPrivateKey, type KeyObject } from 'node:crypto';

// The fixed DER prefix of an ed25519 private key in PKCS#8 (RFC 8410), before its 32-byte seed.
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The ed25519 private key of a 32-byte seed. */
export function privateKeyFromSeed(seed: Buffer): KeyObject {
  if (seed.length !== 32) throw new RangeError('an ed25519 seed is 32 bytes');
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** An ed25519 public key's 32 raw bytes, base64 (the last 32 bytes of its SPKI DER). */
export function rawPublicKey(key: KeyObject): string {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32).toString('base64');
}

/** A key id: the first 16 hex digits of the SHA-256 of the public key's 32 raw bytes. */
export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(Buffer.from(rawPublicKey(publicKey), 'base64'))
    .digest('hex')
    .slice(0, 16);
}
