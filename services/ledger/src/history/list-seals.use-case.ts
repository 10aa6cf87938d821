import type { Prisma } from '@kasa/db';
import { parsePayload, sealSignatureProblem, type SealKeys, type StoredSeal } from './history-seal.js';
import type { HistorySealRepository } from './history-seal.repository.js';
import { previousDay } from './seal-history.use-case.js';

/** A seal as the ops API shows it, with whether it verifies now and, if not, why (the journal check's case names). */
export interface SealView {
  sealId: string;
  day: string;
  sealedAt: string;
  heads: Array<{ chain: string; seq: string; linkHash: string }>;
  balances: Array<{ siteId: string; account: string; balance: string }>;
  previousSealHash: string | null;
  payload: string;
  payloadHash: string;
  signature: string;
  keyId: string;
  publicKey: string | null;
  verifies: boolean;
  problems: string[];
}

/**
 * A page of seals checked one by one (docs/compliance.md, Tamper-evident history): its signature with the trusted keys,
 * that it names the previous day's seal, and that every sealed head is still the link at its place. The full walk, which
 * says where a rewrite begins, is the journal check's (`kasa audit verify`).
 */
export async function sealViews(
  tx: Prisma.TransactionClient,
  seals: HistorySealRepository,
  keys: SealKeys,
  page: readonly StoredSeal[],
): Promise<SealView[]> {
  const payloads = new Map(page.map((seal) => [seal.id, sealSignatureProblem(seal, keys) ? null : parsePayload(seal.payload)]));
  const places = [...payloads.values()].flatMap((payload) => payload?.heads.map(({ chain, seq }) => ({ chain, seq })) ?? []);
  const links = await seals.linkHashesAt(tx, places);
  const previous = await seals.payloadHashesOf(tx, [...new Set(page.map((seal) => previousDay(seal.day)))]);
  return page.map((seal) => {
    const payload = payloads.get(seal.id) ?? null;
    const problems: string[] = [];
    if (!payload) problems.push('seal_signature_invalid');
    else if (payload.heads.some((head) => links.get(`${head.chain} ${head.seq}`) !== head.linkHash)) problems.push('seal_mismatch');
    const before = previous.get(previousDay(seal.day));
    if (seal.previousHash !== null ? before !== seal.previousHash : before !== undefined) problems.push('seal_missing');
    const shown = payload ?? parsePayload(seal.payload);
    return {
      sealId: seal.id,
      day: seal.day,
      sealedAt: seal.sealedAt.toISOString(),
      heads: shown?.heads ?? [],
      balances: shown?.balances ?? [],
      previousSealHash: seal.previousHash,
      payload: seal.payload,
      payloadHash: seal.payloadHash,
      signature: seal.signature,
      keyId: seal.keyId,
      publicKey: keys.trusted.get(seal.keyId)?.publicKey ?? null,
      verifies: problems.length === 0,
      problems,
    };
  });
}
