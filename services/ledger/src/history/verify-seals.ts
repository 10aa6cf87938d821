import type { Prisma } from '@kasa/db';
import { parsePayload, sealSignatureProblem, type SealKeys, type SealPayload } from './history-seal.js';
import type { HistorySealRepository } from './history-seal.repository.js';
import { nextDay } from './seal-history.use-case.js';
import type { HistoryProblem } from './history-report.js';

/** Missing days named one by one at most, per gap (the count of the rest is in the reason). */
const MISSING_DAYS_NAMED = 31;

/**
 * Checks the daily seals (docs/compliance.md, Tamper-evident history), in the verifier's snapshot: each seal's signature
 * with the trusted public keys; the seals' own chain (consecutive days, each naming the previous seal's hash); and each
 * sealed head against the link now at its place. A chain rewritten consistently after sealing no longer has the sealed
 * hash there: reported once per chain where the rewrite begins (later seals of that chain follow from it), with the range
 * of places since the chain's previous sealed head. Returns how many seals were checked.
 */
export async function verifySeals(
  tx: Prisma.TransactionClient,
  seals: HistorySealRepository,
  keys: SealKeys,
  report: (problem: HistoryProblem) => void,
): Promise<number> {
  const all = await seals.all(tx);
  const payloads = new Map<string, SealPayload>();
  for (const seal of all) {
    const reason = sealSignatureProblem(seal, keys);
    if (reason) {
      report({ problem: 'seal_signature_invalid', source: 'seal', chain: null, seq: null, rowId: null, day: seal.day, reason });
      continue;
    }
    // Only what a trusted key signed is compared with the chains.
    const payload = parsePayload(seal.payload);
    if (payload) payloads.set(seal.day, payload);
  }

  let previous: (typeof all)[number] | null = null;
  for (const seal of all) {
    if (previous === null) {
      if (seal.previousHash !== null) {
        report({ ...sealMissing, day: seal.day, reason: 'the seals before it are gone: it names a previous seal there is none of' });
      }
    } else if (nextDay(previous.day) !== seal.day) {
      const missing: string[] = [];
      for (let day = nextDay(previous.day); day < seal.day; day = nextDay(day)) missing.push(day);
      for (const day of missing.slice(0, MISSING_DAYS_NAMED)) {
        report({ ...sealMissing, day, reason: `no seal between ${previous.day} and ${seal.day} (${missing.length} days)` });
      }
    } else if (seal.previousHash !== previous.payloadHash) {
      report({ ...sealMissing, day: seal.day, reason: `it does not name the seal of ${previous.day} as its previous seal` });
    }
    previous = seal;
  }

  const places = [...payloads.values()].flatMap((payload) => payload.heads.map(({ chain, seq }) => ({ chain, seq })));
  const now = await seals.linkHashesAt(tx, places);
  const rewritten = new Set<string>();
  const lastSealedSeq = new Map<string, string>();
  for (const [day, payload] of payloads) {
    for (const head of payload.heads) {
      const current = now.get(`${head.chain} ${head.seq}`);
      const fromSeq = (BigInt(lastSealedSeq.get(head.chain) ?? '0') + 1n).toString();
      if (current !== head.linkHash) {
        if (!rewritten.has(head.chain)) {
          report({
            problem: 'seal_mismatch',
            source: head.chain.startsWith('journal:') ? 'journal' : 'audit',
            chain: head.chain,
            seq: head.seq,
            rowId: null,
            day,
            fromSeq,
          });
        }
        rewritten.add(head.chain);
      } else {
        rewritten.delete(head.chain);
      }
      lastSealedSeq.set(head.chain, head.seq);
    }
  }
  return all.length;
}

const sealMissing = { problem: 'seal_missing', source: 'seal', chain: null, seq: null, rowId: null } as const;
