import { Prisma, type PrismaClient } from '@kasa/db';
import type { SealedBalance, StoredSeal } from './history-seal.js';
import type { ListWindow } from '../shared/keyset.js';

type Db = PrismaClient | Prisma.TransactionClient;

const SEAL_COLUMNS = Prisma.sql`id::text AS id, to_char(day, 'YYYY-MM-DD') AS day, payload, encode(payload_hash, 'hex') AS "payloadHash",
  encode(previous_hash, 'hex') AS "previousHash", signature, key_id AS "keyId", sealed_at AS "sealedAt"`;

/** A seal to write: hashes as hex. */
export type NewSeal = Omit<StoredSeal, 'id'>;

/** The sealing worker's and the verifier's SQL over history_seals (docs/compliance.md, Tamper-evident history). */
export class HistorySealRepository {
  /**
   * A transaction id above every one assigned before now: a new id of its own (one statement that commits at once). A
   * snapshot's xmax will not do: it is past the last transaction to finish, and one still running can be above it.
   */
  async horizonNow(db: Db): Promise<bigint> {
    const [row] = await db.$queryRaw<Array<{ xid: string }>>`SELECT pg_current_xact_id()::text AS xid`;
    return BigInt(row?.xid ?? '0');
  }

  /**
   * Whether the chains hold every row of every transaction below `horizon`: each of those transactions has ended (the
   * snapshot's xmin is past it) and no row of one is after a source's cursor.
   */
  async chainsReached(tx: Db, horizon: bigint): Promise<boolean> {
    const [row] = await tx.$queryRaw<Array<{ reached: boolean }>>`
      SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint >= ${horizon.toString()}::bigint
        AND NOT EXISTS (
          SELECT 1 FROM audit_log r
          WHERE r.tx_id < ${horizon.toString()}::bigint
            AND (r.tx_id, r.id) > COALESCE((SELECT (c.tx_id, c.row_id) FROM history_cursors c WHERE c.source = 'audit'),
                                            (-1::bigint, '00000000-0000-0000-0000-000000000000'::uuid)))
        AND NOT EXISTS (
          SELECT 1 FROM journal_entries r
          WHERE r.tx_id < ${horizon.toString()}::bigint
            AND (r.tx_id, r.id) > COALESCE((SELECT (c.tx_id, c.row_id) FROM history_cursors c WHERE c.source = 'journal'),
                                            (-1::bigint, '00000000-0000-0000-0000-000000000000'::uuid)))
        AS reached`;
    return row?.reached === true;
  }

  /**
   * The Istanbul day of the first audit or journal entry (the first each table's (tx_id, id) index gives, so the worker's
   * pass reads two index entries, not the tables): where sealing starts. Null while there is none.
   */
  async firstDay(tx: Db): Promise<string | null> {
    const [row] = await tx.$queryRaw<Array<{ day: string | null }>>`
      SELECT to_char(least((SELECT created_at FROM audit_log ORDER BY tx_id, id LIMIT 1),
                           (SELECT created_at FROM journal_entries ORDER BY tx_id, id LIMIT 1))
        AT TIME ZONE 'Europe/Istanbul', 'YYYY-MM-DD') AS day`;
    return row?.day ?? null;
  }

  async last(tx: Db): Promise<StoredSeal | null> {
    const [row] = await tx.$queryRaw<StoredSeal[]>`SELECT ${SEAL_COLUMNS} FROM history_seals ORDER BY day DESC LIMIT 1`;
    return row ?? null;
  }

  /** Every seal, oldest day first (one a day: a few hundred a year). */
  async all(tx: Db): Promise<StoredSeal[]> {
    return tx.$queryRaw<StoredSeal[]>`SELECT ${SEAL_COLUMNS} FROM history_seals ORDER BY day`;
  }

  /** A page of seals, newest day first: the ops list's keyset over (day, id), the day standing as its midnight UTC. */
  async page(tx: Db, window: ListWindow): Promise<Array<StoredSeal & { createdAt: Date }>> {
    const rows = await tx.$queryRaw<StoredSeal[]>`
      SELECT ${SEAL_COLUMNS} FROM history_seals
      WHERE ${window.after ? Prisma.sql`(day, id) < ((${window.after.createdAt}::timestamptz AT TIME ZONE 'UTC')::date, ${window.after.id}::uuid)` : Prisma.sql`true`}
      ORDER BY day DESC, id DESC
      LIMIT ${window.limit}`;
    return rows.map((row) => ({ ...row, createdAt: new Date(`${row.day}T00:00:00Z`) }));
  }

  /**
   * Per site and journal account, the sum of the journal entries linked at or before each site's chain head as given:
   * the balances those heads cover (entries not yet linked are not counted).
   */
  async balancesCovered(tx: Db, heads: ReadonlyArray<{ chain: string; seq: string }>): Promise<SealedBalance[]> {
    const journal = heads.filter((h) => h.chain.startsWith('journal:'));
    if (journal.length === 0) return [];
    return tx.$queryRaw<SealedBalance[]>`
      SELECT j.site_id::text AS "siteId", j.account, sum(j.amount)::text AS balance
      FROM unnest(${journal.map((h) => h.chain)}::text[], ${journal.map((h) => h.seq)}::bigint[]) AS h(chain, seq)
      JOIN history_links l ON l.chain = h.chain AND l.seq <= h.seq AND l.source = 'journal'
      JOIN journal_entries j ON j.id = l.row_id
      GROUP BY j.site_id, j.account
      ORDER BY j.site_id, j.account`;
  }

  /** The link hashes (hex) now at the places named, keyed `chain seq`; a place with no link is absent. */
  async linkHashesAt(tx: Db, places: ReadonlyArray<{ chain: string; seq: string }>): Promise<Map<string, string>> {
    if (places.length === 0) return new Map();
    const rows = await tx.$queryRaw<Array<{ chain: string; seq: string; linkHash: string }>>`
      SELECT l.chain, l.seq::text AS seq, encode(l.link_hash, 'hex') AS "linkHash"
      FROM unnest(${places.map((p) => p.chain)}::text[], ${places.map((p) => p.seq)}::bigint[]) AS p(chain, seq)
      JOIN history_links l ON l.chain = p.chain AND l.seq = p.seq`;
    return new Map(rows.map((row) => [`${row.chain} ${row.seq}`, row.linkHash]));
  }

  /** The payload hashes (hex) of the seals of the days named, by day. */
  async payloadHashesOf(tx: Db, days: readonly string[]): Promise<Map<string, string>> {
    if (days.length === 0) return new Map();
    const rows = await tx.$queryRaw<Array<{ day: string; payloadHash: string }>>`
      SELECT to_char(day, 'YYYY-MM-DD') AS day, encode(payload_hash, 'hex') AS "payloadHash"
      FROM history_seals WHERE day = ANY(${[...days]}::date[])`;
    return new Map(rows.map((row) => [row.day, row.payloadHash]));
  }

  /** Writes a seal; false when the day is sealed already (another ledger got there first). */
  async insert(tx: Prisma.TransactionClient, seal: NewSeal): Promise<boolean> {
    const written = await tx.$executeRaw`
      INSERT INTO history_seals (day, payload, payload_hash, previous_hash, signature, key_id, sealed_at)
      VALUES (${seal.day}::date, ${seal.payload}, decode(${seal.payloadHash}, 'hex'),
        ${seal.previousHash === null ? null : Prisma.sql`decode(${seal.previousHash}, 'hex')`}, ${seal.signature}, ${seal.keyId},
        ${seal.sealedAt})
      ON CONFLICT (day) DO NOTHING`;
    return written === 1;
  }
}
