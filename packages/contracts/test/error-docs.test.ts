/**
 * The documents a partner reads about errors follow the contract's closed set (ERROR_STATUS): docs/api.md's error
 * table has one row per code with its status, docs/errors.md one section per code, and every problem `type`
 * (PROBLEM_TYPE_BASE + code, as the services answer) leads to that code's section of a file in docs/; the conflict
 * section lists every reason of CONFLICT_REASONS.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { AUTH_REASONS, CONFLICT_REASONS, ERROR_STATUS, ERROR_TITLE, PROBLEM_TYPE_BASE, isErrorCode, type ErrorCode } from '../src/index.js';

const docsDir = fileURLToPath(new URL('../../../docs/', import.meta.url));
const read = (file: string) => readFileSync(`${docsDir}${file}`, 'utf8');
const contract = (Object.keys(ERROR_STATUS) as ErrorCode[]).map((code) => ({ code, status: ERROR_STATUS[code] as number }));

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** The anchors of a Markdown file's headings, in order. */
const anchorsIn = (markdown: string) => [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => anchorOf(heading!));

/** The text of a Markdown section, from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) return '';
  const level = heading.indexOf(' ');
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Where a `https://docs.kasa.example/<path>#<anchor>` link leads in this repository: docs/<path>, that anchor. */
function target(url: string): { file: string; anchor: string } {
  const parsed = new URL(url);
  expect(parsed.origin).toBe('https://docs.kasa.example');
  return { file: decodeURIComponent(parsed.pathname.slice(1)), anchor: decodeURIComponent(parsed.hash.slice(1)) };
}

describe('docs/api.md, Errors', () => {
  it('has one row per code of the closed set, in its order, with its HTTP status and a link to its section', () => {
    const rows = [...section(read('api.md'), '## Errors').matchAll(/^\| (\d{3}) +\| \[`(\w+)`\]\(errors\.md#(\w+)\) +\|/gm)];
    expect(rows.map(([, status, code]) => ({ code, status: Number(status) }))).toEqual(contract);
    expect(rows.every(([, , code, anchor]) => code === anchor)).toBe(true);
  });

  it('shows an example whose type is the one the services answer', () => {
    const types = [...section(read('api.md'), '## Errors').matchAll(/"type": "([^"]+)"/g)].map(([, type]) => type);
    expect(types).toEqual([`${PROBLEM_TYPE_BASE}validation_failed`]);
  });
});

describe('docs/errors.md', () => {
  const errors = read('errors.md');

  it('has one section per code of the closed set, in its order', () => {
    const codes = [...errors.matchAll(/^## (.+)$/gm)].map(([, heading]) => heading!);
    expect(codes).toEqual(contract.map(({ code }) => code));
    expect(codes.every(isErrorCode)).toBe(true);
  });

  it("opens each section with the code's HTTP status and title", () => {
    const wrong = contract.filter(
      ({ code, status }) => !section(errors, `## ${code}`).trim().startsWith(`HTTP ${status}, "${ERROR_TITLE[code]}".`),
    );
    expect(wrong).toEqual([]);
  });

  it('lists every conflict reason of the closed set under conflict, in its order, and no other', () => {
    const rows = [...section(errors, '## conflict').matchAll(/^\| `(\w+)` +\|/gm)].map(([, reason]) => reason);
    expect(rows).toEqual(Object.keys(CONFLICT_REASONS));
  });

  it('lists every second-factor reason of 401 and 403 under unauthorized, in its order, with its status', () => {
    const rows = [...section(errors, '## unauthorized').matchAll(/^\| `(\w+)` +\| (\d{3}) +\|/gm)].map(([, reason, status]) => [
      reason,
      status,
    ]);
    expect(rows.map(([reason]) => reason)).toEqual(Object.keys(AUTH_REASONS));
    expect(rows.every(([reason, status]) => AUTH_REASONS[reason as keyof typeof AUTH_REASONS].endsWith(`(${status}).`))).toBe(true);
  });
});

describe('problem types', () => {
  it("lead every code to its own section of a file in docs/ (README, the type's address)", () => {
    const leads = contract.map(({ code }) => {
      const { file, anchor } = target(`${PROBLEM_TYPE_BASE}${code}`);
      return { code, file, found: existsSync(`${docsDir}${file}`) && anchorsIn(read(file)).includes(anchor) && anchor === code };
    });
    expect(leads.filter(({ found }) => !found)).toEqual([]);
    expect(new Set(leads.map(({ file }) => file))).toEqual(new Set(['errors.md']));
  });

  it('are absolute URIs, as the Problem schema (format uri) and RFC 9457 ask', () => {
    for (const { code } of contract) expect(new URL(`${PROBLEM_TYPE_BASE}${code}`).href).toBe(`${PROBLEM_TYPE_BASE}${code}`);
  });

  it('every docs.kasa.example address the README and docs/ give leads to a file and heading that exist', () => {
    const texts = [readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8'), read('api.md'), read('errors.md')];
    const addresses = texts.flatMap((text) => [...text.matchAll(/https:\/\/docs\.kasa\.example\/[^\s"`)<]*/g)].map(([url]) => url));
    expect(addresses.length).toBeGreaterThan(2);
    const broken = addresses.filter((url) => {
      const { file, anchor } = target(url);
      if (file === '') return false; // the site's root: the docs/ folder itself
      return !existsSync(`${docsDir}${file}`) || (anchor !== '' && !anchorsIn(read(file)).includes(anchor));
    });
    expect(broken).toEqual([]);
  });
});
