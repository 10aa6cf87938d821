import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { eventually } from '@kasa/testkit';
import { useConsoleBrowser } from './browser-fixture.js';

const setup = useConsoleBrowser({ loggedInAs: 'admin' });

const depositOf = async (intentId: string) => (await setup.h.ops('GET', `/intents/${intentId}`)).body;
const withdrawalOf = async (withdrawalId: string) => (await setup.h.ops('GET', `/withdrawals/${withdrawalId}`)).body;

async function pendingDeposit(amount: number, received = amount, extra: Record<string, string> = {}) {
  const intent = await setup.h.createDeposit(setup.site, amount, extra);
  expect((await setup.h.transfer(intent.referenceNo, received)).status).toBe(201);
  return intent;
}

describe('review queue', () => {
  it('shows a deposit a bank transfer moved to PENDING_REVIEW, and approving it in the browser makes it APPROVED', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(150000);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await expect(row.textContent()).resolves.toContain(intent.referenceNo);
    await expect(row.textContent()).resolves.toContain('1.500,00 ₺');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/review?notice=intent-approved');
    await expect(page.locator('.notice').textContent()).resolves.toContain('Deposit approved');
    await expect(page.locator(`tr[data-id="${intent.intentId}"]`).count()).resolves.toBe(0);
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'APPROVED', amount: '150000' });
  });

  it('approves an operator-entered amount in lira as kurus', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(200000, 199000);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.getByLabel('Approved amount in lira (TRY)').fill('1985,00');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/review?notice=intent-approved');
    expect(await depositOf(intent.intentId)).toMatchObject({
      status: 'APPROVED',
      amount: '198500',
      receivedAmount: '199000',
      requestedAmount: '200000',
    });
  });

  it('returns the rest to the sender by default when less than arrived is approved', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(45000, 60000);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.getByLabel('Approved amount in lira (TRY)').fill('450');
    await expect(row.getByLabel(/what happens to the rest/).inputValue()).resolves.toBe('return');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/review?notice=intent-approved');
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'APPROVED', amount: '45000' });
    const returns = await setup.h.ledger.deps.db.senderReturn.findMany({ where: { intentId: intent.intentId } });
    expect(returns.map((r) => [r.status, r.amount])).toEqual([['PENDING_REVIEW', 15000n]]);
  });

  it('sets the rest aside with the reason typed, and asks for a reason when none is given', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(50000, 60000);
    await page.goto('/review');
    let row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.getByLabel('Approved amount in lira (TRY)').fill('500');
    await row.getByLabel(/what happens to the rest/).selectOption('set_aside');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.waitForLoadState();
    await expect(page.locator('main').textContent()).resolves.toContain('remainder.reason');
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'PENDING_REVIEW' });

    await page.goto('/review');
    row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.getByLabel('Approved amount in lira (TRY)').fill('500');
    await row.getByLabel(/what happens to the rest/).selectOption('set_aside');
    await row.getByLabel('Why the rest is set aside').fill('fee agreed with the site');
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/review?notice=intent-approved');
    const kept = await setup.h.ledger.deps.db.deposit.findUniqueOrThrow({ where: { id: intent.intentId } });
    expect(kept).toMatchObject({
      status: 'APPROVED',
      amount: 50000n,
      remainderSetAside: 10000n,
      remainderSetAsideReason: 'fee agreed with the site',
    });
  });

  it('rejects a deposit with the reason the operator typed and what the user is told', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(50000);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.getByPlaceholder('Reason for rejecting').fill('Sender name does not match the user');
    await row.getByLabel("What the user's deposit page says").selectOption('SENDER_NOT_ACCOUNT_HOLDER');
    await row.getByRole('button', { name: 'Reject' }).click();
    await page.waitForURL('**/review?notice=intent-rejected');
    expect(await depositOf(intent.intentId)).toMatchObject({
      status: 'REJECTED',
      rejectedReason: 'Sender name does not match the user',
      rejectedUserReason: 'SENDER_NOT_ACCOUNT_HOLDER',
    });
    await page.goto(`/intents/${intent.intentId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('sender not account holder');
  });

  it('shows "someone else already acted" when the deposit was decided after the page loaded', async () => {
    const { h, page } = setup;
    const intent = await pendingDeposit(60000);
    await page.goto('/review');
    expect((await h.ops('POST', `/intents/${intent.intentId}/approve`, {})).status).toBe(200);
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await row.getByPlaceholder('Reason for rejecting').fill('Duplicate');
    await row.getByRole('button', { name: 'Reject' }).click();
    await expect(page.locator('section.error h2').textContent()).resolves.toBe('Someone else already acted on this record.');
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'APPROVED' });
  });

  it('escapes what partners and senders typed instead of running it', async () => {
    const { page } = setup;
    const label = '<img src=x onerror="document.title=1">';
    const intent = await pendingDeposit(70000, 70000, { externalUserLabel: label });
    await page.goto('/review');
    const cell = page.locator(`tr[data-id="${intent.intentId}"] td`).nth(3);
    await expect(cell.textContent()).resolves.toBe(label);
    await expect(page.locator(`tr[data-id="${intent.intentId}"] img`).count()).resolves.toBe(0);
  });
});

describe('withdrawals', () => {
  it('approves, shows the full IBAN only on the detail page, and marks the withdrawal sent with the bank tx id', async () => {
    const { h, page, site } = setup;
    await h.fund(site, 500000);
    const created = await h.createWithdrawal(site, 120000);
    const { targetIban } = await withdrawalOf(created.withdrawalId);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${created.withdrawalId}"]`);
    expect(await row.textContent()).not.toContain(targetIban.slice(4, 20));
    await row.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL('**/review?notice=withdrawal-approved');
    expect(await withdrawalOf(created.withdrawalId)).toMatchObject({ status: 'APPROVED' });

    await page.goto(`/withdrawals/${created.withdrawalId}`);
    await expect(page.locator('code.iban').getAttribute('data-copy')).resolves.toBe(targetIban);
    await page.getByLabel('Bank transaction id (optional)').fill('EFT-2026-000123');
    await page.getByRole('button', { name: 'Mark sent' }).click();
    await page.waitForURL(`**/withdrawals/${created.withdrawalId}?notice=withdrawal-sent`);
    expect(await withdrawalOf(created.withdrawalId)).toMatchObject({ status: 'SENT', sentBankTxId: 'EFT-2026-000123' });
    await expect(page.getByRole('button', { name: 'Mark returned' }).count()).resolves.toBe(1);
  });
});

