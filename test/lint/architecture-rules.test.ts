/**
 * The architecture rules in eslint.config.js, proven on planted code: each rule fails a realistic violation
 * and passes the allowed case, through ESLint's Node API with the repository's own config. Paths are real
 * files (the type-aware rules need a file the TypeScript project knows); the code linted is the planted text.
 */
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });
const RULES = ['no-restricted-syntax', '@typescript-eslint/no-restricted-imports', 'no-restricted-imports'];

/** The architecture rules' complaints about `code` written at `path` (relative to the repository). */
async function complaints(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${path}` });
  const messages = result?.messages ?? [];
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId !== null && RULES.includes(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

const LEDGER = 'services/ledger/src';
const ROUTE = `${LEDGER}/returns/sender-returns-ops.routes.ts`;
const USE_CASE = `${LEDGER}/returns/sender-return.use-case.ts`;
const REPOSITORY = `${LEDGER}/returns/sender-return.repository.ts`;
const RECIPE = `${LEDGER}/review/transition.ts`;
const VIEW = `${LEDGER}/returns/sender-return.views.ts`;

const modelCall = `
import type { PrismaClient } from '@kasa/db';
export const find = (deps: { db: PrismaClient }, id: string) => deps.db.senderReturn.findUnique({ where: { id } });
`;
const txModelCall = `
import type { Prisma } from '@kasa/db';
export const touch = (tx: Prisma.TransactionClient, id: string) => tx.senderReturn.update({ where: { id }, data: {} });
`;
const rawSql = `
import type { PrismaClient } from '@kasa/db';
export const count = (db: PrismaClient) => db.$queryRaw\`SELECT count(*) FROM sender_returns\`;
`;
const poolQuery = `
import type pg from 'pg';
export const ping = (deps: { pool: pg.Pool }) => deps.pool.query('SELECT 1');
`;
const transaction = `
import type { PrismaClient } from '@kasa/db';
export const inOne = (deps: { db: PrismaClient }) => deps.db.$transaction(async () => 1);
`;

describe('(a) Prisma and SQL only in repositories', () => {
  it('refuses a Prisma model call in a route, a use case or a view', async () => {
    expect(await complaints(modelCall, ROUTE)).toEqual([expect.stringContaining('A Prisma model call')]);
    expect(await complaints(txModelCall, USE_CASE)).toEqual([expect.stringContaining('A Prisma model call')]);
    expect(await complaints(modelCall, VIEW)).toEqual([expect.stringContaining('A Prisma model call')]);
  });

  it('refuses raw SQL and pool queries outside repositories', async () => {
    expect(await complaints(rawSql, USE_CASE)).toEqual([expect.stringContaining('Raw SQL')]);
    expect(await complaints(poolQuery, ROUTE)).toEqual([expect.stringContaining('SQL on a pg pool')]);
  });

  it('lets repositories run model calls, raw SQL and pool queries, and a composition root check its pool', async () => {
    expect(await complaints(modelCall + txModelCall.replace(/^import.*$/m, ''), REPOSITORY)).toEqual([]);
    expect(await complaints(rawSql, REPOSITORY)).toEqual([]);
    expect(await complaints(poolQuery, REPOSITORY)).toEqual([]);
    expect(await complaints(poolQuery, 'services/webhook-worker/src/app.ts')).toEqual([]);
  });

  it('lets a use case or the transition recipe open a transaction, and refuses it in a route', async () => {
    expect(await complaints(transaction, USE_CASE)).toEqual([]);
    expect(await complaints(transaction, RECIPE)).toEqual([]);
    expect(await complaints(transaction, ROUTE)).toEqual([expect.stringContaining('A transaction begins in a use case')]);
  });
});

describe('(b) @kasa/db values only in repositories and composition roots', () => {
  it('refuses a value import of @kasa/db in a use case and a route', async () => {
    const valueImport = `import { Prisma } from '@kasa/db';\nexport const empty = Prisma.empty;\n`;
    expect(await complaints(valueImport, USE_CASE)).toEqual([expect.stringContaining("'@kasa/db' import is restricted")]);
    expect(await complaints(valueImport, ROUTE)).toEqual([expect.stringContaining("'@kasa/db' import is restricted")]);
  });

  it('allows `import type` anywhere and values in a repository or a composition root', async () => {
    expect(await complaints(`import type { SenderReturn } from '@kasa/db';\nexport type Row = SenderReturn;\n`, USE_CASE)).toEqual([]);
    const valueImport = `import { Prisma } from '@kasa/db';\nexport const empty = Prisma.empty;\n`;
    expect(await complaints(valueImport, REPOSITORY)).toEqual([]);
    expect(await complaints(valueImport, `${LEDGER}/ledger-deps.ts`)).toEqual([]);
  });
});

describe('(c) no service imports another service', () => {
  it('refuses a service package import, in a use case and in a repository alike', async () => {
    const code = `import { createApp } from '@kasa/gateway';\nexport const app = createApp;\n`;
    expect(await complaints(code, USE_CASE)).toEqual([expect.stringContaining('A service never imports a service')]);
    expect(await complaints(code, REPOSITORY)).toEqual([expect.stringContaining('A service never imports a service')]);
    const console = `import { createApp } from '@kasa/console';\nexport const app = createApp;\n`;
    expect(await complaints(console, 'services/gateway/src/ledger-client.ts')).toEqual([
      expect.stringContaining('A service never imports a service'),
    ]);
  });

  it('refuses a relative path into another service', async () => {
    const code = `import { createApp } from '../../../gateway/src/app.js';\nexport const app = createApp;\n`;
    expect(await complaints(code, USE_CASE)).toEqual([expect.stringContaining('A service never imports another service')]);
    const fromWorker = `import { createApp } from '../../ledger/src/app.js';\nexport const app = createApp;\n`;
    expect(await complaints(fromWorker, 'services/webhook-worker/src/worker-deps.ts')).toEqual([
      expect.stringContaining('A service never imports another service'),
    ]);
  });

  it('allows packages and the service’s own folders', async () => {
    const code = `import { AppError } from '@kasa/http';\nimport { HousePostings } from './house-accounts.js';\nimport { Postings } from '../journal/accounts.js';\nexport const all = [AppError, HousePostings, Postings];\n`;
    expect(await complaints(code, USE_CASE)).toEqual([]);
  });
});

describe("(d) the ledger's folders depend one way: shared/ is the bottom", () => {
  const SHARED = `${LEDGER}/shared/clock.ts`;
  const SHARED_REPOSITORY = `${LEDGER}/shared/row-lock.repository.ts`;

  it('refuses an import of another ledger folder in shared/, a type-only one and one in a repository alike', async () => {
    const up = `import { operatorAuth } from '../operators/operator-auth.js';\nexport const guard = operatorAuth;\n`;
    expect(await complaints(up, SHARED)).toEqual([expect.stringContaining("shared/ is the ledger's bottom layer")]);
    const typeOnly = `import type { OutboxPublisher } from '../outbox/outbox.publisher.js';\nexport type P = OutboxPublisher;\n`;
    expect(await complaints(typeOnly, SHARED)).toEqual([expect.stringContaining("shared/ is the ledger's bottom layer")]);
    const root = `import type { LedgerDeps } from '../ledger-deps.js';\nexport type D = LedgerDeps;\n`;
    expect(await complaints(root, SHARED_REPOSITORY)).toEqual([expect.stringContaining("shared/ is the ledger's bottom layer")]);
  });

  it('lets shared/ import its own files and packages, and every folder import shared/', async () => {
    const own = `import { isUuid } from './http-guards.js';\nimport { AppError } from '@kasa/http';\nexport const ok = [isUuid, AppError];\n`;
    expect(await complaints(own, SHARED)).toEqual([]);
    const down = `import { systemClock } from '../shared/clock.js';\nexport const clock = systemClock;\n`;
    expect(await complaints(down, USE_CASE)).toEqual([]);
  });
});

describe("(e) a ledger feature does not import another feature's use case", () => {
  const FEATURE = "A ledger feature does not import another feature's use case";
  const approve = `import { approveWithdrawal } from '../withdrawals/review-withdrawal.use-case.js';\nexport const step = approveWithdrawal;\n`;
  const approveType = `import type { WithdrawalReviewDeps } from '../withdrawals/review-withdrawal.use-case.js';\nexport type D = WithdrawalReviewDeps;\n`;

  it("refuses another feature's use case in a route, a use case and a view, a type-only import too", async () => {
    expect(await complaints(approve, ROUTE)).toEqual([expect.stringContaining(FEATURE)]);
    expect(await complaints(approveType, USE_CASE)).toEqual([expect.stringContaining(FEATURE)]);
    expect(await complaints(approve, VIEW)).toEqual([expect.stringContaining(FEATURE)]);
  });

  it("has no exceptions: the files that once ran another feature's use case are refused it like any other", async () => {
    const remainder = `import { requestRemainderReturns } from '../returns/sender-return.use-case.js';\nexport const returns = requestRemainderReturns;\n`;
    expect(await complaints(remainder, `${LEDGER}/deposits/review-deposit.use-case.ts`)).toEqual([expect.stringContaining(FEATURE)]);
    const followUps = `import type { FollowUpDeps } from '../follow-ups/run-follow-ups.use-case.js';\nexport type D = FollowUpDeps;\n`;
    expect(await complaints(followUps, `${LEDGER}/bank-transfers/record-lines.ts`)).toEqual([expect.stringContaining(FEATURE)]);
    const reconcile = `import { reconcileAll } from '../reconciliation/reconcile-account.use-case.js';\nexport const all = reconcileAll;\n`;
    expect(await complaints(reconcile, `${LEDGER}/journal/check-journal.use-case.ts`)).toEqual([expect.stringContaining(FEATURE)]);
  });

  it("lets sandbox/, follow-ups/ and desk/ run features' use cases, and every folder use shared/'s and its own", async () => {
    expect(await complaints(approve, `${LEDGER}/sandbox/simulator.use-case.ts`)).toEqual([]);
    expect(await complaints(approve, `${LEDGER}/follow-ups/run-follow-ups.use-case.ts`)).toEqual([]);
    expect(await complaints(approve, `${LEDGER}/desk/desk-ops.routes.ts`)).toEqual([]);
    const list = `import { opsListPage } from '../shared/ops-list.use-case.js';\nexport const page = opsListPage;\n`;
    expect(await complaints(list, ROUTE)).toEqual([]);
    const own = `import { requestSenderReturn } from './sender-return.use-case.js';\nexport const returns = requestSenderReturn;\n`;
    expect(await complaints(own, ROUTE)).toEqual([]);
  });
});
