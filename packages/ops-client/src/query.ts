/** Query parameters; empty and undefined values are left out, since the ledger refuses empty filters. */
export type Query = Record<string, string | undefined>;

/** `/intents` + `{status: 'A'}` -> `/intents?status=A` (empty and undefined values dropped). */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** A path segment from an id typed or clicked by an operator; never lets it change the path. */
export const seg = (id: string): string => encodeURIComponent(id);
