/**
 * Every kind of reviewed record the console shows, in the navigation's order: the hand-written ones are their page
 * file's descriptor (record-page.ts), and every kind that declares its console pages in its contract module comes from
 * declared-record.page.ts. app.ts mounts their routes and the audit log (audit.page.ts) names and links their records
 * from this list; the sections (views/sections.ts) give the navigation and the exported lists. A new kind declares its
 * console part in its contract module and touches nothing here (CONTRIBUTING.md, "A new record kind").
 */
import type { Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { SECTIONS } from '../views/sections.js';
import { bankTransfersPage } from './bank-transfers.page.js';
import { DECLARED_RECORD_PAGES } from './declared-record.page.js';
import { depositsPage } from './deposits.page.js';
import type { RecordPage } from './record-page.js';
import { returnsPage } from './returns.page.js';
import { withdrawalsPage } from './withdrawals.page.js';

/** The kinds whose pages are written by hand, each in its page file. */
const HAND_WRITTEN = [depositsPage, withdrawalsPage, bankTransfersPage, returnsPage] as const satisfies readonly RecordPage[];

const place = (page: RecordPage) => SECTIONS.findIndex((section) => section.name === page.section);

export const RECORD_PAGES: readonly RecordPage[] = [...HAND_WRITTEN, ...DECLARED_RECORD_PAGES].sort((a, b) => place(a) - place(b));

/** Every record kind's routers, built with the console's dependencies. */
export function recordRoutes(deps: ConsoleDeps): Router[] {
  return RECORD_PAGES.flatMap((page) => page.routes.map((routes) => routes(deps)));
}
