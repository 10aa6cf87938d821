import { Prisma, type PrismaClient, type ScreeningListVersion } from '@kasa/db';
import type { EntryName, ListEntry } from '@kasa/screening';

type Tx = Prisma.TransactionClient;

/** Entries written per statement when a list is imported (the UN list holds about a thousand, a national list more). */
const ENTRY_CHUNK = 1_000;

/** A list version as it was imported, with the file's facts. */
export interface NewListVersion {
  source: string;
  format: 'un' | 'csv';
  generated: string | null;
  sha256: string;
  importedBy: string;
}

/** The newest version of a list: the one screened against. */
export interface CurrentVersion {
  id: string;
  source: string;
}

/**
 * The imported sanctions and asset-freeze lists (docs/compliance.md, Sanctions and asset-freeze screening): each
 * version with its entries, kept so any ledger can rebuild its screening index from the database alone.
 */
export class ScreeningListRepository {
  constructor(private readonly db: PrismaClient) {}

  findByHash(tx: Tx, sha256: string): Promise<ScreeningListVersion | null> {
    return tx.screeningListVersion.findUnique({ where: { sha256 } });
  }

  /**
   * Serialises imports (two uploads of the same file at once find each other's version, never insert twice) for the
   * importing transaction.
   */
  async lockImports(tx: Tx): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('screening-list-import', 0))`;
  }

  /** The version and every entry of it, in the caller's transaction. */
  async insertVersion(tx: Tx, version: NewListVersion, entries: readonly ListEntry[]): Promise<ScreeningListVersion> {
    const created = await tx.screeningListVersion.create({ data: { ...version, entryCount: entries.length } });
    for (let at = 0; at < entries.length; at += ENTRY_CHUNK) {
      await tx.screeningListEntry.createMany({
        data: entries.slice(at, at + ENTRY_CHUNK).map((entry) => ({
          versionId: created.id,
          entryId: entry.id,
          kind: entry.kind,
          names: entry.names as unknown as Prisma.InputJsonValue,
          reference: entry.reference,
          program: entry.program?.slice(0, 200) ?? null,
          listedOn: entry.listedOn,
        })),
      });
    }
    return created;
  }

  /** Every version, newest first. */
  list(): Promise<ScreeningListVersion[]> {
    return this.db.screeningListVersion.findMany({ orderBy: [{ importedAt: 'desc' }, { id: 'desc' }] });
  }

  /** The newest version of each list (by import time), ordered by source: what names are screened against now. */
  current(tx?: Tx): Promise<CurrentVersion[]> {
    return (tx ?? this.db).$queryRaw<CurrentVersion[]>`
      SELECT DISTINCT ON (source) id::text AS id, source FROM screening_list_versions
      ORDER BY source, imported_at DESC, id DESC`;
  }

  /**
   * The entries of these versions, as the screening index takes them, each with the version it belongs to; through the
   * caller's transaction when one screens inside it.
   */
  async entriesOf(versions: readonly CurrentVersion[], tx?: Tx): Promise<Array<ListEntry & { versionId: string }>> {
    const sourceOf = new Map(versions.map((version) => [version.id, version.source]));
    const rows = await (tx ?? this.db).screeningListEntry.findMany({
      where: { versionId: { in: versions.map((version) => version.id) } },
      orderBy: [{ versionId: 'asc' }, { entryId: 'asc' }],
    });
    return rows.map((row) => ({
      versionId: row.versionId,
      source: sourceOf.get(row.versionId) ?? '',
      id: row.entryId,
      kind: row.kind === 'entity' ? 'entity' : 'individual',
      names: row.names as unknown as EntryName[],
      reference: row.reference,
      program: row.program,
      listedOn: row.listedOn,
      birthDates: [],
      nationalities: [],
    }));
  }
}
