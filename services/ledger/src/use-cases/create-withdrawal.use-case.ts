import type { CreateWithdrawalResponse } from '@kasa/contracts';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { generateReferenceNo } from '../domain/reference-no.js';
import type { SiteRepository } from '../repositories/site.repository.js';
import type { WithdrawalRepository } from '../repositories/withdrawal.repository.js';
import { assertAmountWithinSiteBounds, isUniqueViolation, type Idempotent } from './shared.js';

export interface CreateWithdrawalCommand {
  siteId: string;
  idempotencyKey: string;
  fingerprint: string;
  body: {
    externalUserId: string;
    externalUserLabel?: string;
    amount: string;
    currency?: string;
    targetIban: string;
    targetHolderName: string;
  };
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
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let inserted;
    try {
      inserted = await deps.withdrawals.insertUnlessKeyExists({
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
      });
    } catch (error) {
      if (isUniqueViolation(error, 'reference_no')) continue;
      throw error;
    }
    if (inserted) return { replayed: false, body: { withdrawalId: inserted.id, referenceNo: inserted.referenceNo } };
    const existing = await deps.withdrawals.findByIdempotencyKey(site.id, command.idempotencyKey);
    if (!existing) continue;
    if (existing.idempotencyFingerprint !== command.fingerprint) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
    }
    return { replayed: true, body: { withdrawalId: existing.id, referenceNo: existing.referenceNo } };
  }
  throw new AppError('service_unavailable', 'Could not allocate a reference number; retry with the same Idempotency-Key.');
}
