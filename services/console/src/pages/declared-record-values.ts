/**
 * A declared record kind's fields as its declaration shows them (ConsoleShow, @kasa/contracts): in a list's cell or a
 * fact (`cell`) and in a confirmation's text (`text`). A record is read as plain fields: the ops API answered it with
 * the view its declaration was checked against, and a field that is not text shows as missing rather than as a guess.
 */
import type { ConsoleShow, OpsRecordConsole } from '@kasa/contracts';
import { isMessageKey, t, type MessageParams } from '../i18n/index.js';
import { statusBadge, statusLabel } from '../views/components.js';
import { formatTime, formatTry, shortId } from '../views/format.js';
import { html, type HtmlValue } from '../views/html.js';
import { siteLink, type SiteDirectory } from './site-names.js';

/** A record as the ops API answered it. */
export type DeclaredRow = Readonly<Record<string, unknown>>;

/** A field's text, or null when it is missing, empty or not text. */
export function fieldText(row: DeclaredRow, field: string): string | null {
  const value = row[field];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** One of the declaration's words (`records.<section>.<name>`) in the request's language. */
export function declaredWord(c: OpsRecordConsole, name: string, params?: MessageParams): string {
  const key = `records.${c.section.name}.${name}`;
  // The catalogue holds every word a declaration names (i18n/declared.ts), and the compiler checked the names.
  if (!isMessageKey(key)) throw new Error(`The catalogue has no ${key}: its declaration is not among OPS_RECORD_KINDS'.`);
  return t(key, params);
}

/** A choice's words for a value; a value it has none for (one the ledger added since) shows as the ledger wrote it. */
function choiceWords(c: OpsRecordConsole, choice: string, value: string): string {
  return c.choices[choice]?.[value] ? declaredWord(c, `${choice}.${value}`) : value;
}

function siteName(sites: SiteDirectory, siteId: string): string {
  return sites.get(siteId)?.slug ?? shortId(siteId);
}

function person(show: Extract<ConsoleShow, { show: 'person' }>, row: DeclaredRow, id: string): string {
  const who = fieldText(row, show.email) ?? shortId(id);
  return show.at ? `${who} · ${formatTime(fieldText(row, show.at))}` : who;
}

/** A field as text, for a confirmation's placeholders; null when missing. */
export function text(c: OpsRecordConsole, show: ConsoleShow, row: DeclaredRow, sites: SiteDirectory): string | null {
  const value = fieldText(row, show.field);
  if (value === null) return null;
  switch (show.show) {
    case 'amount':
      return formatTry(value);
    case 'time':
      return formatTime(value);
    case 'site':
      return siteName(sites, value);
    case 'site-balance': {
      const available = sites.get(value)?.available;
      return available === undefined ? null : formatTry(available);
    }
    case 'status':
      return statusLabel(value);
    case 'person':
      return person(show, row, value);
    case 'choice':
      return choiceWords(c, show.choice, value);
    case 'text':
    case 'code':
      return value;
  }
}

/** A field as a list's cell or a fact shows it; null (shown as "—") when missing. */
export function cell(c: OpsRecordConsole, show: ConsoleShow, row: DeclaredRow, sites: SiteDirectory): HtmlValue {
  const value = fieldText(row, show.field);
  if (value === null) return null;
  const shown = show.show === 'site' ? siteLink(sites, value) : show.show === 'status' ? statusBadge(value) : text(c, show, row, sites);
  const plain = show.show === 'code' ? html`<code>${shown}</code>` : shown;
  if (!('note' in show) || !show.note) return plain;
  return html`${plain} — ${fieldText(row, show.note) ?? ''}`;
}
