/**
 * The internal API's table (@kasa/contracts INTERNAL_ROUTES) holds both sides of the gateway-to-ledger hop: the ledger
 * serves every operation in it at the table's path (no path of its own), and the gateway reaches the ledger only
 * through it (LedgerClient.call by operation id, no path of its own either). Both sides read the table, so a path
 * changed there would still agree with itself: the wire each operation was released on is written out below.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ts from 'typescript';
import { INTERNAL_PREFIX, INTERNAL_ROUTES, internalPath, type InternalOperationId } from '@kasa/contracts';
import { startHarness, type Harness } from './harness.js';

const GATEWAY_SRC = fileURLToPath(new URL('../src/', import.meta.url));
const LEDGER_SRC = fileURLToPath(new URL('../../ledger/src/', import.meta.url));
const NO_SUCH_ENDPOINT = 'No such endpoint.';

/**
 * Each operation's method and path as released. During a rolling update old gateway pods call new ledger pods and new
 * gateway pods old ledger ones (docs/operations.md, Releasing a new version), so a path changes as a migration does:
 * the ledger serves the new one beside the old for a release, then the old one goes. A change here is that decision.
 */
const WIRE: Record<InternalOperationId, string> = {
  resolveApiKey: 'POST /auth/resolve',
  createDeposit: 'POST /sites/:siteId/deposits',
  getIntent: 'GET /sites/:siteId/intents/:intentId',
  listIntents: 'GET /sites/:siteId/intents',
  createWithdrawal: 'POST /sites/:siteId/withdrawals',
  getWithdrawal: 'GET /sites/:siteId/withdrawals/:withdrawalId',
  listWithdrawals: 'GET /sites/:siteId/withdrawals',
  getBalance: 'GET /sites/:siteId/balance',
  listBalanceTransactions: 'GET /sites/:siteId/balance/transactions',
  getBalanceStatementKeys: 'GET /sites/:siteId/balance/statements/keys',
  getBalanceStatement: 'GET /sites/:siteId/balance/statements/:date',
  getWebhookConfig: 'GET /sites/:siteId/webhook-config',
  putWebhookConfig: 'PUT /sites/:siteId/webhook-config',
  testWebhook: 'POST /sites/:siteId/test-webhook',
  listEvents: 'GET /sites/:siteId/events',
  recoverEvents: 'POST /sites/:siteId/events/recover',
  getEvent: 'GET /sites/:siteId/events/:eventId',
  replayEvent: 'POST /sites/:siteId/events/:eventId/replay',
  getDepositPage: 'GET /deposit-pages/:tokenHash',
  confirmDepositPage: 'POST /deposit-pages/:tokenHash/confirmation',
  simulateDepositPageTransfer: 'POST /deposit-pages/:tokenHash/simulated-transfer',
  simulateTransfer: 'POST /sites/:siteId/test/deposits/:intentId/transfers',
  simulateDepositApproval: 'POST /sites/:siteId/test/deposits/:intentId/approve',
  simulateDepositRejection: 'POST /sites/:siteId/test/deposits/:intentId/reject',
  simulateDepositExpiry: 'POST /sites/:siteId/test/deposits/:intentId/expire',
  simulateWithdrawalApproval: 'POST /sites/:siteId/test/withdrawals/:withdrawalId/approve',
  simulateWithdrawalRejection: 'POST /sites/:siteId/test/withdrawals/:withdrawalId/reject',
  simulateWithdrawalSent: 'POST /sites/:siteId/test/withdrawals/:withdrawalId/send',
  simulateWithdrawalReturn: 'POST /sites/:siteId/test/withdrawals/:withdrawalId/return',
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

/** A value for each kind of path parameter that passes the ledger's own path checks (lower-case UUIDs, a day, a hash). */
function sampleParams(path: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [, name] of path.matchAll(/:(\w+)/g)) {
    params[name as string] = name === 'date' ? '2026-11-01' : name === 'tokenHash' ? 'ab'.repeat(32) : randomUUID();
  }
  return params;
}

