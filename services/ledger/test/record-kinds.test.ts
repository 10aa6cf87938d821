/**
 * The reviewed record kinds' list (record-kinds.ts) held to the tree: scripts/setup.mjs writes it from the ops routes
 * files (scripts/generate-sources.mjs), and here the written list must be what the tree makes now, and every kind a
 * routes file exports (read by its shape, not by the generator's convention) must be in it, once, under its own folder.
 * Each kind's scope parameter is one its ops routes name records by, so the operator-scope guard reads the site of every
 * record those routes act on, the repositories the kinds build reach the ledger's deps under names no other uses, and
 * every queue a contract module declares on the desk is counted by one kind.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from '@jest/globals';
import { OPS_RECORD_DESK_QUEUES, OPS_RECORD_KINDS, OPS_ROUTES } from '@kasa/contracts';
import type { PrismaClient } from '@kasa/db';
import { LEDGER_RECORD_KINDS_FILE, OPS_ROUTES_FILE, ledgerRecordKindsSource } from '../../../scripts/generate-sources.mjs';
import type { LedgerDeps } from '../src/ledger-deps.js';
import { deskQueuesOf, kindRepositories, RECORD_KINDS } from '../src/record-kinds.js';
import type { RecordKind } from '../src/review/record-kind.js';

const root = join(import.meta.dirname, '..', '..', '..');
const src = join(root, 'services', 'ledger', 'src');

/** Every shipped `.ts` under src, as a path relative to it. */
function sources(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [relative(src, join(dir, entry.name))] : [],
  );
}

/** A value shaped like a kind's descriptor, whatever its declaration looks like. */
const isKind = (value: unknown): value is RecordKind<unknown> =>
  typeof value === 'object' && value !== null && ['folder', 'opsRoutes', 'scope', 'repositories'].every((part) => part in value);

// The list and the descriptor's own declarations name the type; every other mention declares a kind.
const NOT_DECLARING = ['record-kinds.ts', 'generated/record-kinds.ts', 'review/record-kind.ts'];

describe('the record kinds', () => {
  it('are listed as scripts/setup.mjs writes them from the tree now', () => {
    const written = readFileSync(join(root, LEDGER_RECORD_KINDS_FILE), 'utf8');
    // Stale after a kind was added or renamed without setup: `node scripts/setup.mjs` writes it again.
    expect(written).toBe(ledgerRecordKindsSource(root));
  });

  it('are declared only in ops routes files, as `satisfies RecordKind<...>`', () => {
    const declaring = sources().filter(
      (file) => !NOT_DECLARING.includes(file) && /\bRecordKind</.test(readFileSync(join(src, file), 'utf8')),
    );
    expect(declaring.length).toBeGreaterThan(0);
    for (const file of declaring) {
      const text = readFileSync(join(src, file), 'utf8');
      expect([file, file.split('/').length === 2 && OPS_ROUTES_FILE.test(file)]).toEqual([file, true]);
      // An annotation (`: RecordKind<...>`) would widen the repositories it builds, and the generator would not list it.
      expect([file, text.match(/:\s*RecordKind</g) ?? []]).toEqual([file, []]);
    }
  });

  it('list every kind an ops routes file exports, once, under its folder', async () => {
    const exported: Array<{ file: string; kind: RecordKind<unknown> }> = [];
    for (const file of sources().filter((path) => OPS_ROUTES_FILE.test(path))) {
      const values: Record<string, unknown> = await import(join(src, file));
      exported.push(
        ...Object.values(values)
          .filter(isKind)
          .map((kind) => ({ file, kind })),
      );
    }
    expect(exported.map(({ kind }) => kind.folder)).toEqual(exported.map(({ file }) => file.split('/')[0]));
    // Identity: a kind exported but not listed, or listed twice, is caught whatever its name.
    expect(RECORD_KINDS).toHaveLength(exported.length);
    for (const { kind } of exported) expect(RECORD_KINDS.filter((listed) => listed === kind)).toHaveLength(1);
  });

  it('lists each folder once, in alphabetical order', () => {
    const listed = RECORD_KINDS.map((kind) => kind.folder);
    expect(listed).toEqual([...listed].sort());
    // Today's kinds among them; a new kind's folder joins with no edit here.
    expect(listed).toEqual(expect.arrayContaining(['balance-adjustments', 'bank-transfers', 'deposits', 'returns', 'withdrawals']));
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("name records by a parameter the ops routes use, each kind's own", () => {
    const paths = Object.values(OPS_ROUTES).map((route) => route.path);
    const params = RECORD_KINDS.map((kind) => kind.scope.param);
    expect(new Set(params).size).toBe(params.length);
    for (const param of params) expect(paths.filter((path) => path.includes(`:${param}`)).length).toBeGreaterThan(0);
  });

  it('build their repositories for the ledger, each name by one kind only', async () => {
    const pool = new pg.Pool({ max: 1 });
    // No query runs: a repository only keeps its clients until one does.
    const sources = { db: {} as PrismaClient, pool, siteScoped: { lists: pool, namedStatements: false } };
    const names = RECORD_KINDS.flatMap((kind) => Object.keys(kind.repositories(sources)));
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const built = kindRepositories(sources);
    expect(Object.keys(built).sort()).toEqual([...new Set(names)].sort());
    expect(Object.keys(built)).toEqual(
      expect.arrayContaining(['balanceAdjustments', 'deposits', 'senderReturns', 'statements', 'withdrawals']),
    );
    await pool.end();
  });

  it('count every desk queue the contract modules declare, each by the kind that declares it', () => {
    const counted = RECORD_KINDS.flatMap((kind) => (kind.desk ? [kind.desk.declared] : []));
    expect(counted).toEqual([...OPS_RECORD_DESK_QUEUES]);
    // The contract module of the same folder: a descriptor counting another kind's queue would answer it with its own records.
    const modules = new Map(Object.entries(OPS_RECORD_KINDS).map(([name, module]) => [name, 'desk' in module ? module.desk : undefined]));
    for (const kind of RECORD_KINDS)
      if (kind.desk) expect([kind.folder, kind.desk.declared]).toEqual([kind.folder, modules.get(kind.folder)]);
    // No count runs: the deps are read only when the dashboard counts.
    expect(deskQueuesOf({} as LedgerDeps).map(({ queue }) => queue)).toEqual(OPS_RECORD_DESK_QUEUES.map(({ queue }) => queue));
  });
});
