/**
 * CONTRIBUTING.md's recipes held to the tree. Each recipe (`### A new … (N files)`) lists, numbered, every file the
 * change touches by hand, with `<placeholders>` its `Example:` line fills in from a kind that exists; a recipe may list
 * apart, under `Written by a command:`, the files a command rewrites, which the heading does not count. Walked here:
 * every file listed exists (placeholders filled), the heading's count is the numbered list's, a file a command writes
 * says so in itself, and the lists are whole: every shipped file that names what the recipe adds (its `Found by:` line:
 * all of some words, or one literal) is listed, or is named under the recipe's `Not touched:` list with the reason a
 * new one leaves it alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { root } from './shell-blocks.js';

interface Recipe {
  title: string;
  count: number;
  example: Map<string, string>;
  /** The numbered list: the files written by hand, counted in the heading. */
  files: string[];
  /** Under `Written by a command:`: the files a command rewrites, not counted in the heading. */
  writtenByCommand: string[];
  notTouched: string[];
  /** Each a pattern; a shipped file naming all of them is one the recipe must account for. */
  foundBy: RegExp[];
}

const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');

function recipes(): Recipe[] {
  const sections = text.split(/^### /m).slice(1);
  return sections.flatMap((section) => {
    const heading = /^(A new [^\n]*?) \((\d+) files?\)\n/.exec(section);
    if (!heading) return [];
    const body = section.slice(0, section.search(/^## /m) === -1 ? undefined : section.search(/^## /m));
    const example = new Map<string, string>();
    const exampleLine = /^Example: (.+)$/m.exec(body)?.[1] ?? '';
    for (const [, placeholder, value] of exampleLine.matchAll(/`(<[\w-]+>)` is `([^`]+)`/g)) example.set(placeholder!, value!);
    const files = [...body.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => match[1]!);
    const notTouched = bulletsUnder('Not touched', body);
    const writtenByCommand = bulletsUnder('Written by a command', body);
    const foundByLine = /^Found by: (.+)$/m.exec(body)?.[1] ?? '';
    const foundBy = [...foundByLine.matchAll(/`\/(.+?)\/`/g)].map((match) => new RegExp(match[1]!));
    return [{ title: heading[1]!, count: Number(heading[2]), example, files, writtenByCommand, notTouched, foundBy }];
  });
}

/** The files of a recipe's bullet list under a line `<label>:` (each bullet `- \`path\`: why`, wrapped by two spaces). */
function bulletsUnder(label: string, body: string): string[] {
  const block = new RegExp(`^${label}:\\n\\n?((?:(?:- | {2}).*\\n?)+)`, 'm').exec(body)?.[1] ?? '';
  return [...block.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]!);
}

const fill = (path: string, example: Map<string, string>) =>
  [...example].reduce((filled, [key, value]) => filled.split(key).join(value), path);

/** Shipped source: services/*\/src and packages/*\/src, without tests and generated code. */
function shippedFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (['node_modules', 'dist', 'generated', 'test'].includes(entry.name) || entry.name.startsWith('.')) continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|css)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) files.push(path);
    }
  };
  for (const top of ['services', 'packages']) {
    for (const part of readdirSync(join(root, top))) if (existsSync(join(root, top, part, 'src'))) walk(`${top}/${part}/src`);
  }
  return files;
}

const all = recipes();

it('CONTRIBUTING.md has the four recipes', () => {
  expect(all.map((recipe) => recipe.title).sort()).toEqual([
    'A new event type',
    'A new partner endpoint',
    'A new record kind',
    'A new statement format',
  ]);
});

describe.each(all.map((recipe) => [recipe.title, recipe] as const))('%s', (_title, recipe) => {
  it('lists as many files as its heading says, each on one list once', () => {
    expect(recipe.files.length).toBe(recipe.count);
    const listed = [...recipe.files, ...recipe.writtenByCommand, ...recipe.notTouched];
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('names files that exist, its placeholders filled from its example', () => {
    expect(recipe.example.size).toBeGreaterThan(0);
    const missing = [...recipe.files, ...recipe.writtenByCommand, ...recipe.notTouched]
      .map((path) => fill(path, recipe.example))
      .filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });

  it('lists apart only files that say a command writes them (or their generated parts), so none is edited by hand', () => {
    const unmarked = recipe.writtenByCommand
      .map((path) => fill(path, recipe.example))
      .filter((path) => existsSync(join(root, path)))
      .filter((path) => !/\b(?:generated|written) by\b/i.test(readFileSync(join(root, path), 'utf8')));
    expect(unmarked).toEqual([]);
  });

  it('accounts for every shipped file that names what it adds', () => {
    expect(recipe.foundBy.length).toBeGreaterThan(0);
    const accounted = new Set(
      [...recipe.files, ...recipe.writtenByCommand, ...recipe.notTouched].map((path) => fill(path, recipe.example)),
    );
    const naming = shippedFiles().filter((path) => {
      const source = readFileSync(join(root, path), 'utf8');
      return recipe.foundBy.every((pattern) => pattern.test(source));
    });
    expect(naming.length).toBeGreaterThan(0);
    expect(
      naming.filter((path) => !accounted.has(path) && ![...accounted].some((folder) => folder.endsWith('/') && path.startsWith(folder))),
    ).toEqual([]);
  });
});
