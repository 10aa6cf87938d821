import { createPublicKey, sign, type KeyObject } from 'node:crypto';
import { keyIdOf, privateKeyFromSeed, rawPublicKey } from '../shared/ed25519.js';

/** A key that verifies statements, as `GET /balance-statements/keys` publishes it. */
export interface PublishedStatementKey {
  keyId: string;
  algorithm: 'ed25519';
  /** The raw 32-byte public key, base64. */
  publicKey: string;
  /** The same key as an SPKI PEM document, for openssl and other tools. */
  publicKeyPem: string;
}

/**
 * Signs partners' daily balance statements with the ledger's ed25519 key (`STATEMENT_SIGNING_KEY`, a 32-byte seed).
 * ed25519 signatures are deterministic, so the same statement under the same key is the same bytes every time.
 */
export class StatementSigner {
  private readonly privateKey: KeyObject;
  readonly key: PublishedStatementKey;

  constructor(seed: Buffer) {
    this.privateKey = privateKeyFromSeed(seed);
    const publicKey = createPublicKey(this.privateKey);
    this.key = {
      keyId: keyIdOf(publicKey),
      algorithm: 'ed25519',
      publicKey: rawPublicKey(publicKey),
      publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    };
  }

  /** The base64 ed25519 signature of `message`. */
  sign(message: Buffer): string {
    return sign(null, message, this.privateKey).toString('base64');
  }
}
