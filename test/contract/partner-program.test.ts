/**
 * A partner's program typed by `@kasa/sdk` (./partner-program/reads-every-field.ts) reads every documented field of
 * every answer and of every webhook body: the TypeScript compiler checks it with the repository's strict settings and
 * zero diagnostics, and the OpenAPI document's schemas are walked so that each documented property of a schema must be
 * read in the program's `read<Schema>` function. A field added to the document but not read, or documented but
 * missing from the SDK's types, fails here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { buildOpenApiDocument } from '@kasa/contracts';
import { strictContract } from './support/strict-contract.js';

const PROGRAM = fileURLToPath(new URL('./partner-program/reads-every-field.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The repository's compiler settings (tsconfig.base.json): strict, no emit. */
function compilerOptions(): ts.CompilerOptions {
  const file = ts.readConfigFile(join(ROOT, 'tsconfig.base.json'), (path) => ts.sys.readFile(path));
  return { ...ts.parseJsonConfigFileContent(file.config, ts.sys, ROOT).options, noEmit: true, strict: true };
}

/** Type-checks `file` (its text on disk, or `text` instead); returns each diagnostic as `TSnnnn: message`. */
function typeCheck(file: string, text?: string): string[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  if (text !== undefined) {
    const { getSourceFile, readFile, fileExists } = host;
    host.getSourceFile = (name, language, ...rest) =>
      name === file ? ts.createSourceFile(name, text, language) : getSourceFile.call(host, name, language, ...rest);
    host.readFile = (name) => (name === file ? text : readFile.call(host, name));
    host.fileExists = (name) => name === file || fileExists.call(host, name);
  }
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

/** The property names each top-level function of the program reads (property accesses and destructuring). */
function readsByFunction(source: string): Map<string, Set<string>> {
  const file = ts.createSourceFile('program.ts', source, ts.ScriptTarget.ES2022, true);
  const reads = new Map<string, Set<string>>();
  for (const statement of file.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name || !statement.body) continue;
    const names = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node)) names.add(node.name.text);
      if (ts.isBindingElement(node)) names.add((node.propertyName ?? node.name).getText(file));
      ts.forEachChild(node, visit);
    };
    visit(statement.body);
    reads.set(statement.name.text, names);
  }
  return reads;
}

/** Each documented field (`Schema.a.b[].c`) that `read<Schema>` does not read, with every name on its path. */
function unreadFields(source: string, documented: Iterable<string>): string[] {
  const reads = readsByFunction(source);
  return [...documented]
    .filter((field) => {
      const [schema, ...path] = field.split('.');
      const names = reads.get(`read${schema}`);
      return !names || !path.every((segment) => names.has(segment.replace('[]', '')));
    })
    .sort();
}

const documented = () => strictContract(JSON.parse(JSON.stringify(buildOpenApiDocument())) as Record<string, unknown>).documented;

describe('a partner program typed by @kasa/sdk', () => {
  it('compiles strict with zero diagnostics while reading every field, payload.livemode and typed payload.data included', () => {
    expect(typeCheck(PROGRAM)).toEqual([]);
  });

  it('reads every documented property of every answer and webhook schema in its read<Schema> function', () => {
    const fields = documented();
    const unread = unreadFields(readFileSync(PROGRAM, 'utf8'), fields);
    process.stdout.write(`partner program: ${fields.size} documented fields, ${fields.size - unread.length} read\n`);
    expect(unread).toEqual([]);
    expect(fields.size).toBeGreaterThan(150);
  });

  it('notices a documented field the program stops reading', () => {
    const source = readFileSync(PROGRAM, 'utf8');
    const without = source.replace(
      'e.eventId, e.type, e.createdAt, e.livemode, e.test === true, readDepositIntent',
      'e.eventId, e.type, e.createdAt, e.test === true, readDepositIntent',
    );
    expect(without).not.toBe(source);
    expect(unreadFields(without, documented())).toEqual(['IntentWebhookEvent.livemode']);
  });

  it('fails to compile a read of a field the SDK does not type', () => {
    const scratch = join(dirname(PROGRAM), 'reads-an-undocumented-field.ts');
    const text =
      `import type { Event } from '@kasa/sdk';\n` +
      `export const live = (e: Event): boolean => e.payload.livemode;\n` +
      `export const nope = (e: Event): unknown => e.payload.internalNote;\n`;
    expect(typeCheck(scratch, text)).toEqual([expect.stringMatching(/^TS2339: Property 'internalNote' does not exist on type/)]);
  });
});
