import { findIbans } from './find-ibans.js';

/**
 * What holds at any Turkish bank, without a source for its layout: a sender's IBAN written in the free text is a valid
 * `TR` IBAN that is not the receiving account's own (banks write both, and the account's own often first). The deposit
 * reference needs no profile: the ledger finds it anywhere in the description (`KD` and eight characters, the last a
 * check character; spaces, dots and dashes tolerated), after HAVALE, EFT, FAST or nothing at all.
 */
export const trGenericProfile = {
  id: 'tr-generic',
  bank: 'any Turkish bank',
  /** The sender's IBAN in `description`: the first valid IBAN that is not `accountIban`. */
  senderIban(description: string, accountIban: string): string | null {
    return findIbans(description).find((iban) => iban !== accountIban) ?? null;
  },
  samples: [
    {
      file: 'tr-generic.sta',
      lines: [
        { bankTxId: 'GAR0000001', counterpartyName: null, counterpartyIban: 'TR260001000201234567890123' },
        { bankTxId: 'GAR0000002', counterpartyName: null, counterpartyIban: null },
      ],
    },
  ],
} as const;