describe('deliveries', () => {
  it('replays a DEAD event from the Deliveries page and the ledger records the replay', async () => {
    const { h, page, site, admin } = setup;
    const intent = await h.createDeposit(site, 80000);
    const record = (await h.ops('GET', `/intents/${intent.intentId}`)).body;
    const eventId = randomUUID();
    const createdAt = new Date();
    // A DEAD event as the worker leaves it after its last failed attempt.
    await h.ledger.deps.db.outboxEvent.create({
      data: {
        id: eventId,
        siteId: site.siteId,
        type: 'intent.approved',
        entityId: intent.intentId,
        payload: { eventId, type: 'intent.approved', createdAt: createdAt.toISOString(), data: record },
        status: 'DEAD',
        enqueuedAt: createdAt,
        attemptCount: 2,
        lastAttemptAt: createdAt,
        deadAt: createdAt,
        createdAt,
        attempts: {
          create: [1, 2].map((attemptNo) => ({
            attemptNo,
            url: 'https://partner.example/hook',
            startedAt: createdAt,
            durationMs: 120,
            statusCode: 503,
            responseBody: 'upstream down',
          })),
        },
      },
    });
    await page.goto('/deliveries?status=DEAD');
    const row = page.locator(`tr[data-id="${eventId}"]`);
    await expect(row.getAttribute('class')).resolves.toBe('dead');
    // Events are named by their type (the full id is the link's title).
    await row.getByRole('link', { name: 'intent.approved' }).click();
    await page.waitForURL(`**/deliveries/${eventId}`);
    await expect(page.locator('tr.failed').count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.waitForURL(`**/deliveries/${eventId}?notice=event-replayed`);
    const event = await eventually(
      async () => {
        const found = await h.ledger.deps.db.outboxEvent.findUniqueOrThrow({ where: { id: eventId } });
        return found.status === 'PENDING' ? found : null;
      },
      5000,
      'event back to PENDING',
    );
    expect(event.deadAt).toBeNull();
    const audit = await h.ops('GET', `/audit?entityId=${eventId}&action=EVENT.REPLAYED`);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ actor: { id: admin.operatorId, email: admin.email }, metadata: { previousStatus: 'DEAD' } });
  });
});

