/**
 * The console's message catalogue: every word an operator reads, in English and Turkish, one area file per part of
 * the console (messages/). Pages write `t('review.title')` for text and `th('common.footer.shortcuts', { key:
 * html`<kbd>?</kbd>` })` where a message holds markup; both read the request's language (locale.ts).
 *
 * To add a message: put the key in both languages of its area file (the compiler refuses one without the other),
 * keep `{placeholders}` the same on both sides, and never write markup into a message: pass it as a parameter. A record
 * kind that declares its console pages in its contract module brings its words with it (declared.ts).
 */
import { escapeHtml, SafeHtml } from '@kasa/html';
import type { Catalogue } from './catalogue.js';
import { withDeclared } from './declared.js';
import { currentLocale, type Locale } from './locale.js';
import { auth } from './messages/auth.js';
import { client } from './messages/client.js';
import { common } from './messages/common.js';
import { components } from './messages/components.js';
import { dashboard } from './messages/dashboard.js';
import { errors } from './messages/errors.js';
import { csv } from './messages/csv.js';
import { money } from './messages/money.js';
import { payouts } from './messages/payouts.js';
import { records } from './messages/records.js';
import { review } from './messages/review.js';
import { sites } from './messages/sites.js';
import { screening } from './messages/screening.js';
import { risk } from './messages/risk.js';

/** Every area, by the prefix its keys start with (the catalogue test holds keys to their area's prefix). */
export const AREAS = {
  common: withDeclared('common', common),
  auth,
  errors: withDeclared('errors', errors),
  components,
  client,
  review,
  sites,
  dashboard: withDeclared('dashboard', dashboard),
  payouts,
  records: withDeclared('records', records),
  money,
  csv,
  screening,
  risk,
} as const;

type AreaKey<A> = A extends Catalogue<infer K> ? K : never;
export type MessageKey = { [A in keyof typeof AREAS]: AreaKey<(typeof AREAS)[A]> }[keyof typeof AREAS];

function merged(locale: Locale): Record<MessageKey, string> {
  return Object.assign({}, ...Object.values(AREAS).map((area: Catalogue<string>) => area[locale])) as Record<MessageKey, string>;
}

export const MESSAGES: Record<Locale, Record<MessageKey, string>> = { en: merged('en'), tr: merged('tr') };

/** Whether `key` is one of the catalogue's: for a key built from a declaration's names (pages/declared-record.page.ts). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES.en, key);
}

export type MessageParams = Record<string, string | number | bigint>;

/** The text of `key` in the request's language, with `{name}` placeholders filled in. */
export function t(key: MessageKey, params: MessageParams = {}, locale: Locale = currentLocale()): string {
  return MESSAGES[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Like {@link t} for a message around markup: the text is escaped, SafeHtml parameters go in as they are. */
export function th(key: MessageKey, params: Record<string, string | number | bigint | SafeHtml> = {}): SafeHtml {
  const text = MESSAGES[currentLocale()][key];
  const parts: string[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const name = match[1] as string;
    if (!(name in params)) continue;
    parts.push(escapeHtml(text.slice(last, match.index)));
    const value = params[name] as string | number | bigint | SafeHtml;
    parts.push(value instanceof SafeHtml ? value.value : escapeHtml(String(value)));
    last = match.index + match[0].length;
  }
  parts.push(escapeHtml(text.slice(last)));
  return new SafeHtml(parts.join(''));
}

export { currentLocale, currentTimeZone, withLocale, type Locale } from './locale.js';
