import type { Site } from '@kasa/db';
import express, { type Router } from 'express';
import { parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError, jsonBody, pathParam } from '@kasa/http';
import { principalOf } from '../shared/operator-principal.js';
import { actorOf } from '../shared/operator-principal.js';
import { isUuid, opsAuth } from '../shared/http-guards.js';
import { listPage } from '../shared/partner-list.use-case.js';
import { createSite, issueApiKey, revokeApiKey, siteOr404 } from './provisioning.use-case.js';
import { siteView } from './site.views.js';
import { updateSiteSettings } from './site-settings.use-case.js';
import { createReceivingAccount, updateReceivingAccount } from './receiving-accounts.use-case.js';
import { opsRoute } from '../shared/ops-route.js';
import { ensureHouseWide, scopeOf } from '../shared/site-scope.js';
import type { ReceivingAccountRepository } from './receiving-account.repository.js';
import type { ApiKeyRepository } from './api-key.repository.js';
import type { KasaConfig } from '@kasa/config';
import type { CursorCodec } from '../shared/cursor.js';
import type { SiteRepository } from './site.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SitesOpsRoutesDeps = Parameters<typeof createSite>[0] &
  Parameters<typeof createReceivingAccount>[0] & {
    accounts: ReceivingAccountRepository;
    apiKeys: ApiKeyRepository;
    config: KasaConfig;
    cursors: CursorCodec;
    sites: SiteRepository;
  };

/** The ops API's provisioning (`/ops/v1`): sites, their API keys, and the service's receiving bank accounts. */
export function siteOpsRoutes(deps: SitesOpsRoutesDeps): Router {
  const router = express.Router();
  router.use(opsAuth(deps.config.opsBootstrapToken));
  const actor = (locals: Parameters<typeof principalOf>[0]) => actorOf(principalOf(locals));

  opsRoute(router, 'createSite', jsonBody, async (req, res) => {
    const body = parseRequest('createSite', req.body);
    const site = await createSite(deps, actor(res.locals), {
      slug: body.slug,
      name: body.name,
      ...(body.webhookUrl ? { webhookUrl: body.webhookUrl } : {}),
      ...(body.rateLimitPerMinute ? { rateLimitPerMinute: body.rateLimitPerMinute } : {}),
      ...(body.depositTtlSeconds ? { depositTtlSeconds: body.depositTtlSeconds } : {}),
      ...(body.minAmount ? { minAmount: BigInt(body.minAmount) } : {}),
      ...(body.maxAmount ? { maxAmount: BigInt(body.maxAmount) } : {}),
      ...(body.returnUrl ? { returnUrl: body.returnUrl } : {}),
    });
    res.status(201).json(site);
  });

  opsRoute(router, 'listSites', async (req, res) => {
    const query = parseRequest('listSites', req.query, LIST_FILTERS_INVALID);
    const source = {
      name: 'ops-sites',
      fetch: (_scope: string, _statuses: unknown, window: Parameters<typeof deps.sites.list>[0]) =>
        deps.sites.list(window, scopeOf(principalOf(res.locals))),
      toItem: (site: Site) => site,
    };
    const page = await listPage(source, deps.cursors, 'ops', query);
    const twins = await deps.sites.testTwinsOf(page.data.map((site) => site.id));
    res.json({ ...page, data: page.data.map((site) => siteView(site, twins.get(site.id) ?? null)) });
  });

  opsRoute(router, 'getSite', async (req, res) => {
    const site = await siteOr404(deps.sites, pathParam(req, 'siteId'));
    res.json(siteView(site, (await deps.sites.testTwinsOf([site.id])).get(site.id) ?? null));
  });

  opsRoute(router, 'updateSite', jsonBody, async (req, res) => {
    const body = parseRequest('updateSite', req.body, 'The settings are not valid; nothing was changed.');
    if (body.autoApprove) ensureHouseWide(principalOf(res.locals), 'the straight-through rule');
    // A compliance policy: an admin limited to some sites may not switch a site's screening off.
    if (body.screenDepositSenders !== undefined) ensureHouseWide(principalOf(res.locals), 'the screening of deposit senders');
    const siteId = pathParam(req, 'siteId');
    if (!isUuid(siteId)) throw new AppError('not_found', 'No site with this id.');
    const site = await updateSiteSettings(deps, actor(res.locals), siteId, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.webhookUrl !== undefined ? { webhookUrl: body.webhookUrl } : {}),
      ...(body.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: body.rateLimitPerMinute } : {}),
      ...(body.depositTtlSeconds !== undefined ? { depositTtlSeconds: body.depositTtlSeconds } : {}),
      ...(body.minAmount !== undefined ? { minAmount: BigInt(body.minAmount) } : {}),
      ...(body.maxAmount !== undefined ? { maxAmount: BigInt(body.maxAmount) } : {}),
      ...(body.returnUrl !== undefined ? { returnUrl: body.returnUrl } : {}),
      ...(body.screenDepositSenders !== undefined ? { screenDepositSenders: body.screenDepositSenders } : {}),
      ...(body.dualApprovalAbove !== undefined
        ? { dualApprovalAbove: body.dualApprovalAbove === null ? null : BigInt(body.dualApprovalAbove) }
        : {}),
      ...(body.autoApprove
        ? {
            autoApproveEnabled: body.autoApprove.enabled,
            ...(body.autoApprove.maxAmount !== undefined ? { autoApproveMaxAmount: BigInt(body.autoApprove.maxAmount) } : {}),
            ...(body.autoApprove.requireSenderMatch !== undefined
              ? { autoApproveRequireSenderMatch: body.autoApprove.requireSenderMatch }
              : {}),
          }
        : {}),
    });
    res.json(site);
  });

  opsRoute(router, 'listApiKeys', async (req, res) => {
    const site = await siteOr404(deps.sites, pathParam(req, 'siteId'));
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

  opsRoute(router, 'issueApiKey', jsonBody, async (req, res) => {
    const { mode } = parseRequest('issueApiKey', req.body ?? {});
    res.status(201).json(await issueApiKey(deps, actor(res.locals), pathParam(req, 'siteId'), mode ?? 'live'));
  });

  opsRoute(router, 'revokeApiKey', async (req, res) => {
    res.json(await revokeApiKey(deps, actor(res.locals), pathParam(req, 'apiKeyId')));
  });

  opsRoute(router, 'createReceivingAccount', jsonBody, async (req, res) => {
    res.status(201).json(await createReceivingAccount(deps, actor(res.locals), parseRequest('createReceivingAccount', req.body)));
  });

  opsRoute(router, 'updateReceivingAccount', jsonBody, async (req, res) => {
    const body = parseRequest('updateReceivingAccount', req.body);
    res.json(await updateReceivingAccount(deps, actor(res.locals), pathParam(req, 'accountId'), body));
  });

  opsRoute(router, 'listReceivingAccounts', async (_req, res) => {
    res.json({ data: await deps.accounts.list() });
  });

  return router;
}
