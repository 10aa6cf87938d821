import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { MAX_XML_DEPTH, lineAt, textProblem } from './limits.js';
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

/**
 * Parses well-formed XML; anything else is a StatementError at the parser's line. Before any parser runs, the nesting
 * is bounded ({@link MAX_XML_DEPTH}) and character references are held to the body's own rule (`&#x1B;` is refused as
 * a raw ESC is), so the tree handed on holds only statement text.
 */
export function readXml(body: string): XmlElement {
  const doctype = /<!DOCTYPE/i.exec(body);
  if (doctype) {
    // ISO 20022 documents never carry a DTD; refusing one closes the door on entity-expansion tricks.
    throw new StatementError('XML with a DOCTYPE is refused (ISO 20022 documents have none)', `line ${lineAt(body, doctype.index)}`);
  }
  checkDepth(body);
  checkCharacterReferences(body);
  const valid = XMLValidator.validate(body);
  if (valid !== true) throw new StatementError(`malformed XML: ${valid.err.msg}`, `line ${valid.err.line}`);
  let tree: XmlElement;
  try {
    tree = parser.parse(body) as XmlElement; // fast-xml-parser types its output as any; the shape is XmlElement by construction.
  } catch (error) {
    // The validator passed it, so this is one of the parser's own limits (nesting, entity expansion): still the file's fault.
    throw new StatementError(`XML cannot be read: ${error instanceof Error ? error.message : String(error)}`, 'Document');
  }
  return tree;
}

/**
 * Refuses elements nested deeper than {@link MAX_XML_DEPTH}, at the line of the first one too deep, by counting tags
 * (comments, CDATA, processing instructions and quoted attribute values skipped): linear, with no recursion, so a body
 * of 20,000 nested elements costs a scan and never reaches a parser's stack or its tree.
 */
function checkDepth(body: string): void {
  let depth = 0;
  let at = body.indexOf('<');
  while (at !== -1) {
    const next = body.charCodeAt(at + 1);
    let end: number;
    if (next === 0x3f /* ? */) end = closing(body, '?>', at);
    else if (body.startsWith('<!--', at)) end = closing(body, '-->', at);
    else if (body.startsWith('<![CDATA[', at)) end = closing(body, ']]>', at);
    else if (next === 0x21 /* ! */) end = closing(body, '>', at);
    else if (next === 0x2f /* / */) {
      end = closing(body, '>', at);
      depth -= 1;
    } else {
      end = tagEnd(body, at);
      if (body.charCodeAt(end - 1) !== 0x2f /* / of <a/> */) depth += 1;
      if (depth > MAX_XML_DEPTH) {
        throw new StatementError(
          `elements are nested deeper than ${MAX_XML_DEPTH} elements (a camt.053 needs about 12)`,
          `line ${lineAt(body, at)}`,
        );
      }
    }
    if (end === -1) return; // unterminated: the validator names the place
    at = body.indexOf('<', end);
  }
}

/** The index of the last character of `terminator` after `from`, or -1. */
function closing(body: string, terminator: string, from: number): number {
  const found = body.indexOf(terminator, from + 1);
  return found === -1 ? -1 : found + terminator.length - 1;
}

/** The index of the `>` ending the start tag at `from`, skipping quoted attribute values (which may hold `>`), or -1. */
function tagEnd(body: string, from: number): number {
  for (let i = from + 1; i < body.length; i++) {
    const char = body.charCodeAt(i);
    if (char === 0x3e /* > */) return i;
    if (char === 0x22 /* " */ || char === 0x27 /* ' */) {
      i = body.indexOf(body[i] as string, i + 1);
      if (i === -1) return -1;
    }
  }
  return -1;
}

/** `&#27;`, `&#x1B;`: a character reference, which the XML reader turns into the character it names. */
const CHARACTER_REFERENCE = /&#(x[0-9a-f]+|[0-9]+);/gi;

/**
 * Refuses a character reference to what the body itself may not hold (a control character, half a surrogate pair, a
 * code point past U+10FFFF), at its line: the body scan cannot see it, and the XML reader would drop some silently and
 * hand others on, so the rule is the body's own whichever way the character is written.
 */
function checkCharacterReferences(body: string): void {
  for (const match of body.matchAll(CHARACTER_REFERENCE)) {
    const digits = match[1] ?? '';
    const code = /^x/i.test(digits) ? Number.parseInt(digits.slice(1), 16) : Number.parseInt(digits, 10);
    const problem = code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? 'names no character' : textProblem(String.fromCodePoint(code));
    if (problem) throw new StatementError(`character reference ${match[0].slice(0, 20)} ${problem}`, `line ${lineAt(body, match.index)}`);
  }
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
