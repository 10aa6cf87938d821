/**
 * A reviewed record kind's ops contract is its module in src/ops-records/ alone: scripts/setup.mjs lists every module
 * of the folder in src/generated/ops-record-kinds.ts (scripts/generate-sources.mjs). Held here: the written list is
 * what the folder makes now, every module is in it under its file's name, in alphabetical order (the ops document's),
 * with everything it exports reachable from the package; and everything a listed kind declares (operations, request
 * schemas, views) reaches OPS_ROUTES and the registries under a name no other kind uses; no operation on a kind's
 * paths is declared outside its module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { OPS_RECORD_KINDS_FILE, opsRecordKindsSource } from '../../../scripts/generate-sources.mjs';
import type { OpsRecordKind } from '../src/ops-operation-spec.js';
import type { OpsRecordDeskOf } from '../src/ops-record-desk.js';
import { BALANCE_ADJUSTMENT_OPS, OPS_RECORD_DESK_QUEUES, OPS_RECORD_KINDS } from '../src/ops-records/index.js';
import * as contracts from '../src/index.js';
import { OPS_RESPONSE_SCHEMAS, OPS_ROUTES, REQUEST_SCHEMAS, type OpsResponse, type QueueHead, type ResponseOf } from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const folder = fileURLToPath(new URL('../src/ops-records/', import.meta.url));
const modules = readdirSync(folder)
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.slice(0, -'.ts'.length));
const kinds = Object.entries(OPS_RECORD_KINDS) as Array<[string, OpsRecordKind]>;
const table = (entries: object) => new Map(Object.entries(entries));

const isKind = (value: unknown): value is OpsRecordKind =>
  typeof value === 'object' && value !== null && ['requestSchemas', 'responseSchemas', 'operations'].every((part) => part in value);

describe('the reviewed record kinds of the ops API', () => {
  it('are listed as scripts/setup.mjs writes them from the folder now', () => {
    // Stale after a module was added or renamed without setup: `node scripts/setup.mjs` writes it again.
    expect(readFileSync(join(root, OPS_RECORD_KINDS_FILE), 'utf8')).toBe(opsRecordKindsSource(root));
  });

  it('lists every module of src/ops-records, under its file name, in alphabetical order', () => {
    expect(modules.length).toBeGreaterThan(0);
    expect(Object.keys(OPS_RECORD_KINDS)).toEqual([...modules].sort());
    // Today's kinds among them; a new kind's module joins with no edit here.
    expect(Object.keys(OPS_RECORD_KINDS)).toEqual(
      expect.arrayContaining(['balance-adjustments', 'bank-transfers', 'deposits', 'returns', 'withdrawals']),
    );
  });

  it.each(modules)('exports from the package everything %s exports, as it is', async (name) => {
    const exported: Record<string, unknown> = await import(`../src/ops-records/${name}.js`);
    const reached: Record<string, unknown> = contracts;
    expect(Object.keys(exported).length).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(exported)) expect([key, reached[key]]).toEqual([key, value]);
  });

  it.each(modules)('lists the kind %s declares, and only one', async (name) => {
    const exported: Record<string, unknown> = await import(`../src/ops-records/${name}.js`);
    const declared = Object.values(exported).filter(isKind);
    expect(declared).toHaveLength(1);
    // The name it is listed under, if any: identity, so a copied module listed in place of its own is caught too.
    expect(Object.entries(OPS_RECORD_KINDS).find(([, kind]) => kind === declared[0])?.[0]).toBe(name);
  });

  it.each(kinds)('puts every part of %s into OPS_ROUTES and the registries, as it is', (_name, kind) => {
    const routes = table(OPS_ROUTES);
    const requests = table(REQUEST_SCHEMAS);
    const responses = table(OPS_RESPONSE_SCHEMAS);
    for (const [operationId, spec] of Object.entries(kind.operations))
      expect([operationId, routes.get(operationId)]).toEqual([operationId, spec]);
    for (const [name, schema] of Object.entries(kind.requestSchemas)) expect(requests.get(name)).toBe(schema);
    for (const [name, schema] of Object.entries(kind.responseSchemas)) {
      expect(responses.get(name)).toBe(schema);
      expect(schema.$id).toBe(name);
    }
  });

  it('gives each operation, request schema and view to one kind only', () => {
    for (const part of ['operations', 'requestSchemas', 'responseSchemas'] as const) {
      const names = kinds.flatMap(([, kind]) => Object.keys(kind[part]));
      expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    }
  });

  it("puts every kind's desk queue into the dashboard's answer, as a QueueHead described by its kind", () => {
    const declared = kinds.flatMap(([, kind]) => (kind.desk ? [kind.desk] : []));
    expect(OPS_RECORD_DESK_QUEUES).toEqual(declared);
    expect(declared.map(({ queue }) => queue)).toContain('adjustmentsToApply');
    const dashboard = OPS_RESPONSE_SCHEMAS.OpsDashboard;
    const properties = table(dashboard.properties);
    for (const { queue, description } of declared) {
      expect([queue, properties.get(queue)]).toEqual([queue, { $ref: 'QueueHead', description }]);
      expect(dashboard.required).toContain(queue);
    }
    // After the queues written for the first kinds, before the faults: the order the desk shows them in.
    const keys = Object.keys(dashboard.properties);
    expect(keys.slice(keys.indexOf('returnsToSend'), keys.indexOf('deadEvents') + 1)).toEqual([
      'returnsToSend',
      ...declared.map(({ queue }) => queue),
      'deadEvents',
    ]);
  });

  it("declares every operation on a kind's paths (under its list's) in that kind's module", () => {
    const firstSegment = (path: string) => path.split('/')[1];
    // A kind may also act under another part's path (a return is asked for on its transfer, an adjustment on its site).
    const kindSegments = new Set(
      kinds.flatMap(([, kind]) =>
        Object.values(kind.operations)
          .filter((spec) => spec.method === 'GET' && !spec.path.includes(':'))
          .map((spec) => firstSegment(spec.path)),
      ),
    );
    expect([...kindSegments]).toEqual(
      expect.arrayContaining(['balance-adjustments', 'bank-transfers', 'intents', 'sender-returns', 'withdrawals']),
    );
    const declaredByKinds = new Set(kinds.flatMap(([, kind]) => Object.keys(kind.operations)));
    const outside = Object.entries(OPS_ROUTES)
      .filter(([operationId, spec]) => kindSegments.has(firstSegment(spec.path)) && !declaredByKinds.has(operationId))
      .map(([operationId]) => operationId);
    expect(outside).toEqual([]);
  });
});

/** A kind's console tabs and desk queue, its card's line in English being `what`. */
function queueOf<const What extends string>(what: What) {
  const words = { title: { en: 'To check', tr: 'Kontrol edilecek' }, what: { en: what, tr: 'kontrol edilecek kayıtlar' } } as const;
  return {
    console: { tabs: [{ status: 'PENDING_REVIEW' }] },
    desk: { queue: 'toCheck', status: 'PENDING_REVIEW', description: 'Records to check.', words, cli: 'To check' },
  } as const;
}

