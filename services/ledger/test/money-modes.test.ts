/**
 * Live and sandbox money never meet (docs/sandbox.md, The boundary), tried from the attacker's side: a partner holding
 * only a test key funds its sandbox, approves a withdrawal to any IBAN and leaves simulated money for operators to send
 * back, and none of it reaches a payout batch, the live returns queue or the dashboard; an operator naming it is
 * refused. Under the API the database refuses each cross-mode row (triggers, SQLSTATE 23514), and the journal check
 * reports one planted around them (`session_replication_role = replica`) as `cross_mode_money`.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

interface Sandbox {
  live: TestSite;
  /** The test twin: the site a `sk_test_` key belongs to. */
  twin: TestSite;
  apiKeyId: string;
}

const setup = useHarness(startLedgerHarness, async (h) => {
  const live = await h.createSite();
  const issued = await h.ops('POST', `/sites/${live.siteId}/api-keys`, { mode: 'test' });
  expect(issued.status).toBe(201);
  const twin = { siteId: issued.body.siteId as string, slug: `${live.slug}.test` };
  const accounts = await h.ops('GET', '/receiving-accounts');
  return { sandbox: { live, twin, apiKeyId: issued.body.apiKeyId as string } as Sandbox, accountId: accounts.body.data[0].id as string };
});

/** A simulator step as the gateway forwards a test key's call (`POST /api/v1/external/test/...`). */
async function simulate(path: string, request: Record<string, unknown> = {}) {
  const { h, sandbox } = setup;
  return h.internal('POST', `/sites/${sandbox.twin.siteId}/test${path}`, { apiKeyId: sandbox.apiKeyId, request });
}

/** Puts `amount` on the sandbox's balance with nothing but the test key: a deposit, its simulated transfer, its approval. */
async function fundSandbox(amount: number): Promise<void> {
  const deposit = await setup.h.createDeposit(setup.sandbox.twin, amount);
  expect((await simulate(`/deposits/${deposit.intentId}/transfers`)).status).toBe(201);
  expect((await simulate(`/deposits/${deposit.intentId}/approve`)).status).toBe(200);
}

/** A sandbox withdrawal to any IBAN, approved by the test key's simulator. */
async function approvedSandboxWithdrawal(amount: number): Promise<{ withdrawalId: string; referenceNo: string }> {
  await fundSandbox(amount);
  const withdrawal = await setup.h.createWithdrawal(setup.sandbox.twin, amount, { targetIban: makeTrIban(424242) });
  const approved = await simulate(`/withdrawals/${withdrawal.withdrawalId}/approve`);
  expect(approved.status).toBe(200);
  expect(approved.body.status).toBe('APPROVED');
  return withdrawal;
}

/** A sandbox deposit approved by the simulator for less than arrived: its remainder's return, as the ops API shows it. */
async function sandboxRemainderReturn(): Promise<{ intentId: string; returnId: string; bankTransferId: string }> {
  const deposit = await setup.h.createDeposit(setup.sandbox.twin, 10000);
  const paid = await simulate(`/deposits/${deposit.intentId}/transfers`);
  expect(paid.status).toBe(201);
  expect((await simulate(`/deposits/${deposit.intentId}/approve`, { amount: '6000' })).status).toBe(200);
  const returns = await setup.h.ops('GET', '/sender-returns?mode=test&limit=100');
  const mine = returns.body.data.find((row: { intentId: string | null }) => row.intentId === deposit.intentId);
  expect(mine).toBeDefined();
  return { intentId: deposit.intentId, returnId: mine.returnId as string, bankTransferId: paid.body.bankTransferId as string };
}

const liveReturnIds = async (h: LedgerHarness) =>
  ((await h.ops('GET', '/sender-returns?limit=100')).body.data as Array<{ returnId: string }>).map((row) => row.returnId);

async function crossModeProblems(h: LedgerHarness): Promise<Array<Record<string, string>>> {
  const report = await h.ops('GET', '/journal/check');
  expect(report.status).toBe(200);
  return (report.body.problems as Array<{ kind: string; detail: Record<string, string> }>)
    .filter((problem) => problem.kind === 'cross_mode_money')
    .map((problem) => problem.detail);
}

