/**
 * What a unique violation names: the constraint (index) and, where the driver says, the columns. Null when
 * `error` is not a unique violation. Recognised by error code, never by searching the message:
 * PostgreSQL's SQLSTATE 23505 from a raw `pg` query, Prisma's P2002 from a model call (a
 * `PrismaClientKnownRequestError`, told by its code so that only repositories need `@kasa/db`'s values).
 */
export function uniqueViolationOf(error: unknown): { constraint: string | null; fields: string[] } | null {
  if (error instanceof Error && 'code' in error && error.code === 'P2002') {
    const meta: Record<string, unknown> = 'meta' in error && typeof error.meta === 'object' && error.meta !== null ? { ...error.meta } : {};
    const cause = (meta.driverAdapterError as { cause?: { constraint?: { index?: string; fields?: string[] } } } | undefined)?.cause;
    const target = meta.target;
    return {
      constraint: cause?.constraint?.index ?? (typeof target === 'string' ? target : null),
      fields: cause?.constraint?.fields ?? (Array.isArray(target) ? target.map(String) : []),
    };
  }
  if (error instanceof Error && 'code' in error && error.code === '23505') {
    const constraint = 'constraint' in error && typeof error.constraint === 'string' ? error.constraint : null;
    return { constraint, fields: [] };
  }
  return null;
}

/** True for a unique violation; with `target`, only when it names that constraint or column (e.g. `reference_no`). */
export function isUniqueViolation(error: unknown, target?: string): boolean {
  const violation = uniqueViolationOf(error);
  if (!violation) return false;
  if (target === undefined) return true;
  return (
    (violation.constraint?.includes(target) ?? false) || violation.fields.some((field) => field === target || toSnake(field) === target)
  );
}

const toSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
