import { createHash } from 'node:crypto';

/**
 * How a row of the history nobody may change (the audit log, the journal) is hashed, and how its link joins the chain
 * (docs/compliance.md, Tamper-evident history). Everything is hashed from text as PostgreSQL gives it (history.repository.ts
 * reads each column as text), so the hash does not depend on how a driver maps types.
 */

/** The tables whose rows are chained, by the name a link records. */
export type HistorySource = 'audit' | 'journal';

/** An audit entry's columns as text, all but the transaction id it was written by. */
export interface AuditRowText {
  id: string;
  siteId: string | null;
  actorType: string;
  actorId: string;
  action: string;
  entityType: string;
  entityId: string;
  /** `metadata::text`: PostgreSQL's one text form of the JSON value (keys ordered, spacing fixed). */
  metadata: string;
  /**
   * `metadata_sha256`: set only by an erasure (docs/compliance.md, Retention and erasure), the SHA-256 (hex) of the
   * metadata as it was chained before its personal data was replaced; null for every entry never erased.
   */
  metadataSha256: string | null;
  /** `created_at` in UTC to the millisecond, `2026-11-28T12:00:00.000Z`. */
  createdAt: string;
}

/** A journal entry's columns as text, all but the transaction id it was written by. */
export interface JournalRowText {
  id: string;
  transactionId: string;
  siteId: string;
  account: string;
  /** Signed minor units. */
  amount: string;
  entityType: string;
  entityId: string;
  createdAt: string;
}

export type HistoryRowText = { source: 'audit'; row: AuditRowText } | { source: 'journal'; row: JournalRowText };

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/**
 * The row's hash: SHA-256 of a JSON array of its fields in a fixed order, the source's name first. An audit entry's
 * metadata enters as its own SHA-256 (hex), so that an erasure can replace personal data in it and keep the hash it was
 * chained with beside it (`metadata_sha256`), without the chain breaking; every other column of an erased entry is still
 * hashed as it is now.
 */
export function rowHash(entry: HistoryRowText): Buffer {
  if (entry.source === 'audit') {
    const r = entry.row;
    return sha256(
      JSON.stringify([
        'audit',
        r.id,
        r.siteId,
        r.actorType,
        r.actorId,
        r.action,
        r.entityType,
        r.entityId,
        r.metadataSha256 ?? sha256(r.metadata).toString('hex'),
        r.createdAt,
      ]),
    );
  }
  const r = entry.row;
  return sha256(JSON.stringify(['journal', r.id, r.transactionId, r.siteId, r.account, r.amount, r.entityType, r.entityId, r.createdAt]));
}

/** The link's hash: over the chain's name, the link's place in it, the previous link's hash (none for the first) and the row's. */
export function linkHash(chain: string, seq: bigint, previous: Buffer | null, row: Buffer): Buffer {
  return sha256(JSON.stringify([chain, seq.toString(), previous ? previous.toString('hex') : '', row.toString('hex')]));
}

/** A site's journal chain. */
export const journalChain = (siteId: string): string => `journal:${siteId}`;

/** The chain a row belongs to: the audit log is one chain, the journal one per site. */
export function chainOf(entry: HistoryRowText): string {
  return entry.source === 'audit' ? 'audit' : journalChain(entry.row.siteId);
}
