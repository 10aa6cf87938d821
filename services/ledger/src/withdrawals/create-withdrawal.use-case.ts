import type { CreateWithdrawalResponse, RequestOf } from '@kasa/contracts';
import { normalizeIban } from '@kasa/contracts';
import type { Logger } from '@kasa/logger';
import type { SiteRepository } from '../sites/site.repository.js';
import type { WithdrawalRepository } from './withdrawal.repository.js';
import { createOnce, newSiteRecord, siteAndAmount, type CreateCommand, type Idempotent } from '../site-records/create-record.js';

export type CreateWithdrawalCommand = CreateCommand<RequestOf<'createWithdrawal'>>;

export interface CreateWithdrawalDeps {
  logger: Logger;
  sites: SiteRepository;
  withdrawals: WithdrawalRepository;
}

/** Records a payout request for operator review; idempotent on (site, key) like deposits. */
export async function createWithdrawal(
  deps: CreateWithdrawalDeps,
  command: CreateWithdrawalCommand,
): Promise<Idempotent<CreateWithdrawalResponse>> {
  const { site, amount } = await siteAndAmount(deps.sites, command);
  const created = await createOnce({
    insert: () =>
      deps.withdrawals.insertUnlessKeyExists({
        ...newSiteRecord('withdrawal', site, amount, command),
        targetIban: normalizeIban(command.body.targetIban),
        targetHolderName: command.body.targetHolderName.trim(),
      }),
    findExisting: () => deps.withdrawals.findByIdempotencyKey(site.id, command.idempotencyKey),
    fingerprint: command.fingerprint,
    answeredBefore: command.answeredBefore,
    toBody: (row) => ({ withdrawalId: row.id, referenceNo: row.referenceNo }),
  });
  // The target IBAN and holder name stay out of the log.
  const { withdrawalId, referenceNo } = created.body;
  if (created.replayed) deps.logger.info('withdrawal create replayed', { requestId: command.requestId, siteId: site.id, withdrawalId });
  else
    deps.logger.info('withdrawal created', {
      requestId: command.requestId,
      siteId: site.id,
      withdrawalId,
      referenceNo,
      amount: amount.toString(),
    });
  return created;
}
