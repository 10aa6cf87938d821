import express, { type Router } from 'express';
import { normalizeIban } from '@kasa/contracts';
import { AppError, jsonBody } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import type { LedgerDeps } from '../ledger-deps.js';
import { writeAudit, type Actor } from '../repositories/audit.repository.js';
import { listPage, type ListQuery } from '../use-cases/list-records.use-case.js';
import { createSite, issueApiKey, revokeApiKey, siteView } from '../use-cases/provisioning.use-case.js';
import { assertValid, opsAuth } from './guards.js';
import { isUniqueViolation } from '../use-cases/shared.js';
import { requireRole } from '../operators/operator-auth.js';

interface CreateSiteBody {
  slug: string;
  name: string;
  webhookUrl?: string;
  rateLimitPerMinute?: number;
  depositTtlSeconds?: number;
  minAmount?: string;
  maxAmount?: string;
}

/** The ops API (`/ops/v1`): partner provisioning and the service's receiving bank accounts. */
export function opsRoutes(deps: LedgerDeps): Router {
  const router = express.Router();
  router.use(opsAuth(deps.config.opsBootstrapToken));
  const actorOf = (locals: { actor?: Actor }): Actor => locals.actor as Actor;
  // Provisioning changes who can move money; reviewers may read but only admins may change it.
  const admin = requireRole('ADMIN');

  router.post('/sites', admin, jsonBody, async (req, res) => {
    assertValid('createSite', req.body);
    const body = req.body as CreateSiteBody;
    const site = await createSite(deps, actorOf(res.locals), {
      slug: body.slug,
      name: body.name,
      ...(body.webhookUrl ? { webhookUrl: body.webhookUrl } : {}),
      ...(body.rateLimitPerMinute ? { rateLimitPerMinute: body.rateLimitPerMinute } : {}),
      ...(body.depositTtlSeconds ? { depositTtlSeconds: body.depositTtlSeconds } : {}),
      ...(body.minAmount ? { minAmount: BigInt(body.minAmount) } : {}),
      ...(body.maxAmount ? { maxAmount: BigInt(body.maxAmount) } : {}),
    });
    res.status(201).json(site);
  });

  router.get('/sites', async (req, res) => {
    const page = await listPage(
      { name: 'ops-sites', schema: 'listSites', fetch: (_scope, _statuses, window) => deps.sites.list(window), toItem: siteView },
      deps.cursors,
      'ops',
      req.query as ListQuery,
    );
    res.json(page);
  });

  const siteOr404 = async (siteId: string) => {
    const site = /^[0-9a-f-]{36}$/i.test(siteId) ? await deps.sites.findById(siteId) : null;
    if (!site) throw new AppError('not_found', 'No site with this id.');
    return site;
  };

  router.get('/sites/:siteId', async (req, res) => {
    res.json(siteView(await siteOr404(req.params.siteId as string)));
  });

  router.get('/sites/:siteId/api-keys', async (req, res) => {
    const site = await siteOr404(req.params.siteId as string);
    const keys = await deps.apiKeys.listForSite(site.id);
    res.json({
      data: keys.map((key) => ({
        apiKeyId: key.id,
        keyPrefix: key.keyPrefix,
        createdAt: key.createdAt.toISOString(),
        revokedAt: key.revokedAt?.toISOString() ?? null,
      })),
    });
  });

  router.post('/sites/:siteId/api-keys', admin, jsonBody, async (req, res) => {
    assertValid('issueApiKey', req.body);
    res.status(201).json(await issueApiKey(deps, actorOf(res.locals), req.params.siteId as string));
  });

  router.delete('/api-keys/:apiKeyId', admin, async (req, res) => {
    res.json(await revokeApiKey(deps, actorOf(res.locals), req.params.apiKeyId as string));
  });

  router.post('/receiving-accounts', admin, jsonBody, async (req, res) => {
    assertValid('createReceivingAccount', req.body);
    const body = req.body as { bankName: string; holderName: string; iban: string };
    try {
      const account = await deps.accounts.create({ ...body, iban: normalizeIban(body.iban) });
      await writeAudit(deps.db, {
        actor: actorOf(res.locals),
        action: 'RECEIVING_ACCOUNT.CREATED',
        entityType: 'receiving_account',
        entityId: account.id,
        metadata: { iban: maskIban(account.iban) },
      });
      res.status(201).json(account);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.validation([{ field: 'iban', message: 'is already registered' }]);
      throw error;
    }
  });

  router.get('/receiving-accounts', async (_req, res) => {
    res.json({ data: await deps.accounts.list() });
  });

  return router;
}