describe('unmatched transfers', () => {
  it('assigns a transfer without a usable reference to the deposit the operator names', async () => {
    const { h, page, site } = setup;
    const intent = await h.createDeposit(site, 75000);
    const recorded = await h.transfer('NOREF', 75000);
    expect(recorded.body).toMatchObject({ status: 'UNMATCHED' });
    await page.goto('/bank-transfers');
    const row = page.locator(`tr[data-id="${recorded.body.bankTransferId}"]`);
    await row.getByLabel('Deposit reference or intent id').fill(intent.intentId);
    await row.getByRole('button', { name: 'Assign' }).click();
    await page.waitForURL(`**/intents/${intent.intentId}?notice=transfer-assigned`);
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '75000' });
    await expect(page.locator('table.list').textContent()).resolves.toContain(recorded.body.bankTxId);
  });

  it('assigns by the reference the operator types (any case, with spaces), and explains an unknown one', async () => {
    const { h, page, site } = setup;
    const intent = await h.createDeposit(site, 82000);
    const recorded = await h.transfer('NO REFERENCE GIVEN', 82000);
    await page.goto('/bank-transfers');
    const row = page.locator(`tr[data-id="${recorded.body.bankTransferId}"]`);
    await row.getByLabel('Deposit reference or intent id').fill('KDZZZZZZZZ');
    await row.getByRole('button', { name: 'Assign' }).click();
    await expect(page.locator('body').textContent()).resolves.toContain('matches no deposit');
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'RESERVED' });
    await page.goto('/bank-transfers');
    const typed = `${intent.referenceNo.slice(0, 5).toLowerCase()} ${intent.referenceNo.slice(5)}`;
    await page.locator(`tr[data-id="${recorded.body.bankTransferId}"]`).getByLabel('Deposit reference or intent id').fill(typed);
    await page.locator(`tr[data-id="${recorded.body.bankTransferId}"]`).getByRole('button', { name: 'Assign' }).click();
    await page.waitForURL(`**/intents/${intent.intentId}?notice=transfer-assigned`);
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'PENDING_REVIEW', receivedAmount: '82000' });
  });
});

describe('assigning to a decided deposit', () => {
  it('tells the operator to set the transfer aside or return it, instead of "someone else already acted"', async () => {
    const { h, page } = setup;
    const intent = await pendingDeposit(64000);
    expect((await h.ops('POST', `/intents/${intent.intentId}/approve`, {})).status).toBe(200);
    const recorded = await h.transfer('NOREF', 64000);
    expect(recorded.body).toMatchObject({ status: 'UNMATCHED' });
    await page.goto('/bank-transfers');
    const row = page.locator(`tr[data-id="${recorded.body.bankTransferId}"]`);
    await row.getByLabel('Deposit reference or intent id').fill(intent.intentId);
    await row.getByRole('button', { name: 'Assign' }).click();
    await expect(page.locator('section.error h2').textContent()).resolves.toBe(
      'This deposit was already approved or rejected; set the transfer aside or return it to the sender.',
    );
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'APPROVED', receivedAmount: '64000' });
  });
});

