import { Prisma, type PrismaClient } from '@kasa/db';
import type { AuditRowText, HistoryRowText, HistorySource, JournalRowText } from './history-hash.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** Where a pass goes on in a source table: after this row, in (txId, id) order. */
export interface HistoryCursor {
  txId: string;
  rowId: string;
}

/** A verification's transaction: one snapshot for heads, links and rows (repeatable read), for up to ten minutes. */
export const ONE_SNAPSHOT = { isolationLevel: Prisma.TransactionIsolationLevel.RepeatableRead, timeout: 10 * 60 * 1000 };

/** Before the first row of a table. */
export const HISTORY_START: HistoryCursor = { txId: '-1', rowId: '00000000-0000-0000-0000-000000000000' };

/** A row to chain, with the id of the transaction that wrote it. */
export type SourceRow = HistoryRowText & { txId: string };

/** A new link: hashes as hex. */
export interface NewLink {
  chain: string;
  seq: bigint;
  source: HistorySource;
  rowId: string;
  rowHash: string;
  linkHash: string;
}

/** A link as stored, with the row it links as it is now (null: the row is gone). */
export interface StoredLink {
  chain: string;
  seq: string;
  rowId: string;
  rowHash: string;
  linkHash: string;
  row: HistoryRowText | null;
}

/** `created_at` as hashed: UTC, to the millisecond. */
const CREATED_AT = Prisma.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

const AUDIT_COLUMNS = Prisma.sql`id::text AS id, site_id::text AS "siteId", actor_type::text AS "actorType", actor_id AS "actorId",
  action, entity_type AS "entityType", entity_id AS "entityId", metadata::text AS metadata, metadata_sha256::text AS "metadataSha256", ${CREATED_AT} AS "createdAt"`;
const JOURNAL_COLUMNS = Prisma.sql`id::text AS id, transaction_id::text AS "transactionId", site_id::text AS "siteId", account,
  amount::text AS amount, entity_type AS "entityType", entity_id::text AS "entityId", ${CREATED_AT} AS "createdAt"`;

const TABLES = { audit: Prisma.raw('audit_log'), journal: Prisma.raw('journal_entries') } as const;
const COLUMNS = { audit: AUDIT_COLUMNS, journal: JOURNAL_COLUMNS } as const;

/** The advisory lock (by `hashtextextended` of this text) a history pass holds: whoever else changes the chains takes it too. */
export const HISTORY_CHAINS_LOCK = 'kasa:history-chains';

/** The history worker's and the verifier's SQL (history chains: docs/compliance.md, Tamper-evident history); every
 * statement on the transaction it is given. */
export class HistoryRepository {
  /** One pass at a time over all ledgers: false if another holds the chains (released at commit). */
  async lockChains(tx: Prisma.TransactionClient): Promise<boolean> {
    const [row] = await tx.$queryRaw<Array<{ locked: boolean }>>`
      SELECT pg_try_advisory_xact_lock(hashtextextended(${HISTORY_CHAINS_LOCK}, 0)) AS locked`;
    return row?.locked === true;
  }

  async cursor(tx: Db, source: HistorySource): Promise<HistoryCursor> {
    const [row] = await tx.$queryRaw<HistoryCursor[]>`
      SELECT tx_id::text AS "txId", row_id::text AS "rowId" FROM history_cursors WHERE source = ${source}`;
    return row ?? HISTORY_START;
  }

  /**
   * The next rows of a source after `after`, in (txId, id) order, only of transactions that finished before every
   * transaction still running began (their tx_id under the snapshot's xmin): no row written later can sort before them.
   */
  async rowsAfter(tx: Db, source: HistorySource, after: HistoryCursor, limit: number): Promise<SourceRow[]> {
    const rows = await tx.$queryRaw<Array<(AuditRowText | JournalRowText) & { txId: string }>>`
      SELECT ${COLUMNS[source]}, tx_id::text AS "txId"
      FROM ${TABLES[source]}
      WHERE (tx_id, id) > (${after.txId}::bigint, ${after.rowId}::uuid)
        AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
      ORDER BY tx_id, id
      LIMIT ${limit}`;
    return rows.map(({ txId, ...row }) =>
      source === 'audit' ? { source, row: row as AuditRowText, txId } : { source, row: row as JournalRowText, txId },
    );
  }

