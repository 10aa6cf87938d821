/**
 * The console's only way to produce markup: a tagged template that escapes every interpolated value unless
 * it is already {@link SafeHtml}. Pages never concatenate strings into HTML, so nothing an operator, a
 * partner or a bank feed typed can become markup.
 */

/** Markup that is safe to send as is: produced by {@link html} (or {@link trustedHtml} for constants). */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

/**
 * What may appear inside `${...}`: text is escaped, SafeHtml passes through, arrays are joined, and
 * `null`, `undefined` and `false` render nothing (so `${cond && html`...`}` reads naturally).
 */
export type HtmlValue = SafeHtml | string | number | bigint | null | undefined | false | readonly HtmlValue[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for an element body or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] as string);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item)).join('');
  return escapeHtml(String(value));
}

/** Builds markup from a template, escaping every interpolation by default. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Marks a compile-time constant as markup; never pass anything that came from a request or the ledger. */
export function trustedHtml(constant: string): SafeHtml {
  return new SafeHtml(constant);
}
