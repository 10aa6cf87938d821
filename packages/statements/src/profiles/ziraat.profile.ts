import type { BankProfile } from './profile.js';

/**
 * Ziraat Bankası writes an incoming transfer's description as `Gönd: <sender> <sender's bank code>-<bank name>
 * <FAST|EFT> işlemi ...` followed by what the payer typed; the sender's name ends where the four-digit bank code
 * begins. MT940's character set has no Turkish letters, so `GOND:` is read too.
 */
export const ziraatProfile = {
  id: 'ziraat',
  bank: 'Ziraat Bankası',
  bankCode: '00010',
  source: {
    title: "Ziraat Bankası's web-ekstre statement service, a sample answer in an integration's README",
    url: 'https://github.com/selimhallac/ziraatbankasi-web-eksktre-hesap-hareketleri/blob/01ba472d2fa38f2248f11b235f699ef67cc68a17/README.md',
    shows:
      "an incoming line of Ziraat's account-statement service whose description (Aciklama) is `Gönd:` and the sender (masked there); public parsers of Ziraat's e-dekont and PDF statements show the same text going on with the sender's bank code, `-`, the bank's name and `FAST işlemi`, and end the name before the first number",
  },
  senderName: {
    pattern: /(?:^|[\s_])G[öo]nd(?:eren)?\s*:\s*(?<name>\p{L}[\p{L}.'&\s-]*?)(?=\s+\d|\s*$)/iu,
    inWords: "after `Gönd:` (`GOND:` in MT940), up to the first number (the sender's bank code)",
  },
  samples: [
    {
      file: 'ziraat.sta',
      lines: [
        { bankTxId: 'ZRT73000001', counterpartyName: 'AYŞE YILMAZ', counterpartyIban: null },
        { bankTxId: 'ZRT73000002', counterpartyName: 'MEHMET OZTURK', counterpartyIban: null },
        { bankTxId: 'ZRT73000004', counterpartyName: null, counterpartyIban: null },
      ],
    },
  ],
} as const satisfies BankProfile;
