/**
 * The console's and the CLI's statement file choices follow @kasa/statements' format registry: each format the
 * registry has is offered with the media type the ledger takes it as, and every file ending the registry knows names
 * the same format in both, and no other ending does. A format added to the registry and not to them fails here.
 */
import { describe, expect, it } from '@jest/globals';
import { STATEMENT_FORMATS } from '../src/index.js';
import { EXTENSION_FORMATS, FORMAT_TYPES } from '../../cli/src/commands/statements.commands.js';
import { contentTypeOf, STATEMENT_FILE_FORMATS } from '../../../services/console/src/pages/statements.page.js';

const registry = STATEMENT_FORMATS.map((f) => ({
  choice: f.choice,
  contentType: f.uploadContentType,
  extensions: [...f.extensions].sort(),
}));

describe('statement file formats outside the registry', () => {
  it("the console offers the registry's formats, with their media types and file endings", () => {
    expect(
      STATEMENT_FILE_FORMATS.map((f) => ({ choice: f.choice, contentType: f.contentType, extensions: [...f.extensions].sort() })),
    ).toEqual(registry);
    for (const format of registry) {
      for (const ext of format.extensions)
        expect([ext, contentTypeOf(`statement${ext.toUpperCase()}`, '')]).toEqual([ext, format.contentType]);
    }
    expect(contentTypeOf('statement.pdf', '')).toBeNull();
  });

  it("the CLI takes the registry's formats, with their media types and file endings", () => {
    expect(Object.entries(FORMAT_TYPES).sort()).toEqual(registry.map((f) => [f.choice, f.contentType]).sort());
    expect(Object.entries(EXTENSION_FORMATS).sort()).toEqual(registry.flatMap((f) => f.extensions.map((ext) => [ext, f.choice])).sort());
  });
});
