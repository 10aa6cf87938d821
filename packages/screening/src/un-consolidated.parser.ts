import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  ScreeningListError,
  tidy,
  type EntryKind,
  type EntryName,
  type ListEntry,
  type NameQuality,
  type ParsedList,
} from './list-entry.js';

/** The `source` of every entry and of the version read from the UN Security Council consolidated list. */
export const UN_SOURCE = 'un-sc-consolidated';

/** An element as fast-xml-parser gives it: children by name, attributes as `@name`, text as `#text`. */
interface XmlElement {
  [name: string]: XmlValue;
}
type XmlValue = string | XmlElement | XmlValue[];

/** Elements the list repeats: always arrays, so one alias and five read alike. */
const REPEATING = new Set([
  'INDIVIDUALS',
  'ENTITIES',
  'INDIVIDUAL',
  'ENTITY',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'NATIONALITY',
  'VALUE',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Ids and reference numbers stay as written: DATAID `0110403` must not become a number.
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name, _path, _isLeaf, isAttribute) => !isAttribute && REPEATING.has(name),
});

/** The list's alias grades; an alias with none written is taken as a plain a.k.a. */
const QUALITIES: Record<string, NameQuality> = { good: 'good', low: 'low', 'a.k.a.': 'aka', 'f.k.a.': 'fka', '': 'aka' };

/**
 * Reads the UN Security Council consolidated list as the UN publishes it (scsanctions.un.org, `consolidated.xml`):
 * `CONSOLIDATED_LIST dateGenerated=...` holding `INDIVIDUALS/INDIVIDUAL` and `ENTITIES/ENTITY`. Anything else
 * (not XML, another root, an entry without an id or a name) is a {@link ScreeningListError} naming the place.
 */
export function parseUnConsolidatedXml(text: string): ParsedList {
  const doctype = /<!DOCTYPE/i.exec(text);
  // The UN file has no DTD; refusing one closes the door on entity-expansion tricks.
  if (doctype) throw new ScreeningListError('XML with a DOCTYPE is refused (the UN list has none)', `line ${lineAt(text, doctype.index)}`);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ScreeningListError(`malformed XML: ${valid.err.msg}`, `line ${valid.err.line}`);
  let tree: XmlElement;
  try {
    tree = parser.parse(text) as XmlElement; // fast-xml-parser types its output as any; the shape is XmlElement by construction.
  } catch (error) {
    throw new ScreeningListError(`XML cannot be read: ${error instanceof Error ? error.message : String(error)}`, 'document');
  }
  const root = tree.CONSOLIDATED_LIST;
  if (!isElement(root)) {
    const found = Object.keys(tree).find((key) => !key.startsWith('?')) ?? 'nothing';
    throw new ScreeningListError(`not a UN consolidated list: the root element is ${found}, not CONSOLIDATED_LIST`, 'document');
  }
  const generated = textOf(root['@dateGenerated']) || null;
  const entries = [
    ...elements(root, 'INDIVIDUALS')
      .flatMap((section) => elements(section, 'INDIVIDUAL'))
      .map((element, index) => entryOf(element, 'individual', index)),
    ...elements(root, 'ENTITIES')
      .flatMap((section) => elements(section, 'ENTITY'))
      .map((element, index) => entryOf(element, 'entity', index)),
  ];
  return { version: { source: UN_SOURCE, generated, entries: entries.length }, entries };
}

function entryOf(element: XmlElement, kind: EntryKind, index: number): ListEntry {
  const tag = kind === 'individual' ? 'INDIVIDUAL' : 'ENTITY';
  const id = textOf(element.DATAID).trim();
  const where = `${tag} ${index + 1}${id ? ` (DATAID ${id})` : ''}`;
  if (!id) throw new ScreeningListError('has no DATAID', where);
  const parts = kind === 'individual' ? ['FIRST_NAME', 'SECOND_NAME', 'THIRD_NAME', 'FOURTH_NAME'] : ['FIRST_NAME'];
  const primary = tidy(parts.map((name) => textOf(element[name])).join(' '));
  if (!primary) throw new ScreeningListError('has no name (FIRST_NAME is empty)', where);
  const names: EntryName[] = [{ text: primary, quality: 'primary' }];
  const add = (text: string, quality: NameQuality) => {
    if (text && !names.some((name) => name.text.toUpperCase() === text.toUpperCase())) names.push({ text, quality });
  };
  add(tidy(textOf(element.NAME_ORIGINAL_SCRIPT)), 'original-script');
  for (const alias of elements(element, `${tag}_ALIAS`)) {
    const grade = tidy(textOf(alias.QUALITY)).toLowerCase();
    add(tidy(textOf(alias.ALIAS_NAME)), QUALITIES[grade] ?? 'aka');
  }
  return {
    source: UN_SOURCE,
    id,
    kind,
    names,
    reference: tidy(textOf(element.REFERENCE_NUMBER)) || null,
    program: tidy(textOf(element.UN_LIST_TYPE)) || null,
    listedOn: /^\d{4}-\d{2}-\d{2}/.exec(textOf(element.LISTED_ON).trim())?.[0] ?? null,
    birthDates: unique(elements(element, 'INDIVIDUAL_DATE_OF_BIRTH').map(birthDateOf)),
    nationalities: unique(elements(element, 'NATIONALITY').flatMap((nationality) => values(nationality))),
  };
}

/** `DATE` (sometimes with a zone offset after the day), else `YEAR`, else `FROM_YEAR/TO_YEAR`; '' when none is given. */
function birthDateOf(element: XmlElement): string {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(textOf(element.DATE).trim())?.[0];
  if (date) return date;
  const year = textOf(element.YEAR).trim();
  if (/^\d{4}$/.test(year)) return year;
  const from = textOf(element.FROM_YEAR).trim();
  const to = textOf(element.TO_YEAR).trim();
  return /^\d{4}$/.test(from) && /^\d{4}$/.test(to) ? `${from}/${to}` : '';
}

const unique = (texts: string[]): string[] => [...new Set(texts.filter((text) => text !== ''))];

const isElement = (value: XmlValue | undefined): value is XmlElement => typeof value === 'object' && !Array.isArray(value);

/** The repeated children `name` of `element` that are elements (an empty `<ALIAS/>` reads as '' and is skipped). */
function elements(element: XmlElement | undefined, name: string): XmlElement[] {
  const value = element?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter(isElement);
}

/** The `VALUE` texts of a `<X><VALUE>...</VALUE>...</X>` element, tidied, empty ones left out. */
function values(element: XmlElement): string[] {
  const value = element.VALUE;
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.map((item) => tidy(textOf(item))).filter((text) => text !== '');
}

/** An element's text: a plain string, or `#text` of an element that also has attributes; '' for anything else. */
function textOf(value: XmlValue | undefined): string {
  if (typeof value === 'string') return value;
  if (isElement(value)) return textOf(value['#text']);
  return '';
}

const lineAt = (text: string, index: number): number => text.slice(0, index).split('\n').length;
