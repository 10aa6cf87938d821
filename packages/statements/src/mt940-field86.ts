import { findIban, normaliseIban } from './iban.js';

/** What a `:86:` field says about a line. */
export interface Field86 {
  description: string;
  counterpartyName: string | null;
  counterpartyIban: string | null;
  /** The SEPA end-to-end reference (`EREF+` in `?2x`, `/EREF/`), except `NOTPROVIDED`. */
  endToEndId: string | null;
  /** The ISO 20022 reason of a return (`/RTRN/MS03/`). */
  returnReason: string | null;
  /** The declared purpose, an ISO 20022 ExternalPurpose1Code (`PURP+SALA` in `?2x`, `/PURP/SALA/`). */
  purpose: string | null;
}

/**
 * `:86:` holds 6 lines of 65 characters, the first counting its `:86:` tag (Dutch banks cut there); a `?2x` subfield 27.
 * A part that fills its width was cut by the bank mid-word.
 */
const LINE_WIDTH = 65;
const FIRST_LINE_WIDTH = LINE_WIDTH - ':86:'.length;
const SUBFIELD_WIDTH = 27;
/** `?20`/`>20`, optionally behind a three-digit business code (`166?00HAVALE?20...`), as German-style banks write it. */
const STRUCTURED = /^(?:\d{3})?([?>])\d{2}/;
/** German SEPA keywords inside the `?2x` purpose (DFÜ-Abkommen), each up to the next one. */
const SEPA_KEYWORD = /\b(EREF|KREF|MREF|CRED|DEBT|SVWZ|ABWA|ABWE|IBAN|BIC|PURP|COAM|OAMT)\+/g;
/**
 * Codes of the slash layout Dutch banks use (`/EREF/.../CNTP/iban/bic/name/city//REMI/USTD//text/`, `/NAME/.../REMI/...`):
 * ING, ABN AMRO and Rabobank's SEPA statements. A value runs to the next known code.
 */
// prettier-ignore
const SLASH_CODES = [
  'TRTP', 'IBAN', 'BIC', 'NAME', 'REMI', 'EREF', 'PREF', 'RTRN', 'CNTP', 'MARF', 'CSID', 'ORDP', 'BENM', 'ISDT',
  'ADDR', 'ULTC', 'ULTD', 'ULTB', 'PURP', 'RTYP', 'SVCL', 'OCMT', 'CHGS', 'EXCH', 'TRCD', 'SUM', 'BUSP', 'ACCW',
];
const SLASH_CODE = new RegExp(`/(${SLASH_CODES.join('|')})/`, 'g');
const SLASH_LAYOUT = new RegExp(`^/(${SLASH_CODES.join('|')})/`);
const RETURN_REASON = /^[A-Z0-9]{4}$/;
/** An ISO 20022 ExternalPurpose1Code: four capitals or digits. */
const PURPOSE_CODE = /^[A-Z0-9]{4}$/;
const purposeCode = (value: string | undefined): string | null => {
  const code = value?.trim() ?? '';
  return PURPOSE_CODE.test(code) ? code : null;
};

/**
 * Reads the details of a `:86:` field (several repeated `:86:` fields of one line arrive as one list of lines). Three
 * layouts: German-style subfields (`?00` posting text, `?20`..`?29` and `?60`..`?63` purpose, `?31` account, `?32`/`?33`
 * name, with or without a business code, `>` for `?` at Triodos), the Dutch slash layout, and free text (most Turkish
 * banks), whose IBAN written anywhere is the counterparty's. No subfield marker stays in a description.
 */
export function readField86(lines: string[]): Field86 {
  const joined = lines.join('').trimStart();
  const structured = STRUCTURED.exec(joined);
  if (structured) return readSubfields(joined, structured[1] === '?' ? '\\?' : '>');
  if (SLASH_LAYOUT.test(joined)) return readSlashLayout(joined);
  const description = squash(joinWrapped(lines, LINE_WIDTH, FIRST_LINE_WIDTH));
  return {
    description,
    counterpartyName: null,
    counterpartyIban: findIban(description),
    endToEndId: null,
    returnReason: null,
    purpose: null,
  };
}

