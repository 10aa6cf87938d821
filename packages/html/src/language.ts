/**
 * Which of two page languages a browser prefers, from its Accept-Language header: the first of `supported` by
 * the header's q-values, or `fallback` when it names none of them. The hosted page falls back to Turkish, the
 * operator console to English.
 */
export function preferredLanguage<L extends string>(acceptLanguage: string | undefined, supported: readonly L[], fallback: L): L {
  const preferences = (acceptLanguage ?? '')
    .split(',')
    .map((part, order) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^q=([0-9.]+)$/.exec(p.trim())?.[1]).find(Boolean);
      return { primary: tag.split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), order };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  const match = preferences.find((entry) => (supported as readonly string[]).includes(entry.primary));
  return match ? (match.primary as L) : fallback;
}
