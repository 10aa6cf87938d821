import express, { type Router } from 'express';
import { LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { opsListPage } from '../shared/ops-list.use-case.js';
import { opsOperation } from '../shared/ops-route.js';
import { LIST_TOO_SLOW, readWithTimeout } from '../shared/read-timeout.repository.js';
import { sealViews, type SealView } from './list-seals.use-case.js';
import type { KasaConfig } from '@kasa/config';
import type { CursorCodec } from '../shared/cursor.js';
import type { PrismaClient } from '@kasa/db';
import type { HistorySealRepository } from './history-seal.repository.js';
import type { SealKeys } from './history-seal.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SealsOpsRoutesDeps = {
  config: KasaConfig;
  cursors: CursorCodec;
  db: PrismaClient;
  historySeals: HistorySealRepository;
  sealKeys: SealKeys;
};

/** The signed daily seals of the history chains (`/ops/v1/seals`), newest first, each checked as it is shown. */
export function sealsOpsRoutes(deps: SealsOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(
    router,
    'listSeals',
  )(async (_input, req) => {
    const query = parseRequest('listSeals', req.query, LIST_FILTERS_INVALID);
    let views = new Map<string, SealView>();
    return opsListPage(
      deps.cursors,
      'ops-seals',
      query,
      (_filters, window) =>
        readWithTimeout(deps.db, deps.config.opsReadTimeoutMs, LIST_TOO_SLOW, async (tx) => {
          const rows = await deps.historySeals.page(tx, window);
          views = new Map((await sealViews(tx, deps.historySeals, deps.sealKeys, rows)).map((view) => [view.sealId, view]));
          return rows;
        }),
      (row) => views.get(row.id)!,
    );
  });

  return router;
}
