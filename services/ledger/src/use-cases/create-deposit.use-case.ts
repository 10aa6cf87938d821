import { randomUUID } from 'node:crypto';
import type { CreateDepositResponse } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { generateReferenceNo } from '../domain/reference-no.js';
import { depositToken, sha256Hex } from '../domain/secrets.js';
import type { DepositRepository } from '../repositories/deposit.repository.js';
import type { ReceivingAccountRepository } from '../repositories/receiving-account.repository.js';
import type { SiteRepository } from '../repositories/site.repository.js';
import { assertAmountWithinSiteBounds, isUniqueViolation, type Idempotent } from './shared.js';

export interface CreateDepositCommand {
  siteId: string;
  idempotencyKey: string;
  fingerprint: string;
  body: { externalUserId: string; externalUserLabel?: string; amount: string; currency?: string };
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

  // A reference number can collide with an existing one (1 in billions); draw again a few times.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const id = randomUUID();
    let inserted;
    try {
      inserted = await deps.deposits.insertUnlessKeyExists({
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
    } catch (error) {
      if (isUniqueViolation(error, 'reference_no')) continue;
      throw error;
    }
    // Expiry needs nothing here: the ledger's repeatable sweep cancels the intent once it is past expiresAt.
    if (inserted) {
      return { replayed: false, body: response(inserted) };
    }
    const existing = await deps.deposits.findByIdempotencyKey(site.id, command.idempotencyKey);
    if (!existing) continue;
    if (existing.idempotencyFingerprint !== command.fingerprint) {
      throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
    }
    return { replayed: true, body: response(existing) };
  }
  throw new AppError('service_unavailable', 'Could not allocate a reference number; retry with the same Idempotency-Key.');
}
