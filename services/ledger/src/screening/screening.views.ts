import type { ScreeningListVersion } from '@kasa/contracts';
import type { ScreeningListVersion as VersionRow } from '@kasa/db';
import type { ScreeningHit } from '@kasa/contracts';
import type { HitRow } from './screening.repository.js';
import { recordedDecisions } from './hit-decisions.js';

/** A list version as the ops API shows it. */
export function toScreeningListVersion(row: VersionRow, current: boolean): ScreeningListVersion {
  return {
    versionId: row.id,
    source: row.source,
    format: row.format === 'csv' ? 'csv' : 'un',
    generated: row.generated,
    sha256: row.sha256,
    entries: row.entryCount,
    importedAt: row.importedAt.toISOString(),
    importedBy: row.importedBy,
    current,
  };
}

const others = (json: unknown): Array<Record<string, string | number | null>> =>
  Array.isArray(json) ? (json as Array<Record<string, string | number | null>>) : [];

/** A screening hit as the ops API (and only it) shows it. */
export function toScreeningHit(row: HitRow): ScreeningHit {
  return {
    hitId: row.id,
    status: row.status as ScreeningHit['status'],
    subjectType: row.subjectType === 'deposit' ? 'deposit' : 'withdrawal',
    subjectId: row.subjectId,
    siteId: row.siteId,
    referenceNo: row.referenceNo,
    screenedName: row.screenedName,
    score: (row.scoreBp ?? 0) / 10_000,
    entry: {
      source: row.entrySource ?? '',
      entryId: row.entryId ?? '',
      reference: row.entryReference,
      matchedName: row.matchedName ?? '',
      listVersionId: row.entryVersionId ?? '',
    },
    otherEntries: others(row.otherHits),
    listVersionIds: row.listVersionIds,
    decisions: recordedDecisions(row.decisions),
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}