describe('navigation', () => {
  it('renders every section without browser errors (nothing blocked by the CSP)', async () => {
    const { page, site } = setup;
    const errors: string[] = [];
    const onConsole = (message: { type(): string; text(): string }) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    page.on('console', onConsole);
    for (const path of [
      '/',
      '/review',
      '/deposits',
      '/deposits?status=PENDING_REVIEW&order=oldest&min=10&max=5000&from=2026-01-01',
      '/search?q=nothing-matches-this',
      '/search',
      '/withdrawals',
      '/withdrawals?status=PENDING_REVIEW&min=1',
      '/bank-transfers',
      '/deliveries',
      '/sites',
      `/sites/${site.siteId}`,
      '/balances',
      '/audit',
    ]) {
      const response = await page.goto(path);
      expect([path, response?.status()]).toEqual([path, 200]);
    }
    page.off('console', onConsole);
    expect(errors).toEqual([]);
  });

  it('pages through a long list with the ledger cursor, keeping the filters', async () => {
    const { h, page, site } = setup;
    const createdAt = Date.now();
    await h.ledger.deps.db.outboxEvent.createMany({
      data: Array.from({ length: 53 }, (_, i) => ({
        siteId: site.siteId,
        type: 'withdrawal.returned',
        entityId: randomUUID(),
        payload: {},
        status: 'DELIVERED' as const,
        createdAt: new Date(createdAt - i * 1000),
      })),
    });
    await page.goto('/deliveries?type=withdrawal.returned');
    await expect(page.locator('section.events tr[data-id]').count()).resolves.toBe(50);
    await page.getByRole('link', { name: 'Next page →' }).click();
    await page.waitForURL(/cursor=/);
    expect(new URL(page.url()).searchParams.get('type')).toBe('withdrawal.returned');
    await expect(page.locator('section.events tr[data-id]').count()).resolves.toBe(3);
    await expect(page.locator('.pager').textContent()).resolves.toBe('End of list.');
  });
});

describe('layout', () => {
  it('renders a usable review queue (full-page screenshot)', async () => {
    const { h, page, site } = setup;
    await pendingDeposit(250050, 250000, { externalUserLabel: 'Mehmet Demir' });
    await pendingDeposit(99900);
    await h.fund(site, 300000);
    await h.createWithdrawal(site, 45000);
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto('/review');
    await page.screenshot({ path: '/tmp/kasa-console-review.png', fullPage: true });
    await expect(page.locator('h2').first().textContent()).resolves.toBe('Deposits awaiting review');
  });
});

describe('partial and late money', () => {
  it('shows a short deposit as short, waits for the rest in its own section, and brings it back when the rest arrives', async () => {
    const { page } = setup;
    const intent = await pendingDeposit(100000, 60000);
    await page.goto('/review');
    const row = page.locator(`tr[data-id="${intent.intentId}"]`);
    await expect(row.textContent()).resolves.toContain('400,00 ₺ short');
    await row.getByRole('button', { name: 'Wait for the rest' }).click();
    await page.waitForURL('**/review?notice=intent-waiting');
    const waiting = page.locator(`#waiting tr[data-id="${intent.intentId}"]`);
    await expect(waiting.count()).resolves.toBe(1);
    // Out of the queue proper, and no second "Wait" offered.
    await expect(page.locator(`tr[data-id="${intent.intentId}"]`).count()).resolves.toBe(1);
    await expect(waiting.getByRole('button', { name: 'Wait for the rest' }).count()).resolves.toBe(0);
    expect((await depositOf(intent.intentId)).waitingForRestSince).not.toBeNull();

    expect((await setup.h.transfer(intent.referenceNo, 40000)).status).toBe(201);
    await page.goto('/review');
    await expect(page.locator(`#waiting tr[data-id="${intent.intentId}"]`).count()).resolves.toBe(0);
    await expect(page.locator(`tr[data-id="${intent.intentId}"]`).textContent()).resolves.not.toContain('short');
  });

  it('offers money for an approved deposit as a top-up and credits it in one click', async () => {
    const { page, h } = setup;
    // A top-up is announced by intent.topped_up, which the site must have chosen (docs/webhooks.md).
    await h.ledger.deps.db.site.update({ where: { id: setup.site.siteId }, data: { webhookEventTypes: ['intent.topped_up'] } });
    const intent = await pendingDeposit(100000, 100000);
    expect((await h.ops('POST', `/intents/${intent.intentId}/approve`, {})).status).toBe(200);
    const late = await h.transfer(intent.referenceNo, 25000);
    expect(late.body.unmatchedReason).toBe('intent_closed');
    await page.goto(`/bank-transfers/${late.body.bankTransferId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('Its deposit was approved already');
    await page.getByRole('button', { name: `Credit 250,00 ₺ to ${intent.referenceNo} as a top-up` }).click();
    await page.waitForURL(`**/intents/${intent.intentId}?notice=transfer-topped-up`);
    expect(await depositOf(intent.intentId)).toMatchObject({ status: 'APPROVED', amount: '125000', receivedAmount: '125000' });
  });
});
