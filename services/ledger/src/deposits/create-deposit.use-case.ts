import { randomUUID } from 'node:crypto';
import type { CreateDepositResponse, RequestOf } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { generateReferenceNo } from '../shared/reference-no.js';
import { depositToken, sha256Hex } from '../shared/secrets.js';
import type { DepositRepository } from './deposit.repository.js';
import type { ReceivingAccountRepository } from '../sites/receiving-account.repository.js';
import type { SiteRepository } from '../sites/site.repository.js';
import { assertAmountWithinSiteBounds, createOnce, type Idempotent } from '../shared/create-record.js';

export interface CreateDepositCommand {
  siteId: string;
  idempotencyKey: string;
  fingerprint: string;
  body: RequestOf<'createDeposit'>;
}

export interface CreateDepositDeps {
  sites: SiteRepository;
  deposits: DepositRepository;
  accounts: ReceivingAccountRepository;
  depositTokenKey: Buffer;
  publicBaseUrl: string;
}

/**
 * Creates a deposit intent, or returns the one this idempotency key already created (same body) or
 * refuses the key (different body). The database's unique (site, key) decides, so the answer holds even
 * when the gateway's Redis copy is gone.
 */
export async function createDeposit(deps: CreateDepositDeps, command: CreateDepositCommand): Promise<Idempotent<CreateDepositResponse>> {
  const site = await deps.sites.findById(command.siteId);
  if (!site) throw new AppError('unauthorized', 'The API key does not belong to an active site.');
  const amount = BigInt(command.body.amount);
  assertAmountWithinSiteBounds(site, amount);
  const account = await deps.accounts.next();
  if (!account) throw new AppError('service_unavailable', 'No receiving bank account is configured; retry later.');

  const response = (row: { id: string; referenceNo: string; amount: bigint; currency: string; expiresAt: Date }) => ({
    intentId: row.id,
    referenceNo: row.referenceNo,
    depositUrl: `${deps.publicBaseUrl}/deposit/${depositToken(deps.depositTokenKey, row.id)}`,
    amount: row.amount.toString(),
    currency: row.currency,
    expiresAt: row.expiresAt.toISOString(),
  });

  // Expiry needs nothing here: the ledger's repeatable sweep cancels the intent once it is past expiresAt.
  return createOnce({
    insert: () => {
      const id = randomUUID();
      return deps.deposits.insertUnlessKeyExists({
        id,
        siteId: site.id,
        referenceNo: generateReferenceNo('deposit'),
        amount,
        currency: command.body.currency ?? 'TRY',
        externalUserId: command.body.externalUserId,
        externalUserLabel: command.body.externalUserLabel ?? null,
        receivingAccountId: account.id,
        depositTokenHash: sha256Hex(depositToken(deps.depositTokenKey, id)),
        ttlSeconds: site.depositTtlSeconds,
        idempotencyKey: command.idempotencyKey,
        idempotencyFingerprint: command.fingerprint,
      });
    },
    findExisting: () => deps.deposits.findByIdempotencyKey(site.id, command.idempotencyKey),
    fingerprint: command.fingerprint,
    toBody: response,
  });
}
