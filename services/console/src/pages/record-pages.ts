/**
 * Every kind of reviewed record the console shows, in the navigation's order: each is its page file's descriptor
 * (record-page.ts). app.ts mounts their routes and the audit log (audit.page.ts) names and links their records from
 * this list; their sections' rows in views/sections.ts give the navigation and the exported lists. A new kind is its
 * page file, its row there, one line here and its words (CONTRIBUTING.md, "A new record kind").
 */
import type { Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import { balanceAdjustmentsPage } from './balance-adjustments.page.js';
import { bankTransfersPage } from './bank-transfers.page.js';
import { depositsPage } from './deposits.page.js';
import type { RecordPage } from './record-page.js';
import { returnsPage } from './returns.page.js';
import { withdrawalsPage } from './withdrawals.page.js';

export const RECORD_PAGES = [
  depositsPage,
  withdrawalsPage,
  bankTransfersPage,
  returnsPage,
  balanceAdjustmentsPage,
] as const satisfies readonly RecordPage[];

/** The audit entity types of the record kinds, in the registry's order. */
export type RecordEntityType = (typeof RECORD_PAGES)[number]['audit']['entityType'];

/** Every record kind's routers, built with the console's dependencies. */
export function recordRoutes(deps: ConsoleDeps): Router[] {
  return RECORD_PAGES.flatMap((page) => page.routes.map((routes) => routes(deps)));
}
