import type { PrismaClient, ReceivingBankAccount } from '@kasa/db';
import { normalizeIban } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { maskIban } from '@kasa/logger';
import { maskAccountNumber } from '@kasa/statements';
import { writeAudit, type Actor } from '../shared/audit.repository.js';
import { isUuid } from '../shared/http-guards.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import type { ReceivingAccountFields, ReceivingAccountRepository } from './receiving-account.repository.js';

export interface ReceivingAccountsDeps {
  db: PrismaClient;
  accounts: ReceivingAccountRepository;
}

/** What an admin may change on a receiving account; its IBAN, which names it to payers, never changes. */
export type ReceivingAccountChange = Partial<Omit<ReceivingAccountFields, 'iban'>>;

const CHANGEABLE = ['bankName', 'holderName', 'accountNumber', 'branchCode'] as const;

/** Adds one of the service's bank accounts; the account and its audit entry commit together or not at all. */
export async function createReceivingAccount(
  deps: ReceivingAccountsDeps,
  actor: Actor,
  input: { bankName: string; holderName: string; iban: string; accountNumber?: string | null; branchCode?: string | null },
) {
  try {
    return await deps.db.$transaction(async (tx) => {
      const account = await deps.accounts.create(tx, {
        bankName: input.bankName,
        holderName: input.holderName,
        iban: normalizeIban(input.iban),
        accountNumber: input.accountNumber ?? null,
        branchCode: input.branchCode ?? null,
      });
      await writeAudit(tx, {
        actor,
        action: 'RECEIVING_ACCOUNT.CREATED',
        entityType: 'receiving_account',
        entityId: account.id,
        metadata: { iban: maskIban(account.iban), ...auditedNumbers(account) },
      });
      return account;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.validation([{ field: 'iban', message: 'is already registered' }]);
    throw error;
  }
}

/**
 * Changes a receiving account's names or the number and branch code its bank's statements may name it by, with its
 * audit entry (`RECEIVING_ACCOUNT.CHANGED`, each changed field before and after, numbers masked) in one transaction.
 */
export async function updateReceivingAccount(deps: ReceivingAccountsDeps, actor: Actor, accountId: string, change: ReceivingAccountChange) {
  if (!isUuid(accountId)) throw new AppError('not_found', 'No receiving account with this id.');
  return deps.db.$transaction(async (tx) => {
    const before = await deps.accounts.lock(tx, accountId);
    if (!before) throw new AppError('not_found', 'No receiving account with this id.');
    const changed = CHANGEABLE.filter((key) => change[key] !== undefined && change[key] !== before[key]);
    if (changed.length === 0) return before;
    const after = await deps.accounts.update(tx, accountId, Object.fromEntries(changed.map((key) => [key, change[key]])));
    const audited = (account: ReceivingBankAccount) =>
      Object.fromEntries(changed.map((key) => [key, key === 'bankName' || key === 'holderName' ? account[key] : masked(account[key])]));
    await writeAudit(tx, {
      actor,
      action: 'RECEIVING_ACCOUNT.CHANGED',
      entityType: 'receiving_account',
      entityId: accountId,
      metadata: { iban: maskIban(after.iban), before: audited(before), after: audited(after) },
    });
    return after;
  });
}

function auditedNumbers(account: ReceivingBankAccount) {
  return { accountNumber: masked(account.accountNumber), branchCode: masked(account.branchCode) };
}

/** The audit log is read widely: an account number shows its last four digits, like an IBAN; a branch code is public. */
function masked(value: string | null): string | null {
  return value === null ? null : value.length <= 5 ? value : maskAccountNumber(value);
}
