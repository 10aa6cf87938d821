/** An optional instant as the APIs write it: ISO 8601 in UTC, or null. */
export const isoOrNull = (value: Date | null): string | null => (value ? value.toISOString() : null);
