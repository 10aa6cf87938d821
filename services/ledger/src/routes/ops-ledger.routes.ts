import express, { type Router } from 'express';
import type { AuditLog } from '@kasa/db';
import { AppError } from '@kasa/http';
import { checkJournal } from '../journal/check-journal.use-case.js';
import { balanceView } from '../journal/accounts.js';
import type { LedgerDeps } from '../ledger-deps.js';
import { opsListPage } from '../review/ops-list.use-case.js';
import { isUuid } from './guards.js';

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

/** Site balances, the journal invariant check, and the audit log. */
export function opsLedgerRoutes(deps: LedgerDeps): Router {
  const router = express.Router();

  router.get('/balances', async (_req, res) => {
    const sites = await deps.journal.allBalances();
    res.json({ data: sites.map((site) => ({ ...balanceView(site.siteId, site.balances), slug: site.slug, name: site.name })) });
  });

  router.get('/sites/:siteId/balance', async (req, res) => {
    const { siteId } = req.params as { siteId: string };
    const site = isUuid(siteId) ? await deps.sites.findById(siteId) : null;
    if (!site) throw new AppError('not_found', 'No site with this id.');
    res.json({ ...balanceView(site.id, await deps.journal.balancesOf(site.id)), slug: site.slug, name: site.name });
  });

  router.get('/journal/check', async (_req, res) => {
    res.json(await checkJournal(deps));
  });

  router.get('/audit', async (req, res) => {
    let emails = new Map<string, string>();
    const page = await opsListPage(
      deps.cursors,
      { name: 'ops-audit', schema: 'listAudit' },
      req.query,
      async (filters, window) => {
        const rows = await deps.auditLog.list(filters, window);
        emails = await deps.operators.emailsOf([...new Set(rows.filter((r) => r.actorType === 'OPERATOR' && isUuid(r.actorId)).map((r) => r.actorId))]);
        return rows;
      },
      (row) => auditView(row, emails),
    );
    res.json(page);
  });

  return router;
}