async function ask(method: string, path: string, token = h.env.config.internalToken): Promise<{ status: number; detail: unknown }> {
  const response = await fetch(`${h.ledger.url}${path}`, {
    method,
    headers: { ...(token ? { 'x-internal-token': token } : {}), 'content-type': 'application/json' },
    ...(method === 'GET' ? {} : { body: '{}' }),
  });
  const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
  return { status: response.status, detail: body.detail };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The text of every string and template literal in a source file; comments, which may name a path, are not read. */
function literalsOf(file: string): string[] {
  const literals: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) literals.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest));
  return literals;
}

/**
 * Every run of whole segments of the table's paths (`/sites/:siteId/events`, `/recover`, `/:eventId/replay`): what a
 * router mounted at a path of its own, or a handler under such a mount, would have to name.
 */
function pathPieces(): Set<string> {
  const pieces = new Set<string>();
  for (const { path } of Object.values(INTERNAL_ROUTES)) {
    const segments = path.split('/').slice(1);
    for (let from = 0; from < segments.length; from++) {
      for (let to = from + 1; to <= segments.length; to++) pieces.add(`/${segments.slice(from, to).join('/')}`);
    }
  }
  return pieces;
}

describe('the internal API table', () => {
  const operations = Object.keys(INTERNAL_ROUTES) as InternalOperationId[];

  it.each(operations)('is served by the ledger: %s', async (operation) => {
    const { method, path } = INTERNAL_ROUTES[operation];
    const answer = await ask(method, internalPath(operation, sampleParams(path) as never));
    // A route that exists answers for the unknown site, record or page (404 with its own words) or refuses the empty body;
    // a handler that reads a parameter the table's path does not name answers `No route parameter ...`.
    expect(answer.detail).not.toBe(NO_SUCH_ENDPOINT);
    expect(String(answer.detail)).not.toMatch(/^No route parameter/);
    expect(answer.status).toBeLessThan(500);
  });

  it.each(operations)('refuses a caller without the internal token or with a wrong one: %s', async (operation) => {
    const { method, path } = INTERNAL_ROUTES[operation];
    const at = internalPath(operation, sampleParams(path) as never);
    expect((await ask(method, at, '')).status).toBe(401);
    expect((await ask(method, at, 'not-the-internal-token')).status).toBe(401);
  });

  it('keeps each operation on the wire it was released on', () => {
    const wire = Object.fromEntries(
      operations.map((operation) => [operation, `${INTERNAL_ROUTES[operation].method} ${INTERNAL_ROUTES[operation].path}`]),
    );
    expect(wire).toEqual(WIRE);
  });

  it('tells a path the table does not have from one it has (the check above can fail)', async () => {
    expect(await ask('GET', `${INTERNAL_PREFIX}/sites/${randomUUID()}/nothing-here`)).toEqual({ status: 404, detail: NO_SUCH_ENDPOINT });
    expect((await ask('DELETE', internalPath('getIntent', { siteId: randomUUID(), intentId: randomUUID() }))).detail).toBe(
      NO_SUCH_ENDPOINT,
    );
  });

  it('is the only way the gateway reaches the ledger, and each of its operations is one the gateway calls', () => {
    const files = sourceFiles(GATEWAY_SRC).map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    expect(files.filter(({ text }) => text.includes(INTERNAL_PREFIX)).map(({ file }) => file)).toEqual([]);
    const named = (operation: string) => files.some(({ text }) => text.includes(`'${operation}'`));
    expect(operations.filter((operation) => !named(operation))).toEqual([]);
  });

  it('is where the ledger takes its paths from: no internal path, mount or piece of one is written in its source', () => {
    const pieces = pathPieces();
    // A literal ending in `/` is the start of a path built on (`/withdrawals/:withdrawalId/${step}`).
    const own = (literal: string) => literal.includes(INTERNAL_PREFIX) || pieces.has(literal.replace(/\/+$/, ''));
    const named = sourceFiles(LEDGER_SRC).flatMap((file) =>
      literalsOf(file)
        .filter(own)
        .map((literal) => `${file}: ${literal}`),
    );
    expect(named).toEqual([]);
  });
});