  /** The last links (seq and hash as hex) of the chains named, or of every chain. */
  async heads(tx: Db, chains?: readonly string[]): Promise<Map<string, { seq: bigint; linkHash: string }>> {
    if (chains?.length === 0) return new Map();
    const rows = await tx.$queryRaw<Array<{ chain: string; seq: string; linkHash: string }>>`
      SELECT chain, seq::text AS seq, encode(link_hash, 'hex') AS "linkHash" FROM history_heads
      WHERE ${chains ? Prisma.sql`chain = ANY(${[...chains]}::text[])` : Prisma.sql`true`}`;
    return new Map(rows.map((row) => [row.chain, { seq: BigInt(row.seq), linkHash: row.linkHash }]));
  }

  /** Writes the links, moves each chain's head to its last new link and the source's cursor to its last row: one statement. */
  async append(tx: Prisma.TransactionClient, source: HistorySource, links: readonly NewLink[], cursor: HistoryCursor): Promise<void> {
    if (links.length === 0) return;
    const last = new Map<string, NewLink>();
    for (const link of links) last.set(link.chain, link);
    const heads = [...last.values()];
    await tx.$executeRaw`
      WITH links AS (
        INSERT INTO history_links (chain, seq, source, row_id, row_hash, link_hash)
        SELECT l.chain, l.seq, ${source}, l.row_id, decode(l.row_hash, 'hex'), decode(l.link_hash, 'hex')
        FROM unnest(${links.map((l) => l.chain)}::text[], ${links.map((l) => l.seq.toString())}::bigint[],
          ${links.map((l) => l.rowId)}::uuid[], ${links.map((l) => l.rowHash)}::text[], ${links.map((l) => l.linkHash)}::text[])
          AS l(chain, seq, row_id, row_hash, link_hash)
      ), heads AS (
        INSERT INTO history_heads (chain, seq, link_hash)
        SELECT h.chain, h.seq, decode(h.link_hash, 'hex')
        FROM unnest(${heads.map((h) => h.chain)}::text[], ${heads.map((h) => h.seq.toString())}::bigint[],
          ${heads.map((h) => h.linkHash)}::text[]) AS h(chain, seq, link_hash)
        ON CONFLICT (chain) DO UPDATE SET seq = EXCLUDED.seq, link_hash = EXCLUDED.link_hash, updated_at = now()
      )
      INSERT INTO history_cursors (source, tx_id, row_id) VALUES (${source}, ${cursor.txId}::bigint, ${cursor.rowId}::uuid)
      ON CONFLICT (source) DO UPDATE SET tx_id = EXCLUDED.tx_id, row_id = EXCLUDED.row_id, updated_at = now()`;
  }

  /** A page of a source's links in (chain, seq) order after (chain, seq), each with its row as it is now. */
  async linksAfter(tx: Db, source: HistorySource, after: { chain: string; seq: string }, limit: number): Promise<StoredLink[]> {
    const rows = await tx.$queryRaw<
      Array<
        { chain: string; seq: string; rowId: string; rowHash: string; linkHash: string; present: boolean } & Record<string, string | null>
      >
    >`
      SELECT l.chain, l.seq::text AS seq, l.row_id::text AS "rowId", encode(l.row_hash, 'hex') AS "rowHash",
        encode(l.link_hash, 'hex') AS "linkHash", r.id IS NOT NULL AS present, r.*
      FROM history_links l
      LEFT JOIN LATERAL (SELECT ${COLUMNS[source]} FROM ${TABLES[source]} WHERE id = l.row_id) r ON true
      WHERE l.source = ${source} AND (l.chain, l.seq) > (${after.chain}, ${after.seq}::bigint)
      ORDER BY l.chain, l.seq
      LIMIT ${limit}`;
    return rows.map(({ chain, seq, rowId, rowHash, linkHash, present, ...rest }) => ({
      chain,
      seq,
      rowId,
      rowHash,
      linkHash,
      row: present ? ({ source, row: { ...rest, id: rowId } } as HistoryRowText) : null,
    }));
  }

  /** Rows at or before the source's cursor that no link names: written behind the chain (a back-dated insert). */
  async unlinkedBehind(tx: Db, source: HistorySource, limit: number): Promise<Array<{ rowId: string }>> {
    return tx.$queryRaw<Array<{ rowId: string }>>`
      SELECT r.id::text AS "rowId"
      FROM history_cursors c
      JOIN ${TABLES[source]} r ON (r.tx_id, r.id) <= (c.tx_id, c.row_id)
      WHERE c.source = ${source}
        AND NOT EXISTS (SELECT 1 FROM history_links l WHERE l.source = ${source} AND l.row_id = r.id)
      LIMIT ${limit}`;
  }
}
