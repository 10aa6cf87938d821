import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { keyIdOf, rawPublicKey } from '../shared/ed25519.js';

export { keyIdOf, rawPublicKey };

/**
 * The daily seal of the history chains (docs/compliance.md, Tamper-evident history): what is signed, in which bytes,
 * and how a seal is checked against the public keys Kasa trusts. The signed bytes are a canonical JSON text kept as it
 * was signed (history_seals.payload), so anyone can verify a seal offline with the public key and `openssl pkeyutl`.
 */

/** A chain's head as sealed: its last link's place and hash (hex). */
export interface SealedHead {
  chain: string;
  seq: string;
  linkHash: string;
}

/** A journal account's balance (signed minor units) over the entries the sealed heads cover. */
export interface SealedBalance {
  siteId: string;
  account: string;
  balance: string;
}

/** What a seal says, as signed. */
export interface SealPayload {
  kind: 'kasa-history-seal';
  version: 1;
  /** The Istanbul calendar day sealed, `2026-11-28`. */
  day: string;
  /** When it was sealed, UTC ISO. */
  sealedAt: string;
  keyId: string;
  /** The previous day's seal's payload hash (hex), null for the first seal. */
  previousSealHash: string | null;
  heads: SealedHead[];
  balances: SealedBalance[];
}

/** The keys a ledger signs and verifies seals with: its own, and earlier ones' public keys (HISTORY_SEAL_PUBLIC_KEYS). */
export interface SealKeys {
  signing: { privateKey: KeyObject; keyId: string; publicKey: string };
  /** Every public key a seal may be signed with, by key id: the signing key's and the earlier ones'. */
  trusted: Map<string, { key: KeyObject; publicKey: string }>;
}

export function sealKeys(privateKey: KeyObject, earlier: readonly KeyObject[]): SealKeys {
  const own = createPublicKey(privateKey);
  const trusted = new Map<string, { key: KeyObject; publicKey: string }>();
  for (const key of [own, ...earlier]) trusted.set(keyIdOf(key), { key, publicKey: rawPublicKey(key) });
  return { signing: { privateKey, keyId: keyIdOf(own), publicKey: rawPublicKey(own) }, trusted };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The canonical text of a payload: JSON with its keys in the order of {@link SealPayload}, no spaces, heads sorted by
 * chain and balances by site then account, so the same seal always has the same bytes.
 */
export function canonicalPayload(payload: SealPayload): string {
  return JSON.stringify({
    kind: payload.kind,
    version: payload.version,
    day: payload.day,
    sealedAt: payload.sealedAt,
    keyId: payload.keyId,
    previousSealHash: payload.previousSealHash,
    heads: [...payload.heads].sort((a, b) => byText(a.chain, b.chain)).map((h) => ({ chain: h.chain, seq: h.seq, linkHash: h.linkHash })),
    balances: [...payload.balances]
      .sort((a, b) => byText(a.siteId, b.siteId) || byText(a.account, b.account))
      .map((b) => ({ siteId: b.siteId, account: b.account, balance: b.balance })),
  });
}

export const payloadHash = (payload: string): Buffer => createHash('sha256').update(payload, 'utf8').digest();

/** The ed25519 signature (base64) of the payload's UTF-8 bytes. */
export function signPayload(payload: string, privateKey: KeyObject): string {
  return sign(null, Buffer.from(payload, 'utf8'), privateKey).toString('base64');
}

/** A seal as stored. */
export interface StoredSeal {
  id: string;
  day: string;
  payload: string;
  payloadHash: string;
  previousHash: string | null;
  signature: string;
  keyId: string;
  sealedAt: Date;
}

/** The payload text parsed, or null when it is not a seal payload at all. */
export function parsePayload(text: string): SealPayload | null {
  try {
    const value = JSON.parse(text) as SealPayload;
    if (value?.kind !== 'kasa-history-seal' || !Array.isArray(value.heads) || !Array.isArray(value.balances)) return null;
    return value;
  } catch {
    return null;
  }
}

/**
 * Why a stored seal does not stand on its own, or null when it does: its signature verifies with the trusted key it
 * names, over the payload whose hash it records, and the payload says the same day, key and previous seal as its row.
 */
export function sealSignatureProblem(seal: StoredSeal, keys: SealKeys): string | null {
  const trusted = keys.trusted.get(seal.keyId);
  if (!trusted) return 'signed with a key that is not trusted (HISTORY_SEAL_KEY, HISTORY_SEAL_PUBLIC_KEYS)';
  let valid = false;
  try {
    valid = verify(null, Buffer.from(seal.payload, 'utf8'), trusted.key, Buffer.from(seal.signature, 'base64'));
  } catch {
    valid = false;
  }
  if (!valid) return 'the signature does not verify over the payload';
  if (payloadHash(seal.payload).toString('hex') !== seal.payloadHash) return 'the payload hash is not the payload’s';
  const payload = parsePayload(seal.payload);
  if (!payload) return 'the payload is not a seal';
  if (payload.day !== seal.day || payload.keyId !== seal.keyId || payload.previousSealHash !== seal.previousHash) {
    return 'the row’s day, key or previous seal differ from what was signed';
  }
  return null;
}
