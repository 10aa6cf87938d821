/** Markup that is safe to send as is: produced by `html` (or {@link trustedHtml} for constants). */
export class SafeHtml {
  constructor(readonly value: string) {}

  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for an element body or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c] as string);
}

/** Marks a compile-time constant as markup; never pass anything that came from a request or a database. */
export function trustedHtml(constant: string): SafeHtml {
  return new SafeHtml(constant);
}
