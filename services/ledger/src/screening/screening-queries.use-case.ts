import type { ScreeningListRepository } from './screening-list.repository.js';
import type { ScreeningRepository } from './screening.repository.js';
import { toScreeningHit, toScreeningListVersion } from './screening.views.js';

/** The most hits one answer lists: the queue is worked oldest first, so the next ones come as these are decided. */
const HITS_LIMIT = 200;

/** Every imported list version, newest first, marking each list's current one. */
export async function listScreeningLists(deps: { screeningLists: ScreeningListRepository }) {
  const [versions, current] = await Promise.all([deps.screeningLists.list(), deps.screeningLists.current()]);
  const currentIds = new Set(current.map((version) => version.id));
  return { data: versions.map((version) => toScreeningListVersion(version, currentIds.has(version.id))) };
}

/** The compliance queue (OPEN, oldest first) or the decided hits (newest decision first). */
export async function listScreeningHits(
  deps: { screenings: ScreeningRepository },
  status: 'OPEN' | 'CLEARED' | 'CONFIRMED' | 'DECIDED' = 'OPEN',
) {
  const statuses = status === 'DECIDED' ? ['CLEARED', 'CONFIRMED'] : [status];
  return { data: (await deps.screenings.hits(statuses, HITS_LIMIT)).map(toScreeningHit) };
}
