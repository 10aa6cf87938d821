import type { CreateWithdrawalResponse, RequestOf } from '@kasa/contracts';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { generateReferenceNo } from '../shared/reference-no.js';
import type { SiteRepository } from '../sites/site.repository.js';
import type { WithdrawalRepository } from './withdrawal.repository.js';
import { assertAmountWithinSiteBounds, createOnce, type Idempotent } from '../shared/create-record.js';

export interface CreateWithdrawalCommand {
  siteId: string;
  idempotencyKey: string;
  fingerprint: string;
  body: RequestOf<'createWithdrawal'>;
}

export interface CreateWithdrawalDeps {
  sites: SiteRepository;
  withdrawals: WithdrawalRepository;
}

/** Records a payout request for operator review; idempotent on (site, key) like deposits. */
export async function createWithdrawal(
  deps: CreateWithdrawalDeps,
  command: CreateWithdrawalCommand,
): Promise<Idempotent<CreateWithdrawalResponse>> {
  const site = await deps.sites.findById(command.siteId);
  if (!site) throw new AppError('unauthorized', 'The API key does not belong to an active site.');
  const amount = BigInt(command.body.amount);
  assertAmountWithinSiteBounds(site, amount);
  return createOnce({
    insert: () =>
      deps.withdrawals.insertUnlessKeyExists({
        siteId: site.id,
        referenceNo: generateReferenceNo('withdrawal'),
        amount,
        currency: command.body.currency ?? 'TRY',
        externalUserId: command.body.externalUserId,
        externalUserLabel: command.body.externalUserLabel ?? null,
        targetIban: normalizeIban(command.body.targetIban),
        targetHolderName: command.body.targetHolderName.trim(),
        idempotencyKey: command.idempotencyKey,
        idempotencyFingerprint: command.fingerprint,
      }),
    findExisting: () => deps.withdrawals.findByIdempotencyKey(site.id, command.idempotencyKey),
    fingerprint: command.fingerprint,
    toBody: (row) => ({ withdrawalId: row.id, referenceNo: row.referenceNo }),
  });
}
