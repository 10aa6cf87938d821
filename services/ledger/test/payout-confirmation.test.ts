/**
 * Payout confirmations only from the payout's own bank lines, over the real ops API and statement import: a debit on
 * the batch's paying account to the payout's IBAN or carrying its EndToEndId marks it SENT; a credit on that account
 * carrying its EndToEndId, or from the beneficiary's IBAN naming its reference, marks it RETURNED. A stranger's credit
 * naming a sent withdrawal's reference is ordinary incoming money for the desk, never a return; a debit to another IBAN
 * or on another account confirms nothing.
 */
import { describe, expect, it } from '@jest/globals';
import { expectStatus, makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const AMOUNT = 75000;
const STRANGER_IBAN = makeTrIban(913_000_001);

async function newAccount(): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  return { id: expectStatus(created, 201, 'receiving account').body.id as string, iban };
}

interface Payout {
  id: string;
  referenceNo: string;
  targetIban: string;
}

/** `count` approved withdrawals of the site, each for {@link AMOUNT}, batched on `account`. */
async function batchedWithdrawals(account: { id: string }, count: number): Promise<Payout[]> {
  const { h, site } = setup;
  await h.fund(site, AMOUNT * count);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const { withdrawalId } = await h.createWithdrawal(site, AMOUNT);
    expectStatus(await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {}), 200, 'approve');
    ids.push(withdrawalId);
  }
  expectStatus(await h.ops('POST', '/payout-batches', { withdrawalIds: ids, accountId: account.id }), 201, 'batch');
  return Promise.all(
    ids.map(async (id) => {
      const { referenceNo, targetIban } = await withdrawal(id);
      return { id, referenceNo: referenceNo as string, targetIban: targetIban as string };
    }),
  );
}

async function withdrawal(id: string): Promise<Record<string, any>> {
  return expectStatus(await setup.h.ops('GET', `/withdrawals/${id}`), 200, 'withdrawal').body;
}

async function available(): Promise<string> {
  return expectStatus(await setup.h.ops('GET', `/sites/${setup.site.siteId}/balance`), 200, 'balance').body.available as string;
}

async function eventTypes(withdrawalId: string): Promise<string[]> {
  const events = await setup.h.ledger.deps.db.outboxEvent.findMany({ where: { entityId: withdrawalId }, orderBy: { createdAt: 'asc' } });
  return events.map((event) => event.type);
}

interface Line {
  direction: 'debit' | 'credit';
  bankTxId: string;
  description: string;
  counterpartyIban?: string;
  endToEndId?: string;
  returnReason?: string;
}

/** Each account's balance after the statements imported so far: the next statement opens with it. */
const balances = new Map<string, bigint>();

