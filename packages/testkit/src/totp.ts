import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The authenticator app, for tests: the RFC 6238 code (SHA-1, six digits, 30-second steps) of a base32 secret at
 * `at`. Written out from the standard rather than taken from the ledger's library, so tests check the ledger
 * against the standard and not against itself.
 */
export function totpCode(secretBase32: string, at: Date = new Date()): string {
  const bits = [...secretBase32.replace(/=+$/, '').toUpperCase()].map((c) => BASE32.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => parseInt(byte, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at.getTime() / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = (mac[mac.length - 1] as number) & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
