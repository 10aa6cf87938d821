import type { Prisma } from '@kasa/db';
import { ScreeningIndex, type ListEntry } from '@kasa/screening';
import type { CurrentVersion, ScreeningListRepository } from './screening-list.repository.js';

/** How many entries besides the best a screening keeps (the hit's `otherEntries`). */
const OTHER_HITS = 4;

/** One entry a name reached the threshold against. */
export interface ListMatch {
  versionId: string;
  source: string;
  entryId: string;
  reference: string | null;
  /** The entry's name that matched best. */
  name: string;
  /** 0..1, four decimals. */
  score: number;
}

/** What screening one name found: against which list versions, and the entries it matched, best first. */
export interface NameScreening {
  /** The current version of each list, sorted; empty before any list was imported. */
  versionIds: string[];
  /** `versionIds` joined with commas: a screening is current when its key is the lists' key now. */
  versionsKey: string;
  matches: ListMatch[];
}

interface Built {
  key: string;
  versionIds: string[];
  index: ScreeningIndex | null;
  versionOf: Map<ListEntry, string>;
}

/**
 * The screening index of this ledger, built from the current version of each list in the database. Every screening
 * first asks the database which versions are current (one small query) and rebuilds when they changed, so a list
 * imported through any ledger is used by every ledger from its next screening, and each screening records the
 * versions it was made against. Building happens once per change however many screenings wait for it.
 */
export class ListIndex {
  private built: Built | null = null;
  private building: { key: string; promise: Promise<Built> } | null = null;

  constructor(private readonly lists: ScreeningListRepository) {}

  /**
   * Screens a name against the current lists (a beneficiary's, a sender's). `tx`: screening inside a transaction (a
   * deposit's credit) reads the lists through it, never through a second pooled connection.
   */
  async screen(name: string, tx?: Prisma.TransactionClient): Promise<NameScreening> {
    const built = await this.current(tx);
    const matches = built.index
      ? built.index.screen(name, { limit: OTHER_HITS + 1 }).map((hit) => ({
          versionId: built.versionOf.get(hit.entry) ?? '',
          source: hit.entry.source,
          entryId: hit.entry.id,
          reference: hit.entry.reference,
          name: hit.name.text,
          score: hit.score,
        }))
      : [];
    return { versionIds: built.versionIds, versionsKey: built.key, matches };
  }

  /** The current versions' key, without screening (the re-screening pass compares it with each record's). */
  async currentKey(): Promise<string> {
    return (await this.current()).key;
  }

  private async current(tx?: Prisma.TransactionClient): Promise<Built> {
    const versions = await this.lists.current(tx);
    const versionIds = versions.map((version) => version.id).sort();
    const key = versionIds.join(',');
    if (this.built?.key === key) return this.built;
    if (this.building?.key === key) return this.building.promise;
    const promise = this.build(key, versionIds, versions, tx);
    this.building = { key, promise };
    promise.then(
      (built) => {
        // A newer build may have started meanwhile; keep the newest asked for.
        if (this.building?.promise === promise) {
          this.built = built;
          this.building = null;
        }
      },
      () => {
        if (this.building?.promise === promise) this.building = null;
      },
    );
    return promise;
  }

  private async build(key: string, versionIds: string[], versions: CurrentVersion[], tx?: Prisma.TransactionClient): Promise<Built> {
    if (versions.length === 0) return { key, versionIds, index: null, versionOf: new Map() };
    const entries = await this.lists.entriesOf(versions, tx);
    const versionOf = new Map<ListEntry, string>(entries.map((entry) => [entry, entry.versionId]));
    return { key, versionIds, index: new ScreeningIndex(entries), versionOf };
  }
}
