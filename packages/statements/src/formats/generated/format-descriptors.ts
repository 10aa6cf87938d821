// Written by `node scripts/docs-tables.mjs` from the *.format.ts files in packages/statements/src/formats/:
// do not edit. `node scripts/docs-tables.mjs --check` fails when it is stale.
import { camt052Format } from '../camt052.format.js';
import { camt053Format } from '../camt053.format.js';
import { csvFormat } from '../csv.format.js';
import { mt940Format } from '../mt940.format.js';
import type { StatementFormatDescriptor } from '../format.js';

/** Every format descriptor of the folder, in file-name order: the registry (formats/index.ts) orders them. */
export const FORMAT_DESCRIPTORS = [
  camt052Format,
  camt053Format,
  csvFormat,
  mt940Format,
] as const satisfies readonly StatementFormatDescriptor[];
