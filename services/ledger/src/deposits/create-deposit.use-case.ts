import { randomUUID } from 'node:crypto';
import type { CreateDepositResponse, RequestOf } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { KasaConfig } from '@kasa/config';
import type { Logger } from '@kasa/logger';
import type { Clock } from '../shared/clock.js';
import { depositToken, sha256Hex } from '../shared/secrets.js';
import type { DepositRepository } from './deposit.repository.js';
import type { ReceivingAccountRepository } from '../sites/receiving-account.repository.js';
import type { SiteRepository } from '../sites/site.repository.js';
import {
  assertSiteTakes,
  createOnce,
  newSiteRecord,
  requestedAmount,
  type CreateCommand,
  type Idempotent,
} from '../site-records/create-record.js';
import { checkReturnUrl } from '../sites/return-url.js';

export type CreateDepositCommand = CreateCommand<RequestOf<'createDeposit'>>;

export interface CreateDepositDeps {
  clock: Clock;
  logger: Logger;
  /** Read only to say why a create was refused: the insert itself reads the site's row. */
  sites: SiteRepository;
  deposits: DepositRepository;
  accounts: ReceivingAccountRepository;
  depositTokenKey: Buffer;
  publicBaseUrl: string;
  /** Production refuses a plain-http returnUrl even to localhost. */
  config: Pick<KasaConfig, 'nodeEnv'>;
}

/**
 * Creates a deposit intent, or returns the one this idempotency key already created (same body) or
 * refuses the key (different body). The ledger's own record of the key decides (see SiteScopedRepository.insertRecord);
 * the gateway sends nothing to Redis for it unless its lost-record guard is on.
 */
export async function createDeposit(deps: CreateDepositDeps, command: CreateDepositCommand): Promise<Idempotent<CreateDepositResponse>> {
  const returnUrl = checkReturnUrl(command.body.returnUrl, deps.config.nodeEnv === 'production');
  const amount = await requestedAmount(deps.sites, command);
  const { siteId } = command;
  let accountId = '';

  // The page token is an HMAC of the intent id: made once for the row's hash and reused for the answer's link.
  let token: { id: string; value: string } | undefined;
  const tokenOf = (id: string) => (token?.id === id ? token : (token = { id, value: depositToken(deps.depositTokenKey, id) })).value;
  const response = (row: { id: string; referenceNo: string; amount: bigint; currency: string; expiresAt: Date }) => ({
    intentId: row.id,
    referenceNo: row.referenceNo,
    depositUrl: `${deps.publicBaseUrl}/deposit/${tokenOf(row.id)}`,
    amount: row.amount.toString(),
    currency: row.currency,
    expiresAt: row.expiresAt.toISOString(),
  });

  // Expiry needs nothing more here: the ledger's repeatable sweep cancels the intent once it is past expiresAt.
  const created = await createOnce({
    insert: async () => {
      const account = await deps.accounts.next();
      if (!account) throw new AppError('service_unavailable', 'No receiving bank account is configured; retry later.');
      accountId = account.id;
      const id = randomUUID();
      return deps.deposits.insertUnlessKeyExists({
        ...newSiteRecord('deposit', amount, command),
        id,
        receivingAccountId: account.id,
        depositTokenHash: sha256Hex(tokenOf(id)),
        now: deps.clock.now(),
        returnUrl,
      });
    },
    findExisting: () => deps.deposits.findByIdempotencyKey(siteId, command.idempotencyKey),
    recheck: async () => {
      await assertSiteTakes(deps.sites, siteId, amount);
      // The cached account list may still hold an account deactivated since: read it again and retry if so.
      return deps.accounts.refreshUnlessActive(accountId);
    },
    fingerprint: command.fingerprint,
    answeredBefore: command.answeredBefore,
    toBody: response,
  });
  const { requestId } = command;
  const { intentId, referenceNo, expiresAt } = created.body;
  if (created.replayed) deps.logger.info('deposit create replayed', { requestId, siteId, intentId });
  else deps.logger.info('deposit created', { requestId, siteId, intentId, referenceNo, amount: created.body.amount, expiresAt });
  return created;
}
