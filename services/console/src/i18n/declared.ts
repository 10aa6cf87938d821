/**
 * The words of the record kinds that declare their console pages in their contract module (the `console` part of
 * OPS_RECORD_KINDS, @kasa/contracts: balance adjustments), merged into the catalogue's areas so a new kind adds no
 * message file. A declaration's place gives each word its key: its navigation link `common.nav.<section>`, its notices
 * `errors.notice.<code>` (which makes them codes a redirect may carry), its audit words `records.audit.entity.<type>`
 * and `records.audit.did.<ACTION>`, and its page's words `records.<section>.<word>` and `records.<section>.<choice>.<value>`;
 * a queue on the desk (the kind's `desk` part) its dashboard card's `dashboard.queue.<queue>` and `dashboard.queue.<queue>.what`.
 * The declaration's compiler check (OpsRecordConsoleOf, OpsRecordDeskOf) already holds both languages to the same
 * placeholders.
 */
import {
  OPS_RECORD_DESK_QUEUES,
  OPS_RECORD_KINDS,
  type ConsoleWords,
  type OpsRecordConsole,
  type OpsRecordDesk,
  type OpsRecordDeskQueue,
} from '@kasa/contracts';
import type { Catalogue } from './catalogue.js';
import type { Locale } from './locale.js';

type Kind = (typeof OPS_RECORD_KINDS)[keyof typeof OPS_RECORD_KINDS];
/** A kind with its console part declared, with the literal types of its declaration. */
export type DeclaredKind = Extract<Kind, { console: OpsRecordConsole }>;
type Declaration = DeclaredKind['console'];

/** The kinds that declare their console pages, in the kinds' order. */
export const DECLARED_KINDS: readonly DeclaredKind[] = Object.values(OPS_RECORD_KINDS).flatMap((kind) => ('console' in kind ? [kind] : []));

/** Every key a declaration gives its words, by the rules above. */
type KeysOf<C> = C extends OpsRecordConsole
  ? | `common.nav.${C['section']['name']}`
    | `errors.notice.${keyof C['notices'] & string}`
    | `records.audit.entity.${C['audit']['entityType']}`
    | `records.audit.did.${keyof C['audit']['actions'] & string}`
    | `records.${C['section']['name']}.${keyof C['words'] & string}`
    | {
        [Choice in keyof C['choices'] & string]: `records.${C['section']['name']}.${Choice}.${keyof C['choices'][Choice] & string}`;
      }[keyof C['choices'] & string]
  : never;
/** The keys of a queue's card words. */
type DeskKeysOf<D> = D extends OpsRecordDesk ? `dashboard.queue.${D['queue']}` | `dashboard.queue.${D['queue']}.what` : never;
export type DeclaredKey = KeysOf<Declaration> | DeskKeysOf<OpsRecordDeskQueue>;

/** One declaration's words by key, in one language. */
function wordsOf(c: OpsRecordConsole, locale: Locale): Array<[string, string]> {
  const page = `records.${c.section.name}`;
  const entries = (prefix: string, words: Readonly<Record<string, ConsoleWords>>) =>
    Object.entries(words).map(([name, text]): [string, string] => [`${prefix}.${name}`, text[locale]]);
  return [
    [`common.nav.${c.section.name}`, c.section.words[locale]],
    ...entries('errors.notice', c.notices),
    [`records.audit.entity.${c.audit.entityType}`, c.audit.words[locale]],
    ...entries('records.audit.did', c.audit.actions),
    ...entries(page, c.words),
    ...Object.entries(c.choices).flatMap(([choice, words]) => entries(`${page}.${choice}`, words)),
  ];
}

/** A queue's card words by key, in one language. */
function deskWordsOf(desk: OpsRecordDesk, locale: Locale): Array<[string, string]> {
  const card = `dashboard.queue.${desk.queue}`;
  return [
    [card, desk.words.title[locale]],
    [`${card}.what`, desk.words.what[locale]],
  ];
}

/** Every declared word by key, in one language. */
function declaredWords(locale: Locale): Array<[string, string]> {
  return [
    ...DECLARED_KINDS.flatMap((kind) => wordsOf(kind.console, locale)),
    ...OPS_RECORD_DESK_QUEUES.flatMap((desk) => deskWordsOf(desk, locale)),
  ];
}

/**
 * An area of the catalogue with the declared words its keys start with added. A declared key that is already the
 * area's, or that two kinds declare, stops the console at start: one of them would silently lose its words.
 */
export function withDeclared<const Area extends string, K extends string>(
  area: Area,
  own: Catalogue<K>,
): Catalogue<K | Extract<DeclaredKey, `${Area}.${string}`>> {
  const merged = (locale: Locale): Record<string, string> => {
    const words: Record<string, string> = { ...own[locale] };
    for (const [key, text] of declaredWords(locale)) {
      if (!key.startsWith(`${area}.`)) continue;
      if (key in words) throw new Error(`The console's catalogue has ${key} twice: a declared record kind repeats it.`);
      words[key] = text;
    }
    return words;
  };
  // The keys added are the ones KeysOf reads off the same declarations, each kept to its area's prefix.
  return { en: merged('en'), tr: merged('tr') };
}
