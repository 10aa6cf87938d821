/**
 * `@kasa/secret-box`: AES-256-GCM encryption of small secrets at rest (webhook signing secrets). The ledger
 * seals them when a partner rotates; the webhook worker opens them to sign.
 *
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>`, each part base64url. The associated data (for example the
 * site id) is authenticated, so a sealed secret copied to another site's row does not open there.
 *
 * @packageDocumentation
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed value that does not open: wrong key, wrong associated data, or tampered. */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** Seals and opens secrets with one 32-byte key. */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * A box whose key is derived (HKDF-SHA256) from the configured master key for one purpose, so the same
   * `SECRET_ENCRYPTION_KEY` can serve several uses without ever reusing a key.
   */
  static derive(masterKey: Buffer, purpose: string): SecretBox {
    if (masterKey.length !== 32) throw new RangeError('the master key must be 32 bytes');
    return new SecretBox(Buffer.from(hkdfSync('sha256', masterKey, 'kasa', `secret-box:${purpose}`, 32)));
  }

  /** Encrypts `plaintext`, binding it to `associatedData`. */
  seal(plaintext: string, associatedData: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /** Decrypts a value from {@link seal}; throws {@link SecretBoxError} if it does not open. */
  open(sealed: string, associatedData: string): string {
    const [version, iv, tag, ciphertext, ...rest] = sealed.split('.');
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
      throw new SecretBoxError('not a sealed secret');
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new SecretBoxError('not a sealed secret');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, ivBytes);
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('the sealed secret does not open with this key and associated data');
    }
  }
}

/** The box for webhook signing secrets; the associated data is the site id. */
export function webhookSecretBox(masterKey: Buffer): SecretBox {
  return SecretBox.derive(masterKey, 'webhook-secret');
}

/** The box for operators' TOTP secrets (second factor), bound to the operator id. */
export function totpSecretBox(masterKey: Buffer): SecretBox {
  return SecretBox.derive(masterKey, 'operator-totp');
}
