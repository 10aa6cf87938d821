/**
 * The record kinds' registry (src/pages/record-pages.ts) held to the page files, to the kinds that declare their console
 * pages in their contract module, and to the sections table (src/views/sections.ts): a page file's descriptor or a
 * declared kind left out of the registry, a descriptor naming a section the table does not link, a registry out of the
 * navigation's order, or routers that do not serve the section's link and the audit log's record links fail here.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import type { ConsoleDeps } from '../src/console-deps.js';
import { DECLARED_KINDS } from '../src/i18n/declared.js';
import { DECLARED_RECORD_PAGES } from '../src/pages/declared-record.page.js';
import type { RecordPage } from '../src/pages/record-page.js';
import { RECORD_PAGES } from '../src/pages/record-pages.js';
import { SECTIONS } from '../src/views/sections.js';

const PAGES = fileURLToPath(new URL('../src/pages', import.meta.url));

/** A module export shaped like a record kind's descriptor. */
function isRecordPage(value: unknown): value is RecordPage {
  if (!value || typeof value !== 'object') return false;
  const { section, routes, audit } = value as Record<string, unknown>;
  return typeof section === 'string' && Array.isArray(routes) && !!audit && typeof audit === 'object';
}

/** The methods a route answers (Express keeps them on the route, lower case). */
function methodsOf(route: object): Record<string, boolean> {
  const { methods } = route as { methods?: Record<string, boolean> };
  return methods ?? {};
}

/** The GET paths a record kind's routers answer. The factories read their dependencies only when a request comes. */
function getPaths(page: RecordPage): string[] {
  return page.routes
    .flatMap((routes) => routes({} as ConsoleDeps).stack)
    .flatMap((layer) => (layer.route?.stack.some((handler) => handler.method === 'get') ? [layer.route.path] : []));
}

describe('the record kinds registry', () => {
  it('lists every descriptor a page file exports', async () => {
    const registered: readonly RecordPage[] = RECORD_PAGES;
    const declared: string[] = [];
    const unregistered: string[] = [];
    for (const file of readdirSync(PAGES).filter((name) => name.endsWith('.page.ts'))) {
      const exports = (await import(`../src/pages/${file.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (!isRecordPage(value)) continue;
        declared.push(`${file}: ${name}`);
        if (!registered.includes(value)) unregistered.push(`${file}: ${name}`);
      }
    }
    expect(unregistered).toEqual([]);
    // The rest are the declared kinds', one for each kind of OPS_RECORD_KINDS with a console part.
    expect(DECLARED_RECORD_PAGES).toHaveLength(DECLARED_KINDS.length);
    expect(DECLARED_RECORD_PAGES.filter((page) => !registered.includes(page))).toEqual([]);
    expect(declared.length + DECLARED_RECORD_PAGES.length).toBe(RECORD_PAGES.length);
  });

  it('serves balance adjustments from their declaration, at the paths their hand-written page had', () => {
    const adjustments = DECLARED_RECORD_PAGES.find((page) => page.section === 'adjustments');
    expect(adjustments?.audit).toEqual({ entityType: 'balance_adjustment', detailPrefix: '/balance-adjustments/' });
    const router = adjustments?.routes[0]?.({} as ConsoleDeps);
    const served = (router?.stack ?? []).flatMap((layer) =>
      layer.route ? Object.keys(methodsOf(layer.route)).map((method) => `${method.toUpperCase()} ${layer.route?.path ?? ''}`) : [],
    );
    expect(served.sort()).toEqual([
      'GET /balance-adjustments',
      'GET /balance-adjustments/:adjustmentId',
      'POST /balance-adjustments',
      'POST /balance-adjustments/:adjustmentId/approve',
      'POST /balance-adjustments/:adjustmentId/reject',
    ]);
  });

  it("names each kind's section once, in the navigation's order, each with a link and the lists' exports", () => {
    const sections = RECORD_PAGES.map((page) => page.section);
    expect(new Set(sections).size).toBe(sections.length);
    const table = SECTIONS.filter((section) => (sections as readonly string[]).includes(section.name));
    expect(table.map((section) => section.name)).toEqual(sections);
    for (const section of table) expect([section.name, 'href' in section]).toEqual([section.name, true]);
    // A kind's list is exported where its ops list answers CSV; the balance adjustments' does not.
    expect(table.filter((section) => 'exports' in section).map((section) => section.name)).toEqual([
      'deposits',
      'withdrawals',
      'transfers',
      'returns',
    ]);
  });

  it("mounts routers that serve the section's link and the pages the audit log links to", () => {
    const entityTypes = RECORD_PAGES.map((page) => page.audit.entityType);
    expect(new Set(entityTypes).size).toBe(entityTypes.length);
    for (const page of RECORD_PAGES) {
      const paths = getPaths(page);
      const href = SECTIONS.find((section) => section.name === page.section);
      expect([page.section, href && 'href' in href && paths.includes(href.href)]).toEqual([page.section, true]);
      const { detailPrefix } = page.audit;
      if (detailPrefix)
        expect([page.section, paths.some((path) => new RegExp(`^${detailPrefix}:\\w+$`).test(path))]).toEqual([page.section, true]);
    }
  });
});
