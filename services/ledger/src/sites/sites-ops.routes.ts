import type { Site } from '@kasa/db';
import express, { type Router } from 'express';
import { parseRequest, LIST_FILTERS_INVALID } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { principalOf } from '../shared/operator-principal.js';
import { actorOf } from '../shared/operator-principal.js';
import { isUuid, opsAuth } from '../shared/http-guards.js';
import { listPage } from '../shared/partner-list.use-case.js';
import { createSite, issueApiKey, revokeApiKey, siteOr404 } from './provisioning.use-case.js';
import { siteView } from './site.views.js';
import { toReceivingAccount } from './receiving-account.views.js';
import { updateSiteSettings } from './site-settings.use-case.js';
import { createReceivingAccount, updateReceivingAccount } from './receiving-accounts.use-case.js';
import { opsOperation } from '../shared/ops-route.js';
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

  opsOperation(
    router,
    'createSite',
  )(async ({ body }, _req, res) =>
    createSite(deps, actor(res.locals), {
      slug: body.slug,
      name: body.name,
      ...(body.webhookUrl ? { webhookUrl: body.webhookUrl } : {}),
      ...(body.rateLimitPerMinute ? { rateLimitPerMinute: body.rateLimitPerMinute } : {}),
      ...(body.depositTtlSeconds ? { depositTtlSeconds: body.depositTtlSeconds } : {}),
      ...(body.minAmount ? { minAmount: BigInt(body.minAmount) } : {}),
      ...(body.maxAmount ? { maxAmount: BigInt(body.maxAmount) } : {}),
      ...(body.returnUrl ? { returnUrl: body.returnUrl } : {}),
    }),
  );

  opsOperation(
    router,
    'listSites',
  )(async (_input, req, res) => {
    const query = parseRequest('listSites', req.query, LIST_FILTERS_INVALID);
    const source = {
      name: 'ops-sites',
      fetch: (_scope: string, _statuses: unknown, window: Parameters<typeof deps.sites.list>[0]) =>
        deps.sites.list(window, scopeOf(principalOf(res.locals))),
      toItem: (site: Site) => site,
    };
    const page = await listPage(source, deps.cursors, 'ops', query);
    const twins = await deps.sites.testTwinsOf(page.data.map((site) => site.id));
    return { ...page, data: page.data.map((site) => siteView(site, twins.get(site.id) ?? null)) };
  });

  opsOperation(
    router,
    'getSite',
  )(async ({ params }) => {
    const site = await siteOr404(deps.sites, params.siteId);
    return siteView(site, (await deps.sites.testTwinsOf([site.id])).get(site.id) ?? null);
  });

  opsOperation(router, 'updateSite', { invalidBody: 'The settings are not valid; nothing was changed.' })(
    async ({ params: { siteId }, body }, _req, res) => {
      if (body.autoApprove) ensureHouseWide(principalOf(res.locals), 'the straight-through rule');
      // A compliance policy: an admin limited to some sites may not switch a site's screening off.
      if (body.screenDepositSenders !== undefined) ensureHouseWide(principalOf(res.locals), 'the screening of deposit senders');
      if (!isUuid(siteId)) throw new AppError('not_found', 'No site with this id.');
      return updateSiteSettings(deps, actor(res.locals), siteId, {
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
    },
  );

  opsOperation(
    router,
    'listApiKeys',
  )(async ({ params }) => {
    const site = await siteOr404(deps.sites, params.siteId);
    const keys = await deps.apiKeys.listForSite(site.id);
    return {
      data: keys.map((key) => ({
        apiKeyId: key.id,
        keyPrefix: key.keyPrefix,
        createdAt: key.createdAt.toISOString(),
        revokedAt: key.revokedAt?.toISOString() ?? null,
      })),
    };
  });

  opsOperation(
    router,
    'issueApiKey',
  )(async ({ params, body }, _req, res) => issueApiKey(deps, actor(res.locals), params.siteId, body?.mode ?? 'live'));

  opsOperation(router, 'revokeApiKey')(async ({ params }, _req, res) => revokeApiKey(deps, actor(res.locals), params.apiKeyId));

  opsOperation(
    router,
    'createReceivingAccount',
  )(async ({ body }, _req, res) => toReceivingAccount(await createReceivingAccount(deps, actor(res.locals), body)));

  opsOperation(
    router,
    'updateReceivingAccount',
  )(async ({ params, body }, _req, res) =>
    toReceivingAccount(await updateReceivingAccount(deps, actor(res.locals), params.accountId, body)),
  );

  opsOperation(router, 'listReceivingAccounts')(async () => ({ data: (await deps.accounts.list()).map(toReceivingAccount) }));

  return router;
}