function readSubfields(joined: string, separator: string): Field86 {
  const subfields = new Map<number, string[]>();
  for (const match of joined.matchAll(new RegExp(`${separator}(\\d{2})((?:(?!${separator}\\d{2}).)*)`, 'g'))) {
    const code = Number(match[1]);
    subfields.set(code, [...(subfields.get(code) ?? []), match[2] ?? '']);
  }
  const pick = (codes: number[]) => joinWrapped(codes.flatMap((code) => subfields.get(code) ?? []).filter(Boolean), SUBFIELD_WIDTH);
  // ?20-?29 carry the purpose; ?60-?63 continue it at banks that need more room.
  const purpose = pick([20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 60, 61, 62, 63]);
  const sepa = sepaKeywords(purpose);
  const name = squash(pick([32, 33]));
  const account = subfields.get(31)?.join('');
  const description = squash(sepa.get('SVWZ') ?? purpose) || squash(pick([0]));
  return {
    description,
    counterpartyName: name || squash(sepa.get('ABWA') ?? '') || null,
    counterpartyIban: (account === undefined ? null : normaliseIban(account)) ?? normaliseIban(sepa.get('IBAN') ?? '') ?? findIban(purpose),
    endToEndId: reference(sepa.get('EREF')),
    returnReason: null,
    purpose: purposeCode(sepa.get('PURP')),
  };
}

/** `EREF+E2E-1 SVWZ+Invoice 7` → EREF: `E2E-1`, SVWZ: `Invoice 7`; empty when the purpose has no keyword. */
function sepaKeywords(purpose: string): Map<string, string> {
  const found = new Map<string, string>();
  const matches = [...purpose.matchAll(SEPA_KEYWORD)];
  matches.forEach((match, index) => {
    const end = matches[index + 1]?.index ?? purpose.length;
    found.set(match[1] ?? '', purpose.slice((match.index ?? 0) + match[0].length, end).trim());
  });
  return found;
}

function readSlashLayout(joined: string): Field86 {
  const values = new Map<string, string>();
  const matches = [...joined.matchAll(SLASH_CODE)];
  matches.forEach((match, index) => {
    const end = matches[index + 1]?.index ?? joined.length;
    // `//` separates codes at ING (`/EREF/x//CNTP/`): the value's own trailing slash is no text.
    const value = joined.slice((match.index ?? 0) + match[0].length, end).replace(/\/$/, '');
    if (!values.has(match[1] ?? '')) values.set(match[1] ?? '', value);
  });
  // CNTP is account/BIC/name/city; REMI is `USTD//text` (unstructured) or `STRD/CUR/reference` at ING.
  const [cntpAccount = '', , cntpName = ''] = (values.get('CNTP') ?? '').split('/');
  const remittance = (values.get('REMI') ?? '').replace(/^USTD\/\/?|^STRD\/[A-Z]*\//, '').replace(/\/+$/, '');
  const description = squash(remittance || (values.has('REMI') ? '' : joined.replace(SLASH_CODE, ' ').replace(/\/+/g, ' ')));
  const name = squash(values.get('NAME') ?? cntpName);
  const returnReason = values.get('RTRN')?.trim() ?? '';
  return {
    description,
    counterpartyName: name || null,
    counterpartyIban: normaliseIban(values.get('IBAN') ?? '') ?? normaliseIban(cntpAccount) ?? findIban(description),
    endToEndId: reference(values.get('EREF')),
    returnReason: RETURN_REASON.test(returnReason) ? returnReason : null,
    purpose: purposeCode(values.get('PURP')),
  };
}

/** SEPA's end-to-end reference is at most 35 characters: a longer `EREF` value runs on into other text, kept in the description. */
const MAX_END_TO_END = 35;

function reference(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed && trimmed !== 'NOTPROVIDED' && trimmed.length <= MAX_END_TO_END ? trimmed : null;
}

/** Joins the parts a bank split at a fixed width: directly after a full part (it was cut), with a space otherwise. */
function joinWrapped(parts: string[], width: number, firstWidth = width): string {
  return parts.reduce((joined, part, index) => {
    if (index === 0) return part;
    const previous = parts[index - 1] ?? '';
    return joined + (previous.length >= (index === 1 ? firstWidth : width) ? '' : ' ') + part;
  }, '');
}

function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
