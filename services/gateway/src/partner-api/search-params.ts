/** Parsed filters as a query string for the ledger (absent filters left out). */
export function searchOf(filters: Readonly<Record<string, string | undefined>>): string {
  const present = Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return new URLSearchParams(present).toString();
}