/** Imports one statement of `account` in the CSV layout (docs/statements.md), its balances adding up and following on. */
async function importLines(account: { id: string; iban: string }, lines: Line[]): Promise<Record<string, any>> {
  const money = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
  const opening = balances.get(account.id) ?? 10_000_000n;
  const closing = lines.reduce((sum, line) => sum + (line.direction === 'credit' ? 1n : -1n) * BigInt(AMOUNT), opening);
  const id = `ST-${Math.random().toString(36).slice(2, 10)}`;
  const row = (cells: string[]) => [account.iban, id, ...cells].join(',');
  const body = [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
    row(['2026-11-20', 'opening', money(opening), 'TRY', '', '', '', '', '', '']),
    ...lines.map((line) =>
      row([
        '2026-11-20T10:00:00',
        line.direction,
        money(BigInt(AMOUNT)),
        'TRY',
        line.bankTxId,
        'AYŞE YILMAZ',
        line.counterpartyIban ?? '',
        line.description,
        line.endToEndId ?? '',
        line.returnReason ?? '',
      ]),
    ),
    row(['2026-11-20', 'closing', money(closing), 'TRY', '', '', '', '', '', '']),
    '',
  ].join('\n');
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/receiving-accounts/${account.id}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.h.env.config.opsBootstrapToken}`, 'content-type': 'text/csv' },
    body,
  });
  expect(response.status).toBe(201);
  balances.set(account.id, closing);
  return (await response.json()) as Record<string, any>;
}

const tag = () => Math.random().toString(36).slice(2, 10).toUpperCase();

describe('payout confirmations from bank lines', () => {
  it("leaves a sent withdrawal SENT when a stranger's credit names its reference for its exact amount: unmatched money for the desk", async () => {
    const { h } = setup;
    const account = await newAccount();
    const [payout] = await batchedWithdrawals(account, 1);
    if (!payout) throw new Error('no payout');
    expectStatus(await h.ops('POST', `/withdrawals/${payout.id}/mark-sent`, { bankTxId: `OUT-${tag()}` }), 200, 'mark sent');
    const balance = await available();

    const stranger = `X-${tag()}`;
    const imported = await importLines(account, [
      { direction: 'credit', bankTxId: stranger, description: `İade ${payout.referenceNo}`, counterpartyIban: STRANGER_IBAN },
    ]);

    expect(imported).toMatchObject({ created: 1, payoutsReturned: 0, unmatched: 1 });
    expect(await withdrawal(payout.id)).toMatchObject({ status: 'SENT', returnedAt: null });
    expect(await available()).toBe(balance);
    expect(await eventTypes(payout.id)).not.toContain('withdrawal.returned');
    const queue = expectStatus(await h.ops('GET', '/bank-transfers?status=UNMATCHED&limit=100'), 200, 'queue').body.data as Array<
      Record<string, any>
    >;
    expect(queue.find((transfer) => transfer.bankTxId === stranger)).toMatchObject({ status: 'UNMATCHED', amount: String(AMOUNT) });
    expect(expectStatus(await h.ops('GET', '/journal/check'), 200, 'journal check').body.problems).toEqual([]);
  });

  it('leaves a batched withdrawal APPROVED for a debit naming its reference to another IBAN without its end-to-end id', async () => {
    const account = await newAccount();
    const [payout] = await batchedWithdrawals(account, 1);
    if (!payout) throw new Error('no payout');

    const imported = await importLines(account, [
      { direction: 'debit', bankTxId: `D-${tag()}`, description: `Ödeme ${payout.referenceNo}`, counterpartyIban: STRANGER_IBAN },
    ]);

    expect(imported).toMatchObject({ created: 1, payoutsSent: 0 });
    expect(await withdrawal(payout.id)).toMatchObject({ status: 'APPROVED', sentBankTxId: null });
    expect(await eventTypes(payout.id)).not.toContain('withdrawal.sent');
  });

  it("leaves a batched withdrawal APPROVED for a debit with its end-to-end id and IBAN on another account than the batch's", async () => {
    const paying = await newAccount();
    const other = await newAccount();
    const [payout] = await batchedWithdrawals(paying, 1);
    if (!payout) throw new Error('no payout');

    const imported = await importLines(other, [
      {
        direction: 'debit',
        bankTxId: `D-${tag()}`,
        description: `Ödeme ${payout.referenceNo}`,
        counterpartyIban: payout.targetIban,
        endToEndId: payout.referenceNo,
      },
    ]);

    expect(imported).toMatchObject({ created: 1, payoutsSent: 0 });
    expect(await withdrawal(payout.id)).toMatchObject({ status: 'APPROVED', sentBankTxId: null });
  });

  it("marks SENT from the payout's own debit (its end-to-end id, or its IBAN with the reference), not from a decoy before it", async () => {
    const account = await newAccount();
    const [byE2e, byIban] = await batchedWithdrawals(account, 2);
    if (!byE2e || !byIban) throw new Error('no payouts');
    const t = tag();
    // The IBAN as a person types it: spaces and lower case are the same account.
    const spaced = byIban.targetIban.toLowerCase().replace(/(.{4})/g, '$1 ');

    const imported = await importLines(account, [
      { direction: 'debit', bankTxId: `DECOY1-${t}`, description: byE2e.referenceNo, counterpartyIban: STRANGER_IBAN },
      { direction: 'debit', bankTxId: `DECOY2-${t}`, description: `Ödeme ${byIban.referenceNo}` },
      { direction: 'debit', bankTxId: `E2E-${t}`, description: 'EFT KASA', endToEndId: byE2e.referenceNo },
      { direction: 'debit', bankTxId: `IBAN-${t}`, description: `Ödeme ${byIban.referenceNo}`, counterpartyIban: spaced },
    ]);

    expect(imported).toMatchObject({ created: 4, payoutsSent: 2 });
    expect(await withdrawal(byE2e.id)).toMatchObject({ status: 'SENT', sentBankTxId: `E2E-${t}` });
    expect(await withdrawal(byIban.id)).toMatchObject({ status: 'SENT', sentBankTxId: `IBAN-${t}` });
    expect(await eventTypes(byE2e.id)).toEqual(['withdrawal.sent']);
  });

  it("marks RETURNED with the bank's reason code from the payout's own credit (its end-to-end id, or its beneficiary's IBAN), a stranger's before it going to the desk", async () => {
    const { h } = setup;
    const account = await newAccount();
    const [byE2e, byIban] = await batchedWithdrawals(account, 2);
    if (!byE2e || !byIban) throw new Error('no payouts');
    const t = tag();
    await importLines(account, [
      { direction: 'debit', bankTxId: `OUT1-${t}`, description: 'EFT KASA', endToEndId: byE2e.referenceNo },
      { direction: 'debit', bankTxId: `OUT2-${t}`, description: 'EFT KASA', endToEndId: byIban.referenceNo },
    ]);
    const balance = await available();

    const imported = await importLines(account, [
      { direction: 'credit', bankTxId: `X1-${t}`, description: `İade ${byE2e.referenceNo}`, counterpartyIban: STRANGER_IBAN },
      { direction: 'credit', bankTxId: `X2-${t}`, description: `İade ${byIban.referenceNo}` },
      { direction: 'credit', bankTxId: `R1-${t}`, description: 'IADE', endToEndId: byE2e.referenceNo, returnReason: 'AC04' },
      {
        direction: 'credit',
        bankTxId: `R2-${t}`,
        description: `İade ${byIban.referenceNo}`,
        counterpartyIban: byIban.targetIban,
        returnReason: 'AC06',
      },
    ]);

    expect(imported).toMatchObject({ created: 4, payoutsReturned: 2, unmatched: 2 });
    expect(await withdrawal(byE2e.id)).toMatchObject({ status: 'RETURNED', returnReason: { code: 'AC04' } });
    expect(await withdrawal(byIban.id)).toMatchObject({ status: 'RETURNED', returnReason: { code: 'AC06' } });
    expect(BigInt(await available())).toBe(BigInt(balance) + 2n * BigInt(AMOUNT));
    const transfers = await h.ledger.deps.db.bankTransfer.findMany({
      where: { receivingAccountId: account.id },
      orderBy: { bankTxId: 'asc' },
    });
    expect(transfers.map(({ bankTxId, status }) => [bankTxId, status])).toEqual([
      [`R1-${t}`, 'PAYOUT_RETURNED'],
      [`R2-${t}`, 'PAYOUT_RETURNED'],
      [`X1-${t}`, 'UNMATCHED'],
      [`X2-${t}`, 'UNMATCHED'],
    ]);
    expect(expectStatus(await h.ops('GET', '/journal/check'), 200, 'journal check').body.problems).toEqual([]);
  });
});
