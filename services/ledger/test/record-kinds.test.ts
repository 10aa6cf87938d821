/**
 * The reviewed record kinds' list (record-kinds.ts) held to the tree: every kind a folder declares is listed once, and
 * each kind's scope parameter is the one its ops routes name records by, so the operator-scope guard reads the site
 * of every record those routes act on.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { OPS_ROUTES } from '@kasa/contracts';
import { RECORD_KINDS } from '../src/record-kinds.js';

const src = join(import.meta.dirname, '..', 'src');

/** The folders with a file declaring a `RecordKind` (`export const …: RecordKind<…> =`), by their source. */
function declaringFolders(): string[] {
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .filter((dir) =>
      readdirSync(join(src, dir.name)).some(
        (file) => file.endsWith('.ts') && /export const \w+: RecordKind</.test(readFileSync(join(src, dir.name, file), 'utf8')),
      ),
    )
    .map((dir) => dir.name)
    .sort();
}

describe('the record kinds', () => {
  it('list every kind a folder declares, once', () => {
    const listed = RECORD_KINDS.map((kind) => kind.folder);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(declaringFolders());
    expect(listed).toEqual(['deposits', 'withdrawals', 'bank-transfers', 'returns', 'balance-adjustments']);
  });

  it("name records by a parameter the ops routes use, each kind's own", () => {
    const paths = Object.values(OPS_ROUTES).map((route) => route.path);
    const params = RECORD_KINDS.map((kind) => kind.scope.param);
    expect(new Set(params).size).toBe(params.length);
    for (const param of params) expect(paths.filter((path) => path.includes(`:${param}`)).length).toBeGreaterThan(0);
  });
});
