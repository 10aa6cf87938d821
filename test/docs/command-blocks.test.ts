/**
 * Every shell block of README.md, CONTRIBUTING.md and docs/*.md is run by a test as written, or marked in the Markdown
 * with `<!-- not run: <reason> -->` on the line above its fence. This file holds the two to that, and runs the blocks
 * that need no running suite; those that need one run in test/readme/quick-start.test.ts (RUN_BY_QUICK_START).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { commandsOf, documentedFiles, root, RUN_BY_QUICK_START, shellBlock, shellBlocks, type ShellBlock } from './shell-blocks.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bash(script: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    // A reader's shell: no jest settings leak into the commands.
    delete env.NODE_ENV;
    delete env.JEST_WORKER_ID;
    const child = spawn('bash', ['-c', script], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const withoutComment = (command: string) => command.replace(/\s+#\s.*$/, '');

/** The blocks this file runs, each with what its answer must show. */
const RUN_HERE: Record<string, (block: ShellBlock) => Promise<void>> = {
  'CONTRIBUTING.md › Before you commit': async (block) => {
    const [command] = commandsOf(block);
    expect(command).toMatch(/^node scripts\/test\.mjs \S+\.test\.ts\b/);
    const run = await bash(command!);
    expect({ code: run.code, output: run.code === 0 ? '' : `${run.stdout}\n${run.stderr}`.slice(-3000) }).toEqual({ code: 0, output: '' });
    expect(`${run.stdout}${run.stderr}`).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(`${run.stdout}${run.stderr}`).toMatch(/Test Suites: 1 passed, 1 total/);
  },
  // As written, with --dry-run --ignore-scripts: a real pack builds dist/ and swaps packages/sdk/package.json while it
  // runs, which packages/sdk/test/packed.test.ts does; here it is enough that npm reads the argument as the folder.
  'docs/sdk.md › Packaging': async (block) => {
    const [command] = commandsOf(block);
    const run = await bash(`${withoutComment(command!)} --dry-run --ignore-scripts --json`);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const [packed] = JSON.parse(run.stdout) as Array<{ name: string; files: Array<{ path: string }> }>;
    expect(packed).toMatchObject({ name: '@kasa/sdk' });
    expect(packed!.files.map((file) => file.path)).toContain('README.md');
  },
};

const blocks = documentedFiles().flatMap((file) => shellBlocks(file));

describe('the shell blocks of the documentation', () => {
  it('are found in README.md, CONTRIBUTING.md and docs/', () => {
    expect(blocks.length).toBeGreaterThan(20);
    expect(blocks.map((block) => block.file)).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/cli.md']));
  });

  it('are each run by a test or marked `<!-- not run: <reason> -->`', () => {
    const run = new Set<string>([...Object.keys(RUN_HERE), ...RUN_BY_QUICK_START]);
    const neither = blocks
      .filter((block) => block.notRun === null && !run.has(block.id))
      .map((block) => `${block.id} (line ${block.line})`);
    expect(neither).toEqual([]);
  });

  it('carry a reason in every not-run marker', () => {
    const bare = blocks
      .filter((block) => block.notRun !== null && block.notRun.length < 10)
      .map((block) => `${block.id} (line ${block.line})`);
    expect(bare).toEqual([]);
  });

  it('are neither run and marked at once, nor listed as run when the documentation has no such block', () => {
    for (const id of [...Object.keys(RUN_HERE), ...RUN_BY_QUICK_START]) expect([id, shellBlock(id).notRun]).toEqual([id, null]);
  });

  it.each(Object.keys(RUN_HERE))(
    '%s runs as written',
    async (id) => {
      await RUN_HERE[id]!(shellBlock(id));
    },
    180_000,
  );
});
