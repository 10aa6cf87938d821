import type { ListResponse } from '@kasa/contracts';
import type { EventStatus } from '@kasa/db';
import type { CursorCodec } from '../domain/cursor.js';
import { listPage, type ListQuery } from '../use-cases/list-records.use-case.js';
import type { EventRepository } from './event.repository.js';
import { toEventView, type EventView } from './event-view.js';

/** The list filters of the events surface: the shared list contract plus `type`. */
export interface EventListQuery extends ListQuery {
  type?: string;
}

/**
 * One newest-first page of events. `siteId` undefined lists every site (ops). The type filter is part of
 * the list's name, so a cursor is bound to it like to the other filters.
 */
export async function listEvents(
  deps: { events: EventRepository; cursors: CursorCodec },
  siteId: string | undefined,
  query: EventListQuery,
): Promise<ListResponse<EventView>> {
  const types = typeof query.type === 'string' ? [...new Set(query.type.split(','))].sort() : undefined;
  return listPage(
    {
      name: `events${types ? `?type=${types.join(',')}` : ''}`,
      schema: 'listEvents',
      fetch: (_scope, statuses, window) =>
        deps.events.list(
          { ...(siteId ? { siteId } : {}), ...(statuses ? { statuses: statuses as EventStatus[] } : {}), ...(types ? { types } : {}) },
          window,
        ),
      toItem: toEventView,
    },
    deps.cursors,
    siteId ?? '*',
    query,
  );
}
