import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { SecretBox, SecretBoxError, webhookSecretBox } from './index.js';

describe('SecretBox', () => {
  const box = webhookSecretBox(randomBytes(32));
  const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8';

  it('opens what it sealed, and never stores the secret in clear', () => {
    const sealed = box.seal(secret, 'site-a');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(box.open(sealed, 'site-a')).toBe(secret);
    expect(box.seal(secret, 'site-a')).not.toBe(sealed);
  });

  it('refuses another site, another key, and a tampered value', () => {
    const sealed = box.seal(secret, 'site-a');
    expect(() => box.open(sealed, 'site-b')).toThrow(SecretBoxError);
    expect(() => webhookSecretBox(randomBytes(32)).open(sealed, 'site-a')).toThrow(SecretBoxError);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[3] as string, 'base64url');
    flipped[0] = (flipped[0] as number) ^ 1;
    expect(() => box.open([parts[0], parts[1], parts[2], flipped.toString('base64url')].join('.'), 'site-a')).toThrow(SecretBoxError);
    expect(() => box.open('garbage', 'site-a')).toThrow(SecretBoxError);
  });

  it('derives different keys for different purposes', () => {
    const master = randomBytes(32);
    const sealed = SecretBox.derive(master, 'one').seal('x', 'ad');
    expect(() => SecretBox.derive(master, 'two').open(sealed, 'ad')).toThrow(SecretBoxError);
  });
});
