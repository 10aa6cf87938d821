/**
 * What the deposit and withdrawal review repositories share: the conditional write and the filters of the
 * operators' lists.
 */

/** Prisma's "record to update not found" (P2025) means the status condition did not hold. */
function nullWhenNoRow(error: unknown): null {
  if ((error as { code?: string }).code === 'P2025') return null;
  throw error;
}

/**
 * The conditional write, one `UPDATE ... WHERE id = $1 AND status = $2 RETURNING *` through the table's
 * `update`, with a fresh updatedAt; null when the row is no longer in `from` (never after a lock, but
 * checked rather than assumed).
 */
export function updateFrom<Status, Data extends object, Row>(
  update: (args: { where: { id: string; status: Status }; data: Data & { updatedAt: Date } }) => Promise<Row>,
  id: string,
  from: Status,
  data: Data,
): Promise<Row | null> {
  return update({ where: { id, status: from }, data: { ...data, updatedAt: new Date() } }).catch(nullWhenNoRow);
}

/** Filters of the deposit and withdrawal lists (reference normalized by the caller; amounts in kuruş, inclusive). */
export interface ReviewListFilter<Status> {
  siteId?: string;
  statuses?: Status[];
  referenceNo?: string;
  externalUserId?: string;
  amountMin?: bigint;
  amountMax?: bigint;
  /** Live sites' records only (true) or the sandboxes' (false). */
  livemode?: boolean;
}

export function reviewWhere<Status>(filter: ReviewListFilter<Status>) {
  return {
    ...(filter.livemode !== undefined ? { site: { livemode: filter.livemode } } : {}),
    ...(filter.siteId ? { siteId: filter.siteId } : {}),
    ...(filter.statuses ? { status: { in: filter.statuses } } : {}),
    ...(filter.referenceNo ? { referenceNo: filter.referenceNo } : {}),
    ...(filter.externalUserId ? { externalUserId: filter.externalUserId } : {}),
  };
}

export function amountWhere<Field extends string>(field: Field, { amountMin, amountMax }: { amountMin?: bigint; amountMax?: bigint }) {
  if (amountMin === undefined && amountMax === undefined) return {};
  return {
    [field]: { ...(amountMin !== undefined ? { gte: amountMin } : {}), ...(amountMax !== undefined ? { lte: amountMax } : {}) },
  } as Record<Field, { gte?: bigint; lte?: bigint }>;
}
