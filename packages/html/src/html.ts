import { SafeHtml, escapeHtml } from './safe-html.js';
import { SafeUrl } from './safe-url.js';
import { slotContexts, type SlotContext } from './template-context.js';

/**
 * What may appear inside `${...}`: text is escaped, SafeHtml passes through, SafeUrl is escaped like text,
 * arrays are joined, and `null`, `undefined` and `false` render nothing (so `${cond && html`...`}` reads
 * naturally).
 */
export type HtmlValue = SafeHtml | SafeUrl | string | number | bigint | null | undefined | false | readonly HtmlValue[];

/** Attributes whose value the browser loads or navigates to. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'srcset',
  'action',
  'formaction',
  'poster',
  'cite',
  'data',
  'ping',
  'background',
  'manifest',
  'xlink:href',
]);

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item)).join('');
  if (value instanceof SafeUrl) return escapeHtml(value.value);
  return escapeHtml(String(value));
}

function describe(value: HtmlValue): string {
  if (value instanceof SafeHtml) return 'SafeHtml';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * The value that begins a URL attribute decides where the link goes, so it must be a checked SafeUrl; a
 * literal start (`href="/intents/${id}"`) has already fixed scheme and host, and later values are text.
 */
function renderSlot(value: HtmlValue, context: SlotContext | undefined): string {
  if (context?.startsValue && context.attribute && URL_ATTRIBUTES.has(context.attribute)) {
    if (value !== null && value !== undefined && value !== false && !(value instanceof SafeUrl)) {
      throw new TypeError(
        `html: the ${context.attribute} attribute takes a SafeUrl (safeUrl, localUrl) or a literal, not ${describe(value)}`,
      );
    }
  }
  return render(value);
}

/**
 * Builds markup from a template, escaping every interpolation by default. The value at the start of an
 * `href`, `src`, `action` (and other URL) attribute must be a {@link SafeUrl}; anything else throws.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  const contexts = slotContexts(strings);
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += renderSlot(value, contexts[index]) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}
