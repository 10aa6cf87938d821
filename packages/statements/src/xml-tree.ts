import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { StatementError } from './statement.js';

/** An element as fast-xml-parser gives it: child elements by name, attributes as `@name`, text as `#text`. */
export interface XmlElement {
  [name: string]: XmlValue;
}
export type XmlValue = string | XmlElement | XmlValue[];

/** Elements that repeat in camt.053 (02 to 13): always arrays, so one entry and three entries read the same way. */
const REPEATING = new Set(['Stmt', 'Bal', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'Chrgs', 'Rcrd']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Amounts, references and IBANs stay exactly as written: `0015.10` must not become 15.1, `0001` must not become 1.
  parseTagValue: false,
  parseAttributeValue: false,
  // `<ns2:Ntry>` and `<Ntry>` read alike; the `xmlns:ns2` attribute stays so the document type can still be checked.
  transformTagName: (name) => name.replace(/^[^:]+:/, ''),
  htmlEntities: true,
  isArray: (name, _path, _isLeaf, isAttribute) => !isAttribute && REPEATING.has(name),
});

/** Parses well-formed XML; anything else is a StatementError at the parser's line. */
export function readXml(body: string): XmlElement {
  const doctype = /<!DOCTYPE/i.exec(body);
  if (doctype) {
    // ISO 20022 documents never carry a DTD; refusing one closes the door on entity-expansion tricks.
    throw new StatementError('XML with a DOCTYPE is refused (ISO 20022 documents have none)', `line ${lineOf(body, doctype.index)}`);
  }
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new StatementError(`malformed XML: ${valid.err.msg}`, `line ${valid.err.line}`);
  return parser.parse(body) as XmlElement; // fast-xml-parser types its output as any; the shape is XmlElement by construction.
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The elements named `name` under `element`, in document order. */
export function all(element: XmlElement | undefined, name: string): XmlElement[] {
  const value = element?.[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((item) =>
    typeof item === 'object' && !Array.isArray(item) ? item : { '#text': flat(item) },
  );
}

/** The first element at a slash path (`RltdPties/Dbtr/Nm`), or undefined. */
export function at(element: XmlElement | undefined, path: string): XmlElement | undefined {
  let current = element;
  for (const name of path.split('/')) current = all(current, name)[0];
  return current;
}

/** The text at a slash path, trimmed; undefined when the element is absent or empty. */
export function textAt(element: XmlElement | undefined, path: string): string | undefined {
  return ownText(at(element, path));
}

/** The element's own text, trimmed; undefined when absent or empty. */
export function ownText(element: XmlElement | undefined): string | undefined {
  const text = element === undefined ? '' : flat(element['#text']).trim();
  return text ? text : undefined;
}

function flat(value: XmlValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(flat).join('');
  return flat(value['#text']);
}
