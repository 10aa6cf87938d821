import type { KasaConfig } from '../../packages/config/src/index.js';

/** KasaConfig through an environment variable: JSON, with the one Buffer field as base64. */
export function encodeConfig(config: KasaConfig): string {
  return JSON.stringify({ ...config, secretEncryptionKey: config.secretEncryptionKey.toString('base64') });
}

export function decodeConfig(text: string): KasaConfig {
  const raw = JSON.parse(text) as Omit<KasaConfig, 'secretEncryptionKey'> & { secretEncryptionKey: string };
  return { ...raw, secretEncryptionKey: Buffer.from(raw.secretEncryptionKey, 'base64') };
}
