import type { CursorPosition } from './cursor.js';

export interface ListWindow {
  createdFrom?: Date;
  createdTo?: Date;
  after?: CursorPosition;
  limit: number;
  /** Oldest first (an ops queue worked from the front); newest first otherwise. Only {@link keysetPage} honours it. */
  oldestFirst?: boolean;
}

/**
 * The WHERE clause (after `site_id = $1`) and parameters of a newest-first keyset page over
 * (created_at, id). The row comparison is one index range on (site_id, created_at DESC, id DESC), so the
 * last page costs what the first does.
 */
export function keysetClause(window: ListWindow, statuses: string[] | undefined, firstParam: number) {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  if (statuses) clauses.push(`status::text = ANY(${next(statuses)}::text[])`);
  if (window.createdFrom) clauses.push(`created_at >= ${next(window.createdFrom)}`);
  if (window.createdTo) clauses.push(`created_at < ${next(window.createdTo)}`);
  if (window.after) clauses.push(`(created_at, id) < (${next(window.after.createdAt)}, ${next(window.after.id)}::uuid)`);
  return {
    where: clauses.map((clause) => ` AND ${clause}`).join(''),
    tail: ` ORDER BY created_at DESC, id DESC LIMIT ${next(window.limit)}`,
    params,
  };
}

/**
 * The same page as Prisma `findMany` arguments, for lists off the partner hot path (the ops API's): `where`
 * holds the list's filters. Newest first, or oldest first when the window says so.
 */
export function keysetPage<Where extends object>(where: Where, window: ListWindow) {
  return {
    where: { AND: [where, keysetWhere(window)] },
    orderBy: window.oldestFirst ? OLDEST_FIRST : NEWEST_FIRST,
    take: window.limit,
  };
}

function keysetWhere(window: ListWindow) {
  const createdAt: { gte?: Date; lt?: Date } = {};
  if (window.createdFrom) createdAt.gte = window.createdFrom;
  if (window.createdTo) createdAt.lt = window.createdTo;
  const beyond = window.oldestFirst ? 'gt' : 'lt';
  const after = window.after
    ? {
        OR: [{ createdAt: { [beyond]: window.after.createdAt } }, { createdAt: window.after.createdAt, id: { [beyond]: window.after.id } }],
      }
    : {};
  return { ...(Object.keys(createdAt).length > 0 ? { createdAt } : {}), ...after };
}

const NEWEST_FIRST = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
const OLDEST_FIRST = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
