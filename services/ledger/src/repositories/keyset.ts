import type { CursorPosition } from '../domain/cursor.js';

export interface ListWindow {
  createdFrom?: Date;
  createdTo?: Date;
  after?: CursorPosition;
  limit: number;
}

/**
 * The Prisma `where` and `orderBy` of a newest-first keyset page over (createdAt, id); served by the
 * (site_id, created_at DESC, id DESC) index, so the last page costs what the first does.
 */
export function keysetWhere(window: ListWindow) {
  const createdAt: { gte?: Date; lt?: Date } = {};
  if (window.createdFrom) createdAt.gte = window.createdFrom;
  if (window.createdTo) createdAt.lt = window.createdTo;
  const after = window.after
    ? { OR: [{ createdAt: { lt: window.after.createdAt } }, { createdAt: window.after.createdAt, id: { lt: window.after.id } }] }
    : {};
  return { ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}), ...after };
}

export const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
