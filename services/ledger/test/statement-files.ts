/** Receiving accounts and statement files over the real ops API, for the ledger's statement tests. */
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import type { LedgerHarness } from './harness.js';

export interface TestAccount {
  id: string;
  iban: string;
  /** A prefix making the account's bank references its own. */
  tag: string;
}

/** A new receiving account with an IBAN no other test uses. */
export async function newReceivingAccount(h: LedgerHarness, tagLength = 8): Promise<TestAccount> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban, tag: randomUUID().slice(0, tagLength).toUpperCase() };
}

/** POST /ops/v1/receiving-accounts/:accountId/statements with the bootstrap token: the status and the answer. */
export async function importStatementFile(h: LedgerHarness, accountId: string, body: string, contentType = 'text/plain') {
  const response = await fetch(`${h.ledger.url}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.env.config.opsBootstrapToken}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
