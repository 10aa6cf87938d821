/**
 * What banks and the SWIFT network wrap MT940 statements in. These lines are recognised and skipped; any other text
 * outside a field is still refused (mt940.parser.ts), so a file that is not a statement is never read as one.
 */

/** Lines a bank puts before a statement's `:20:` or between statements, each as seen in real files. */
const ENVELOPE_LINES: readonly RegExp[] = [
  // Rabobank's first line.
  /^:940:$/,
  // ABN AMRO's `ABNANL2A` (a BIC alone on its line).
  /^[A-Z]{6}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/,
  // The message type, ABN AMRO's `940` and ING's `940 00`.
  /^940(?: \d{2})?$/,
  // ING's preamble `0000 01INGBNL2AXXXX00001`: a sequence, the BIC and a session number.
  /^\d{4} \d{2}[A-Z]{6}[A-Z0-9]{2}[A-Z0-9]{0,4}\d*$/,
];

/**
 * The end of a message: `-`, `-}` (with any trailer block after it, `-}{5:}`), ING's `-XXX`, `$`, and `-å`, which is
 * `-}` in the Swedish ISO 646 variant some Nordic banks still send.
 */
const MESSAGE_END = /^(?:-(?:[}å].*|XXX)?|\$)$/;
/** A `{1:..}{2:..}{4:` block header (or `ä4:`, ISO 646 Swedish for `{4:`); the text after `{4:` is the message. */
const BLOCK_START = /^[{ä]\d:/;
const BLOCK_4 = /[{ä]4:(.*)$/;
/** The SWIFT transmission frame: SOH before a message, ETX after it, each on a message's first or last line. */
// eslint-disable-next-line no-control-regex -- the frame's control characters are what this looks for
const FRAME = /^\u0001|\u0003$/gm;

/** Whether a line outside any field is envelope, to be skipped. */
export function isEnvelopeLine(text: string): boolean {
  return ENVELOPE_LINES.some((pattern) => pattern.test(text.trim()));
}

/** Whether a line ends the message: a `-`-like separator, not a dash inside text (see {@link endsMessage}). */
export function isMessageEnd(text: string): boolean {
  return MESSAGE_END.test(text.trim());
}

/**
 * A line's own text within the SWIFT wrapping: the frame characters dropped, a block header reduced to what follows
 * `{4:` (null when the line is only headers or a `{5:}` trailer, to be skipped).
 */
export function unwrapLine(raw: string): string | null {
  const text = raw.replace(FRAME, '');
  if (!BLOCK_START.test(text)) return text;
  return BLOCK_4.exec(text)?.[1] ?? null;
}

/**
 * The body with the SWIFT frame's SOH and ETX blanked (same length, so lines and columns stay), for the rule that a
 * statement holds no control characters: the frame is the envelope, not text. Any other control character is refused.
 */
export function withoutSwiftFrame(body: string): string {
  return body.replace(FRAME, ' ');
}
