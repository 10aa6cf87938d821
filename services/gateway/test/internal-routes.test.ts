/**
 * The internal API's table (@kasa/contracts INTERNAL_ROUTES) holds both sides of the gateway-to-ledger hop: the ledger
 * serves every operation in it, and the gateway reaches the ledger only through it (LedgerClient.call by operation id,
 * no path of its own).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { INTERNAL_PREFIX, INTERNAL_ROUTES, internalPath, type InternalOperationId } from '@kasa/contracts';
import { startHarness, type Harness } from './harness.js';

const GATEWAY_SRC = fileURLToPath(new URL('../src/', import.meta.url));
const NO_SUCH_ENDPOINT = 'No such endpoint.';

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

async function ask(method: string, path: string): Promise<{ status: number; detail: unknown }> {
  const response = await fetch(`${h.ledger.url}${path}`, {
    method,
    headers: { 'x-internal-token': h.env.config.internalToken, 'content-type': 'application/json' },
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

describe('the internal API table', () => {
  const operations = Object.keys(INTERNAL_ROUTES) as InternalOperationId[];

  it.each(operations)('is served by the ledger: %s', async (operation) => {
    const { method, path } = INTERNAL_ROUTES[operation];
    const answer = await ask(method, internalPath(operation, sampleParams(path) as never));
    // A route that exists answers for the unknown site, record or page (404 with its own words) or refuses the empty body.
    expect(answer.detail).not.toBe(NO_SUCH_ENDPOINT);
    expect(answer.status).toBeLessThan(500);
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
});
