/** A listed individual (a person) or entity (an organisation, company, vessel owner...). */
export type EntryKind = 'individual' | 'entity';

/**
 * How a list vouches for a name: `primary` is the listed name itself, `original-script` the same name in its own
 * script (the UN list's NAME_ORIGINAL_SCRIPT); aliases carry the list's own grade (the UN list writes `Good` and `Low`
 * for individuals, `a.k.a.` and `f.k.a.` for entities). A `low` alias is a weak one (a nickname, a kunya) that the
 * UN itself says may not be enough to identify a person; the index scores a match on it lower.
 */
export type NameQuality = 'primary' | 'original-script' | 'good' | 'low' | 'aka' | 'fka';

export interface EntryName {
  /** As published, with runs of white space made one space. */
  text: string;
  quality: NameQuality;
}

/** One listed individual or entity, from any of the supported list formats. */
export interface ListEntry {
  /** Which list it came from (the {@link ListVersion} `source`), so ids of two lists never collide. */
  source: string;
  /** The list's own id: the UN list's DATAID, the national list's `id` column. */
  id: string;
  kind: EntryKind;
  /** The primary name first, then the other names in the list's order; never empty. */
  names: EntryName[];
  /** The list's reference (the UN list's REFERENCE_NUMBER, e.g. `QDi.400`), if any. */
  reference: string | null;
  /** The sanctions programme or legal basis (the UN list's UN_LIST_TYPE, a national list's law or decision). */
  program: string | null;
  /** YYYY-MM-DD, if the list gives it. */
  listedOn: string | null;
  /** As precise as the list is: `1964-07-17`, `1964-07`, `1984`, or a range of years `1965/1969`. */
  birthDates: string[];
  nationalities: string[];
}

/** What was imported: which list, as of when, and how many entries it held. */
export interface ListVersion {
  source: string;
  /** When the publisher generated the file (the UN list's `dateGenerated`, as written), if known. */
  generated: string | null;
  entries: number;
}

export interface ParsedList {
  version: ListVersion;
  entries: ListEntry[];
}

/** A list file that cannot be read, with the place it went wrong (`line 12`, `INDIVIDUAL 3 (DATAID 6908555)`). */
export class ScreeningListError extends Error {
  constructor(
    readonly reason: string,
    readonly location: string,
  ) {
    super(`${location}: ${reason}`);
    this.name = 'ScreeningListError';
  }
}

/** Trims and makes every run of white space (line breaks included) one space. */
export const tidy = (text: string): string => text.replace(/\s+/g, ' ').trim();
