import type { StatementsRead } from '../statement.js';

/**
 * One statement format, declared once in a `*.format.ts` file of this folder: what names it (content types, file
 * extensions, the word an operator picks), where it stands among the others, how sure a body's first characters make us
 * that it is this format, how it is read, the samples that prove it, and what docs/statements.md says of it. The
 * registry (formats/index.ts) derives every table from these; `node scripts/docs-tables.mjs` lists the files.
 */
export interface StatementFormatDescriptor {
  /** Its name in an import's answer (`format`) and in the stored statement. */
  readonly name: string;
  /**
   * Its place in the registry, lowest first, and no other format's: the registry lists the files in name order, which
   * says nothing, so this decides what the order decides. Among the formats a content type names (a family's), the
   * first is read when the body points to none of them, so its parser names what the body is instead (camt.053 before
   * camt.052); of two equally sure guesses from the body, the first wins; and the console and the CLI offer the formats
   * in this order. Leave gaps (10, 20, ...) so a new format can stand between two.
   */
  readonly precedence: number;
  /** The word an operator picks it by: the console's format select and the CLI's `--format`. */
  readonly choice: string;
  /** How people call it, in the docs and in messages naming the formats. */
  readonly label: string;
  /**
   * Its words on the console's upload form, beside the choice: a format's name, the same in every language the console
   * speaks, so it is no message of the console's catalogue.
   */
  readonly choiceLabel: string;
  /**
   * Media types that name this format exactly, lower case, without parameters. Formats of one family may share one
   * (camt.053 and camt.052 are both `application/xml`): the body then settles which of them it is.
   */
  readonly contentTypes: readonly string[];
  /** Media types that name it by a pattern (`*+xml`, anything with `mt940`), tested on the lower-case type. */
  readonly contentTypePattern?: { readonly test: RegExp; readonly inWords: string };
  /** The media type an upload of this format is sent with. */
  readonly uploadContentType: string;
  /** File name endings, lower case with the dot, most usual first. */
  readonly extensions: readonly string[];
  /**
   * 0 (not this format) to 1 (certainly this format), from the body alone; the surest non-zero guess wins, among the
   * formats a content type names when it names several, else among all.
   */
  detect(body: string): number;
  parse(body: string): StatementsRead;
  /**
   * The body without its transport envelope (a SWIFT frame's SOH and ETX), for the check that a body holds no
   * control characters; absent when the format has none.
   */
  readonly withoutEnvelope?: (body: string) => string;
  /** Files in packages/statements/test/samples that must parse as this format. */
  readonly samples: readonly string[];
  /** docs/statements.md's "Which format" table: how a body is recognised, in words. */
  readonly recognisedBy: string;
  /**
   * docs/statements.md, a paragraph after the Fields table, after its label in bold: how it is read where that table's
   * columns (camt.053, MT940, CSV: one a family) do not say it, as a format of a family read as its family is, but for
   * its differences. Markdown in one line; the docs wrap it.
   */
  readonly reads?: string;
  /** docs/statements.md's "What is refused": what it refuses beyond what every format does. Markdown in one line. */
  readonly refuses: string;
}
