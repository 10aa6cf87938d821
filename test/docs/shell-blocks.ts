/**
 * The shell blocks of the documentation (```sh, ```bash, ```console and ```shell fences in README.md, CONTRIBUTING.md
 * and docs/*.md), read from the files at test time, and which test runs each one. A block that is not meant to be run
 * as written carries `<!-- not run: <reason> -->` on the line above its fence; every other block is run by a test:
 * test/docs/command-blocks.test.ts holds the two to that.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Markdown files whose shell blocks a reader may paste, relative to the repository root. */
export function documentedFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

export interface ShellBlock {
  /** `<file> › <heading>`, with ` (2)`, ` (3)`... for a second and later block under one heading. */
  id: string;
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  text: string;
  /** The marker's reason; '' for a marker without one; null when the block is not marked. */
  notRun: string | null;
}

const FENCE = /^```(sh|bash|console|shell)\s*$/;
const MARKER = /^<!--\s*not run(?::\s*(.*?))?\s*-->$/;

export function shellBlocks(file: string): ShellBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  const perHeading = new Map<string, number>();
  let heading = '(top)';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trimStart().startsWith('```')) {
      // A fence may be indented (a block inside a list item); its lines are read without that indent.
      const indent = line.length - line.trimStart().length;
      const close = lines.findIndex((next, j) => j > i && next.trimStart().startsWith('```'));
      const end = close < 0 ? lines.length : close;
      if (FENCE.test(line.trim())) {
        let above = i - 1;
        while (above >= 0 && lines[above]!.trim() === '') above--;
        const marker = above >= 0 ? MARKER.exec(lines[above]!.trim()) : null;
        const count = (perHeading.get(heading) ?? 0) + 1;
        perHeading.set(heading, count);
        blocks.push({
          id: `${file} › ${heading}${count > 1 ? ` (${count})` : ''}`,
          file,
          line: i + 1,
          text: lines
            .slice(i + 1, end)
            .map((inner) => inner.slice(Math.min(indent, inner.length - inner.trimStart().length)))
            .join('\n'),
          notRun: marker ? (marker[1] ?? '').trim() : null,
        });
      }
      i = end;
      continue;
    }
    const title = /^#{1,6}\s+(.*)$/.exec(line);
    if (title) heading = title[1]!.trim();
  }
  return blocks;
}

/** One block by its id; throws when the documentation has no such block. */
export function shellBlock(id: string): ShellBlock {
  const file = id.split(' › ')[0]!;
  const block = shellBlocks(file).find((candidate) => candidate.id === id);
  if (!block) throw new Error(`no shell block "${id}" in ${file}`);
  return block;
}

/** A block as the commands a shell runs: continuation lines joined, blank and comment-only lines dropped. */
export function commandsOf(block: ShellBlock): string[] {
  return block.text
    .replace(/\\\n\s*/g, '')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

/**
 * The blocks test/readme/quick-start.test.ts runs against a whole `npm start` suite on spare ports; it checks that it
 * ran each of them.
 */
export const RUN_BY_QUICK_START = ['README.md › Trying the partner API', 'README.md › Operators', 'docs/cli.md › In scripts'] as const;
