import type { ResponseOf } from '@kasa/contracts';
import type { ReceivingBankAccount } from '@kasa/db';

/**
 * A receiving account as the ops API shows it (`ReceivingAccount`): the documented fields, named one by one, so a
 * column added to the table is not answered until the contract says so.
 */
export function toReceivingAccount(account: ReceivingBankAccount): ResponseOf<'ReceivingAccount'> {
  return {
    id: account.id,
    bankName: account.bankName,
    holderName: account.holderName,
    iban: account.iban,
    accountNumber: account.accountNumber,
    branchCode: account.branchCode,
    active: account.active,
    createdAt: account.createdAt.toISOString(),
  };
}
