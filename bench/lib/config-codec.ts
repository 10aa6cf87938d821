import type { KasaConfig } from '../../packages/config/src/index.js';

/** KasaConfig through an environment variable: JSON, with the one Buffer field as base64 and bigints (money) tagged. */
export function encodeConfig(config: KasaConfig): string {
  return JSON.stringify({ ...config, secretEncryptionKey: config.secretEncryptionKey.toString('base64') }, (_key, value: unknown) =>
    typeof value === 'bigint' ? { bigint: value.toString() } : value,
  );
}

export function decodeConfig(text: string): KasaConfig {
  const raw = JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && typeof (value as { bigint?: unknown }).bigint === 'string'
      ? BigInt((value as { bigint: string }).bigint)
      : value,
  ) as Omit<KasaConfig, 'secretEncryptionKey'> & { secretEncryptionKey: string };
  return { ...raw, secretEncryptionKey: Buffer.from(raw.secretEncryptionKey, 'base64') };
}
