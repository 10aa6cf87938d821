import { EVENT_STATUSES, type ListResponse, type RequestOf } from '@kasa/contracts';
import type { Prisma } from '@kasa/db';
import type { SiteScope } from '../shared/site-scope.js';
import { knownStatuses } from '../shared/ops-list.use-case.js';
import type { CursorCodec } from '../shared/cursor.js';
import { listPage } from '../shared/partner-list.use-case.js';
import type { EventRepository, EventRow } from './event.repository.js';
import { toEventView, type DeliverySchedule, type EventView } from './event-view.js';

/** The list filters of the events surface (the shared list contract plus `type`), parsed with its schema. */
export type EventListQuery = RequestOf<'listEvents'>;

/**
 * One newest-first page of events. `siteId` undefined lists every site (ops). The type filter is part of
 * the list's name, so a cursor is bound to it like to the other filters. Each page reads its PENDING events'
 * replay times once, for their `nextAttemptAt`.
 */
export async function listEvents<Item = EventView>(
  deps: { events: EventRepository; cursors: CursorCodec; config: { webhookRetryDelayMs: number } },
  siteId: string | undefined,
  query: EventListQuery,
  toItem: (row: EventRow, schedule: DeliverySchedule) => Item = toEventView as (row: EventRow, schedule: DeliverySchedule) => Item,
  /** An operator's scope: only these sites' events (the ops list); null: every site, or the one `siteId`. */
  scope: SiteScope = null,
  /** The ops list's transaction (its statement timeout); the partner's list reads the pool. */
  tx?: Prisma.TransactionClient,
): Promise<ListResponse<Item>> {
  const types = query.type ? [...new Set(query.type.split(','))].sort() : undefined;
  return listPage<EventRow & { schedule: DeliverySchedule }, Item>(
    {
      name: `events${types ? `?type=${types.join(',')}` : ''}`,
      fetch: async (_scope, statuses, window) => {
        const rows = await deps.events.list(
          {
            ...(siteId ? { siteId } : {}),
            ...(statuses ? { statuses: knownStatuses(statuses, EVENT_STATUSES) } : {}),
            ...(types ? { types } : {}),
            scope,
          },
          window,
          tx,
        );
        const schedule = { retryDelayMs: deps.config.webhookRetryDelayMs, replayedAt: await deps.events.replayTimes(rows, tx) };
        return rows.map((row) => ({ ...row, schedule }));
      },
      toItem: ({ schedule, ...row }) => toItem(row, schedule),
    },
    deps.cursors,
    siteId ?? '*',
    query,
  );
}
