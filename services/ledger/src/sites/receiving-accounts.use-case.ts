import type { PrismaClient } from '@kasa/db';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import type { ReceivingAccountRepository } from './receiving-account.repository.js';

export interface ReceivingAccountsDeps {
  db: PrismaClient;
  accounts: ReceivingAccountRepository;
}

/** Adds one of the service's bank accounts; the account and its audit entry commit together or not at all. */
export async function createReceivingAccount(
  deps: ReceivingAccountsDeps,
  actor: Actor,
  input: { bankName: string; holderName: string; iban: string },
) {
  try {
    return await deps.db.$transaction(async (tx) => {
      const account = await deps.accounts.create(tx, { ...input, iban: normalizeIban(input.iban) });
      await writeAudit(tx, {
        actor,
        action: 'RECEIVING_ACCOUNT.CREATED',
        entityType: 'receiving_account',
        entityId: account.id,
        metadata: { iban: maskIban(account.iban) },
      });
      return account;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.validation([{ field: 'iban', message: 'is already registered' }]);
    throw error;
  }
}
