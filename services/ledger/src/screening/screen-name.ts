import type { Logger } from '@kasa/logger';
import type { SiteRepository } from '../sites/site.repository.js';
import type { AlongsideInsert } from '../site-records/site-scoped.repository.js';
import type { ListIndex, ListMatch, NameScreening } from './list-index.js';
import { entryKey, type NewScreening, type ScreeningRepository, type ScreeningStatus, type SubjectType } from './screening.repository.js';

export interface ScreenNameDeps {
  logger: Logger;
  sites: SiteRepository;
  listIndex: ListIndex;
  screenings: ScreeningRepository;
}

/**
 * What a screening's matches mean for a record that already has hits for `known` entries: a hit (OPEN) on the best
 * entry not yet held or decided for it; KNOWN when every entry matched already has its hit (a decision stands until
 * the entry changes list); CLEAN without a match.
 */
export function outcomeOf(
  screening: NameScreening,
  known: ReadonlySet<string> = new Set(),
): Pick<NewScreening, 'status' | 'best' | 'others'> {
  const fresh = screening.matches.filter((match) => !known.has(entryKey(match.source, match.entryId)));
  const best: ListMatch | null = fresh[0] ?? screening.matches[0] ?? null;
  const status: ScreeningStatus = fresh.length > 0 ? 'OPEN' : best ? 'KNOWN' : 'CLEAN';
  return { status, best, others: screening.matches.filter((match) => match !== best) };
}

/**
 * Screens the name of a record about to be created (a withdrawal's beneficiary) before its create's statement, and
 * gives the screening row that statement writes with the record; a hit is OPEN from the record's first moment, so no
 * approval can come before the hold. A sandbox's records are not screened (no real money moves, and a test key must
 * not be a way to probe the lists): undefined then.
 */
export async function screeningOfNewRecord(
  deps: ScreenNameDeps,
  subjectType: SubjectType,
  siteId: string,
  name: string,
): Promise<AlongsideInsert | undefined> {
  const site = await deps.sites.findById(siteId);
  if (!site?.livemode) return undefined;
  const screening = await deps.listIndex.screen(name);
  const outcome = outcomeOf(screening);
  // The name stays out of the log; the hit's id is known once the record is.
  if (outcome.status === 'OPEN') deps.logger.info('screening hit on a new record', { subjectType, siteId, score: outcome.best?.score });
  return deps.screenings.alongsideCreate({ subjectType, screenedName: name, screening, ...outcome });
}