// Compiled by `npm run typecheck`: the types read through the list keep each kind's literals, so a wrong use fails.
export const typeChecks = [
  (answer: OpsResponse<'approveSenderReturn'>): ResponseOf<'OpsSenderReturn'> => answer,
  (): ResponseOf<'OpsSenderReturn'>['status'] => 'SENT',
  // @ts-expect-error a return's status is one of SENDER_RETURN_STATUSES, not any text
  (): ResponseOf<'OpsSenderReturn'>['status'] => 'PAID',
  // @ts-expect-error approveIntent answers an OpsIntentDecision, which an OpsWithdrawal is not
  (answer: ResponseOf<'OpsWithdrawal'>): OpsResponse<'approveIntent'> => answer,
  (): (typeof OPS_ROUTES)['listBankTransfers']['query'] => 'opsListBankTransfers',
  // @ts-expect-error listBankTransfers' query is its own schema's name, not another list's
  (): (typeof OPS_ROUTES)['listBankTransfers']['query'] => 'opsListIntents',
  // A declared desk queue is a property of the dashboard's answer.
  (answer: ResponseOf<'OpsDashboard'>): QueueHead => answer.adjustmentsToApply,
  // @ts-expect-error a desk queue counts its console list's first tab (the queue), not another of the kind's statuses
  (): OpsRecordDeskOf<typeof BALANCE_ADJUSTMENT_OPS>['status'] => 'APPLIED',
  () => queueOf('records to check').desk satisfies OpsRecordDeskOf<ReturnType<typeof queueOf<'records to check'>>>,
  // @ts-expect-error a queue card's words are plain text, with no placeholder to fill
  () => queueOf('{count} to check').desk satisfies OpsRecordDeskOf<ReturnType<typeof queueOf<'{count} to check'>>>,
];
