import type { CreateWithdrawalResponse, RequestOf } from '@kasa/contracts';
import { normalizeIban } from '@kasa/contracts';
import type { Logger } from '@kasa/logger';
import type { SiteRepository } from '../sites/site.repository.js';
import type { WithdrawalRepository } from './withdrawal.repository.js';
import { screeningOfNewRecord, type ScreenNameDeps } from '../screening/screen-name.js';
import {
  assertSiteTakes,
  createOnce,
  newSiteRecord,
  requestedAmount,
  type CreateCommand,
  type Idempotent,
} from '../site-records/create-record.js';

export type CreateWithdrawalCommand = CreateCommand<RequestOf<'createWithdrawal'>>;

export interface CreateWithdrawalDeps extends ScreenNameDeps {
  logger: Logger;
  sites: SiteRepository;
  withdrawals: WithdrawalRepository;
}

/**
 * Records a payout request for operator review; idempotent on (site, key) like deposits. The beneficiary's name is
 * screened against the sanctions lists first and the screening written by the create's own statement: a hit holds the
 * withdrawal for a compliance decision (docs/compliance.md) and the partner sees nothing of it.
 */
export async function createWithdrawal(
  deps: CreateWithdrawalDeps,
  command: CreateWithdrawalCommand,
): Promise<Idempotent<CreateWithdrawalResponse>> {
  const amount = await requestedAmount(deps.sites, command);
  const siteId = command.siteId;
  const targetHolderName = command.body.targetHolderName.trim();
  const screening = await screeningOfNewRecord(deps, 'withdrawal', siteId, targetHolderName);
  const created = await createOnce({
    insert: () =>
      deps.withdrawals.insertUnlessKeyExists(
        {
          ...newSiteRecord('withdrawal', amount, command),
          targetIban: normalizeIban(command.body.targetIban),
          targetHolderName,
        },
        screening,
      ),
    findExisting: () => deps.withdrawals.findByIdempotencyKey(siteId, command.idempotencyKey),
    recheck: async () => {
      await assertSiteTakes(deps.sites, siteId, amount);
      return false;
    },
    fingerprint: command.fingerprint,
    answeredBefore: command.answeredBefore,
    toBody: (row) => ({ withdrawalId: row.id, referenceNo: row.referenceNo }),
  });
  // The target IBAN and holder name stay out of the log.
  const { withdrawalId, referenceNo } = created.body;
  if (created.replayed) deps.logger.info('withdrawal create replayed', { requestId: command.requestId, siteId, withdrawalId });
  else
    deps.logger.info('withdrawal created', {
      requestId: command.requestId,
      siteId,
      withdrawalId,
      referenceNo,
      amount: amount.toString(),
    });
  return created;
}