/** Runs SQL on the test database as the service's user; `replica`: with triggers (and foreign keys) off, to plant a row. */
async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = [], replica = false): Promise<T[]> {
  const client = new pg.Client({ connectionString: setup.h.env.config.databaseUrl });
  await client.connect();
  try {
    if (replica) await client.query('SET session_replication_role = replica');
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The SQLSTATE and message of a statement that must fail. */
async function refusal(text: string, values: unknown[] = []): Promise<{ code: string; message: string }> {
  try {
    await sql(text, values);
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error(`expected the database to refuse: ${text}`);
}

describe('payout batches take live money only', () => {
  // First in the file: the sandbox withdrawal is then the only approved payout there is.
  it("leaves a test key's approved withdrawal out of a batch: 409 nothing_to_batch when it is the only one", async () => {
    const { h } = setup;
    const withdrawal = await approvedSandboxWithdrawal(150000);
    const batch = await h.ops('POST', '/payout-batches', {});
    expect(batch.status).toBe(409);
    expect(batch.body.reason).toBe('nothing_to_batch');
    expect((await h.ops('GET', '/payout-batches')).body.data).toEqual([]);
    expect((await h.ops('GET', `/withdrawals/${withdrawal.withdrawalId}`)).body.status).toBe('APPROVED');
  });

  it('refuses a sandbox withdrawal named explicitly, 409 sandbox_payout, batching nothing, also beside a live one', async () => {
    const { h, sandbox } = setup;
    const test = await approvedSandboxWithdrawal(20000);
    await h.fund(sandbox.live, 30000);
    const live = await h.createWithdrawal(sandbox.live, 30000);
    expect((await h.ops('POST', `/withdrawals/${live.withdrawalId}/approve`, {})).status).toBe(200);

    const named = await h.ops('POST', '/payout-batches', { withdrawalIds: [live.withdrawalId, test.withdrawalId] });
    expect(named.status).toBe(409);
    expect(named.body).toMatchObject({ error: 'conflict', reason: 'sandbox_payout' });
    expect(named.body.detail).toContain(test.withdrawalId);
    expect((await h.ops('GET', '/payout-batches')).body.data).toEqual([]);

    // Every approved payout: the live one alone, and the file debits the house's account for it only.
    const all = await h.ops('POST', '/payout-batches', {});
    expect(all.status).toBe(201);
    const detail = await h.ops('GET', `/payout-batches/${all.body.batchId as string}`);
    expect(detail.body.items.map((item: { withdrawalId: string | null }) => item.withdrawalId)).toEqual([live.withdrawalId]);
    expect(await crossModeProblems(h)).toEqual([]);
  });
});

describe('returns of simulated money stay in the sandbox', () => {
  it('plays a sandbox remainder return out at once: SENT in the sandbox house journal, never in the live queue, dashboard or a batch', async () => {
    const { h } = setup;
    const before = (await h.ops('GET', '/dashboard')).body;
    const { returnId } = await sandboxRemainderReturn();

    const shown = await h.ops('GET', `/sender-returns/${returnId}`);
    expect(shown.body).toMatchObject({ status: 'SENT', amount: '4000', livemode: false });
    expect(shown.body.sentBankTxId).toMatch(/^sim-/);
    expect(await liveReturnIds(h)).not.toContain(returnId);
    const after = (await h.ops('GET', '/dashboard')).body;
    expect(after.returnsToReview.count).toBe(before.returnsToReview.count);
    expect(after.returnsToSend.count).toBe(before.returnsToSend.count);

    // Its house postings are the sandbox's: the live house journal holds none of them.
    const legs = await h.ledger.deps.senderReturns.houseEntriesOf(returnId);
    expect(legs.length).toBe(4);
    expect(legs.every((leg) => !leg.livemode)).toBe(true);

    // No operator pays it: approving or marking it sent is refused with the reason, and no batch takes it.
    for (const step of ['approve', 'mark-sent']) {
      const refused = await h.ops('POST', `/sender-returns/${returnId}/${step}`, {});
      expect([step, refused.status, refused.body.reason]).toEqual([step, 409, 'sandbox_payout']);
    }
    const batch = await h.ops('POST', '/payout-batches', {});
    expect(batch.status).toBe(409);
    expect(batch.body.reason).toBe('nothing_to_batch');
    const report = (await h.ops('GET', '/journal/check')).body;
    expect(report.problems).toEqual([]);
  });

  it('sends a simulated unmatched transfer back inside the sandbox: an operator asking for it gets it SENT, not a live payout', async () => {
    const { h } = setup;
    const deposit = await h.createDeposit(setup.sandbox.twin, 7000);
    const loose = await simulate(`/deposits/${deposit.intentId}/transfers`, { reference: '' });
    expect(loose.body.status).toBe('UNMATCHED');
    const asked = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId as string}/return`, { reason: 'No deposit' });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'SENT', livemode: false, amount: '7000' });
    expect((await h.ops('GET', `/bank-transfers/${loose.body.bankTransferId as string}`)).body.status).toBe('RETURNED');
    expect(await liveReturnIds(h)).not.toContain(asked.body.returnId);
    const batch = await h.ops('POST', '/payout-batches', {});
    expect(batch.status).toBe(409);
    expect(batch.body.reason).toBe('nothing_to_batch');
    expect((await h.ops('GET', '/journal/check')).body.problems).toEqual([]);
  });

  it('keeps a sandbox return left APPROVED (as before this boundary) out of the live queue, the dashboard and a batch', async () => {
    const { h } = setup;
    const { returnId } = await sandboxRemainderReturn();
    const before = (await h.ops('GET', '/dashboard')).body.returnsToSend.count as number;
    // A return of simulated money an operator approved before the boundary existed: waiting to be sent.
    await sql(`UPDATE sender_returns SET status = 'APPROVED', sent_at = NULL, sent_bank_tx_id = NULL WHERE id = $1`, [returnId], true);
    expect(await liveReturnIds(h)).not.toContain(returnId);
    expect((await h.ops('GET', '/dashboard')).body.returnsToSend.count).toBe(before);
    const batch = await h.ops('POST', '/payout-batches', {});
    expect(batch.status).toBe(409);
    expect(batch.body.reason).toBe('nothing_to_batch');
    const sent = await h.ops('POST', `/sender-returns/${returnId}/mark-sent`, { bankTxId: 'REAL-1' });
    expect(sent.status).toBe(409);
    expect(sent.body.reason).toBe('sandbox_payout');
    // Rejecting it moves no money out, so it stays open.
    expect((await h.ops('POST', `/sender-returns/${returnId}/reject`, { reason: 'Sandbox money' })).status).toBe(200);
  });
});

/** What the database checks are tried on: records of both modes, made through the API. */
async function records() {
  const { h, sandbox } = setup;
  const withdrawal = await approvedSandboxWithdrawal(5000);
  const remainder = await sandboxRemainderReturn();
  const liveDeposit = await h.createDeposit(sandbox.live, 9000);
  const liveTransfer = await h.transfer(liveDeposit.referenceNo, 9000);
  expect(liveTransfer.status).toBe(201);
  const [batch] = await sql<{ id: string }>(
    `INSERT INTO payout_batches (id, receiving_account_id, count, total, created_by) VALUES (gen_random_uuid(), $1, 0, 0, 'test') RETURNING id`,
    [setup.accountId],
  );
  return { withdrawal, remainder, liveDeposit, liveTransferId: liveTransfer.body.bankTransferId as string, batchId: batch!.id };
}

describe('the database refuses a cross-mode row (SQLSTATE 23514)', () => {
  it('refuses each one, whatever wrote it', async () => {
    const { withdrawal, remainder, liveDeposit, liveTransferId, batchId } = await records();
    const item = `INSERT INTO payout_batch_items (id, batch_id, withdrawal_id, sender_return_id, reference, amount, creditor_iban, creditor_name, position)
      VALUES (gen_random_uuid(), $1, $2, $3, $4, 100, 'TR330006100519786457841326', 'X', 1)`;
    const attempts: Array<[string, string, unknown[]]> = [
      ['batch item of a sandbox withdrawal', item, [batchId, withdrawal.withdrawalId, null, `T${randomUUID().slice(0, 8)}`]],
      ['batch item of a sandbox return', item, [batchId, null, remainder.returnId, `T${randomUUID().slice(0, 8)}`]],
      [
        'real transfer credited to a test deposit',
        `UPDATE bank_transfers SET intent_id = $2 WHERE id = $1`,
        [liveTransferId, remainder.intentId],
      ],
      [
        'simulated transfer credited to a live deposit',
        `UPDATE bank_transfers SET intent_id = $2 WHERE id = $1`,
        [remainder.bankTransferId, liveDeposit.intentId],
      ],
      [
        'live return of a simulated transfer',
        `INSERT INTO sender_returns (id, bank_transfer_id, amount, sender_name, sender_iban, reason, transfer_status_before, requested_by, livemode, updated_at)
         VALUES (gen_random_uuid(), $1, 100, 'X', 'TR330006100519786457841326', 'x', 'UNMATCHED', 'test', true, now())`,
        [remainder.bankTransferId],
      ],
      [
        'live house posting of a sandbox return',
        `INSERT INTO house_journal_entries (id, transaction_id, account, amount, entity_type, entity_id, livemode)
         VALUES (gen_random_uuid(), gen_random_uuid(), 'bank_clearing', 0, 'sender_return', $1, true)`,
        [remainder.returnId],
      ],
      [
        "live site's journal posting about a test deposit",
        `INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id)
         VALUES (gen_random_uuid(), gen_random_uuid(), $1, 'bank_clearing', 0, 'deposit_intent', $2)`,
        [setup.sandbox.live.siteId, remainder.intentId],
      ],
    ];
    for (const [what, text, values] of attempts) {
      const refused = await refusal(text, values);
      expect([what, refused.code, refused.message.startsWith('cross_mode_money:')]).toEqual([what, '23514', true]);
    }
  });
});

describe('the journal check reports money that crossed modes (cross_mode_money)', () => {
  /** A row planted around the triggers, and how to take it away again. */
  interface Plant {
    case: string;
    recordId: string;
    undo: () => Promise<unknown>;
  }

  async function plants(): Promise<Array<[string, () => Promise<Plant>]>> {
    const { h, sandbox, accountId } = setup;
    const { withdrawal, remainder, liveDeposit, liveTransferId, batchId } = await records();
    const item = async (withdrawalId: string | null, returnId: string | null): Promise<Plant> => {
      const [row] = await sql<{ id: string }>(
        `INSERT INTO payout_batch_items (id, batch_id, withdrawal_id, sender_return_id, reference, amount, creditor_iban, creditor_name, position)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, 100, 'TR330006100519786457841326', 'X', 1) RETURNING id`,
        [batchId, withdrawalId, returnId, `P${randomUUID().slice(0, 8)}`],
        true,
      );
      return { case: 'batch_item', recordId: row!.id, undo: () => sql('DELETE FROM payout_batch_items WHERE id = $1', [row!.id], true) };
    };
    // Real lines on the house's account: a debit, and a credit naming the sandbox withdrawal's reference.
    const sent = await approvedSandboxWithdrawal(3000);
    expect((await simulate(`/withdrawals/${sent.withdrawalId}/send`)).status).toBe(200);
    const returned = await approvedSandboxWithdrawal(3000);
    expect((await simulate(`/withdrawals/${returned.withdrawalId}/send`)).status).toBe(200);
    expect((await simulate(`/withdrawals/${returned.withdrawalId}/return`)).status).toBe(200);
    const debitTx = `D-${randomUUID()}`;
    const creditTx = `C-${randomUUID()}`;
    const line = { amount: '3000', currency: 'TRY', receivedAt: new Date().toISOString(), senderName: 'Ayşe Yılmaz' };
    const posted = await h.ops('POST', `/receiving-accounts/${accountId}/lines`, {
      lines: [
        { ...line, bankTxId: debitTx, direction: 'debit', senderIban: makeTrIban(424242), description: 'EFT' },
        { ...line, bankTxId: creditTx, direction: 'credit', senderIban: makeTrIban(424242), description: `IADE ${returned.referenceNo}` },
      ],
    });
    expect(posted.status).toBe(201);
    // Neither real line touched the sandbox's withdrawals.
    expect(await crossModeProblems(h)).toEqual([]);
    const [credit] = await sql<{ id: string }>('SELECT id FROM bank_transfers WHERE bank_tx_id = $1', [creditTx]);

    return [
      ['a batch item of a sandbox withdrawal', () => item(withdrawal.withdrawalId, null)],
      ['a batch item of a sandbox return', () => item(null, remainder.returnId)],
      [
        'a real transfer credited to a test deposit',
        async () => {
          await sql('UPDATE bank_transfers SET intent_id = $2 WHERE id = $1', [liveTransferId, remainder.intentId], true);
          return {
            case: 'transfer_credit',
            recordId: liveTransferId,
            undo: () => sql('UPDATE bank_transfers SET intent_id = $2 WHERE id = $1', [liveTransferId, liveDeposit.intentId], true),
          };
        },
      ],
      [
        'a sandbox withdrawal marked SENT by a real debit line',
        async () => {
          const [before] = await sql<{ sent_bank_tx_id: string }>('SELECT sent_bank_tx_id FROM withdrawals WHERE id = $1', [
            sent.withdrawalId,
          ]);
          await sql('UPDATE withdrawals SET sent_bank_tx_id = $2 WHERE id = $1', [sent.withdrawalId, debitTx], true);
          return {
            case: 'confirmed_by_live_line',
            recordId: sent.withdrawalId,
            undo: () =>
              sql('UPDATE withdrawals SET sent_bank_tx_id = $2 WHERE id = $1', [sent.withdrawalId, before!.sent_bank_tx_id], true),
          };
        },
      ],
      [
        'a sandbox withdrawal marked RETURNED by a real return credit',
        async () => {
          const [before] = await sql<{ status: string; unmatched_reason: string | null }>(
            'SELECT status::text, unmatched_reason FROM bank_transfers WHERE id = $1',
            [credit!.id],
          );
          await sql(`UPDATE bank_transfers SET status = 'PAYOUT_RETURNED' WHERE id = $1`, [credit!.id], true);
          return {
            case: 'confirmed_by_live_line',
            recordId: returned.withdrawalId,
            undo: () =>
              sql(`UPDATE bank_transfers SET status = $2::"BankTransferStatus" WHERE id = $1`, [credit!.id, before!.status], true),
          };
        },
      ],
      [
        'a return of another mode than its transfer',
        async () => {
          await sql('UPDATE sender_returns SET livemode = true WHERE id = $1', [remainder.returnId], true);
          return {
            case: 'sender_return',
            recordId: remainder.returnId,
            undo: () => sql('UPDATE sender_returns SET livemode = false WHERE id = $1', [remainder.returnId], true),
          };
        },
      ],
      [
        'a house posting of another mode than its return',
        async () => {
          const [leg] = await sql<{ id: string }>(
            `UPDATE house_journal_entries SET livemode = true
             WHERE id = (SELECT id FROM house_journal_entries WHERE entity_id = $1 LIMIT 1) RETURNING id`,
            [remainder.returnId],
            true,
          );
          return {
            case: 'house_posting',
            recordId: leg!.id,
            undo: () => sql('UPDATE house_journal_entries SET livemode = false WHERE id = $1', [leg!.id], true),
          };
        },
      ],
      [
        "a live site's journal posting about a test deposit",
        async () => {
          const [leg] = await sql<{ id: string }>(
            `UPDATE journal_entries SET site_id = $2
             WHERE id = (SELECT id FROM journal_entries WHERE entity_id = $1 LIMIT 1) RETURNING id`,
            [remainder.intentId, sandbox.live.siteId],
            true,
          );
          return {
            case: 'journal_posting',
            recordId: leg!.id,
            undo: () => sql('UPDATE journal_entries SET site_id = $2 WHERE id = $1', [leg!.id, sandbox.twin.siteId], true),
          };
        },
      ],
    ];
  }

  it('finds each kind of planted row, and nothing once it is gone', async () => {
    const { h } = setup;
    for (const [what, plant] of await plants()) {
      const planted = await plant();
      const found = await crossModeProblems(h);
      expect([what, found.filter((detail) => detail.case === planted.case).map((detail) => detail.recordId)]).toEqual([
        what,
        [planted.recordId],
      ]);
      await planted.undo();
      expect([what, await crossModeProblems(h)]).toEqual([what, []]);
    }
  });
});
