import { withoutSwiftFrame } from '../mt940-envelope.js';
import { parseMt940 } from '../mt940.parser.js';
import type { StatementFormatDescriptor } from './format.js';

/** How far into a body a `:20:` line may first appear (after a bank's envelope or header lines). */
const ENVELOPE_ROOM = 2000;

/** SWIFT MT940 customer statements, one or several in a file. */
export const mt940Format = {
  name: 'mt940',
  precedence: 30,
  choice: 'mt940',
  label: 'MT940',
  choiceLabel: 'MT940',
  contentTypes: [],
  // MT940 has no registered media type; banks and tools name it in the subtype (`application/x-mt940`, `text/swift`).
  contentTypePattern: { test: /mt940|swift/, inWords: 'any containing `mt940` or `swift`' },
  uploadContentType: 'text/plain',
  extensions: ['.sta', '.mt940', '.940', '.txt'],
  detect(body) {
    const start = body.trimStart();
    if (start.startsWith(':20:') || start.startsWith('{1:')) return 1;
    return /^:20:/m.test(start.slice(0, ENVELOPE_ROOM)) ? 0.8 : 0;
  },
  parse: parseMt940,
  // The SWIFT frame (SOH before an MT940 message, ETX after it) is envelope, not text holding control characters.
  withoutEnvelope: withoutSwiftFrame,
  samples: ['mt940-two-statements.sta'],
  recognisedBy: 'the body starts with `:20:` or `{1:`, or a line starting `:20:` follows a header within 2,000 characters',
  refuses:
    'a file whose every statement lacks `:25:`, `:28C:`, `:60F:` or `:62F:` (a file cut short: "ends without a ' +
    'closing balance"; one such statement among readable ones is set aside in `refused`); a `:61:` that is not ' +
    'value date, optional entry date, `C`/`D`/`RC`/`RD`, amount, type (`NTRF`, or padded `NOV `) and reference; a ' +
    '`:61:` after the closing balance; balances in two currencies; an unknown tag outside a `:86:`; text outside ' +
    'any field that is not an envelope line.',
} as const satisfies StatementFormatDescriptor;
