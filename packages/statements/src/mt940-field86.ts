import { findIban, normaliseIban } from './iban.js';

/** What a `:86:` field says about a line. */
export interface Field86 {
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
}

/** `:86:` holds 6 lines of 65 characters; a `?2x` subfield 27. A part that fills its width was cut by the bank mid-word. */
const LINE_WIDTH = 65;
const SUBFIELD_WIDTH = 27;
/** `?20`/`>20`, optionally behind a three-digit business code (`166?00HAVALE?20...`), as German-style banks write it. */
const STRUCTURED = /^(?:\d{3})?([?>])\d{2}/;

/**
 * Reads the details of a `:86:` field. Structured details (`?00` posting text, `?20`..`?29` purpose, `?31` account,
 * `?32`/`?33` name) are split into their subfields; free text (most Turkish banks) is the description, and an IBAN
 * written in it is the counterparty's.
 */
export function readField86(lines: string[]): Field86 {
  const joined = lines.join('');
  const structured = STRUCTURED.exec(joined);
  if (!structured) {
    const description = squash(joinWrapped(lines, LINE_WIDTH));
    return { description, counterpartyName: null, counterpartyIban: findIban(description) };
  }
  const separator = structured[1] === '?' ? '\\?' : '>';
  const subfields = new Map<number, string>();
  for (const match of joined.matchAll(new RegExp(`${separator}(\\d{2})((?:(?!${separator}\\d{2}).)*)`, 'g'))) {
    const code = Number(match[1]);
    subfields.set(code, (subfields.get(code) ?? '') + (match[2] ?? ''));
  }
  const pick = (codes: number[]) => joinWrapped(codes.flatMap((code) => subfields.get(code) ?? []).filter(Boolean), SUBFIELD_WIDTH);
  // ?20-?29 carry the purpose; ?60-?63 continue it at banks that need more room.
  const purpose = squash(pick([20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 60, 61, 62, 63]));
  const name = squash(pick([32, 33]));
  const account = subfields.get(31);
  return {
    description: purpose || squash(subfields.get(0) ?? ''),
    counterpartyName: name || null,
    counterpartyIban: (account === undefined ? null : normaliseIban(account)) ?? findIban(purpose),
  };
}

/** Joins the parts a bank split at a fixed width: directly after a full part (it was cut), with a space otherwise. */
function joinWrapped(parts: string[], width: number): string {
  return parts.reduce((joined, part, index) => {
    if (index === 0) return part;
    const previous = parts[index - 1] ?? '';
    return joined + (previous.length >= width ? '' : ' ') + part;
  }, '');
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
