import express, { type Router } from 'express';
import { parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import type { AuditLog } from '@kasa/db';
import { isUuid } from '../shared/http-guards.js';
import { opsListPage } from '../shared/ops-list.use-case.js';
import { opsRoute } from '../shared/ops-route.js';
import { wantsCsv } from '../shared/csv.js';
import { sendOpsListCsv } from '../shared/ops-list-csv.js';
import { LIST_TOO_SLOW, readWithTimeout } from '../shared/read-timeout.repository.js';
import { principalOf } from '../shared/operator-principal.js';
import { scopeOf } from '../shared/site-scope.js';
import type { AuditQueryRepository } from './audit-query.repository.js';
import type { KasaConfig } from '@kasa/config';
import type { CursorCodec } from '../shared/cursor.js';
import type { PrismaClient } from '@kasa/db';
import type { OperatorRepository } from './operator.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type AuditOpsRoutesDeps = {
  auditLog: AuditQueryRepository;
  config: KasaConfig;
  cursors: CursorCodec;
  db: PrismaClient;
  operators: OperatorRepository;
};

function auditView(row: AuditLog, emails: Map<string, string>) {
  return {
    auditId: row.id,
    createdAt: row.createdAt.toISOString(),
    actor: { type: row.actorType, id: row.actorId, email: emails.get(row.actorId) ?? null },
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    siteId: row.siteId,
    metadata: row.metadata,
  };
}

/** The audit log (`/ops/v1/audit`): who did what, newest first, with the operator's e-mail beside the id. */
export function auditOpsRoutes(deps: AuditOpsRoutesDeps): Router {
  const router = express.Router();

  opsRoute(router, 'listAudit', async (req, res) => {
    const query = parseRequest('listAudit', req.query, LIST_FILTERS_INVALID);
    const scope = scopeOf(principalOf(res.locals));
    let emails = new Map<string, string>();
    const readPage = (page: typeof query) =>
      opsListPage(
        deps.cursors,
        'ops-audit',
        page,
        // Each page, of a CSV export too, in a transaction of its own whose statement timeout is OPS_READ_TIMEOUT_MS.
        (filters, window) =>
          readWithTimeout(deps.db, deps.config.opsReadTimeoutMs, LIST_TOO_SLOW, async (tx) => {
            const rows = await deps.auditLog.list(filters, window, scope, tx);
            emails = await deps.operators.emailsOf(
              [...new Set(rows.filter((r) => r.actorType === 'OPERATOR' && isUuid(r.actorId)).map((r) => r.actorId))],
              tx,
            );
            return rows;
          }),
        (row) => auditView(row, emails),
      );
    if (wantsCsv(req)) return sendOpsListCsv(res, 'audit', (page) => readPage({ ...query, cursor: undefined, ...page }));
    res.json(await readPage(query));
  });

  return router;
}
