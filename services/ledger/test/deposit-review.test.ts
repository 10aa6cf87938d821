import { describe, expect, it } from '@jest/globals';
import { bankTransferBody } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { generateReferenceNo } from '../src/site-records/reference-no.js';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite() }));

const events = (entityId: string) => setup.h.ledger.deps.db.outboxEvent.findMany({ where: { entityId }, orderBy: { createdAt: 'asc' } });
const intent = async (intentId: string) => (await setup.h.ops('GET', `/intents/${intentId}`)).body;

describe('deposit flow', () => {
  it('moves an intent to PENDING_REVIEW when its transfer arrives and to APPROVED with intent.approved on approval', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 150000);
    const recorded = await h.transfer(created.referenceNo, 150000);
    expect(recorded.status).toBe(201);
    expect(recorded.body).toMatchObject({
      status: 'MATCHED',
      intentId: created.intentId,
      intent: { status: 'PENDING_REVIEW', receivedAmount: '150000' },
    });

    const approved = await h.ops('POST', `/intents/${created.intentId}/approve`, {});
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '150000', requestedAmount: '150000' });

    const [event, ...more] = await events(created.intentId);
    expect(more).toHaveLength(0);
    expect(event).toMatchObject({ type: 'intent.approved', siteId: site.siteId });
    const lookup = await h.internal('GET', `/sites/${site.siteId}/intents/${created.intentId}`);
    expect((event?.payload as { data: unknown }).data).toEqual(lookup.body);
  });

  it('approves an operator-entered amount: the event carries it as amount and requestedAmount is kept', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 200000);
    await h.transfer(created.referenceNo, 199000);
    const approved = await h.ops('POST', `/intents/${created.intentId}/approve`, { amount: '198500' });
    expect(approved.body).toMatchObject({ status: 'APPROVED', amount: '198500', requestedAmount: '200000', receivedAmount: '199000' });
    const [event] = await events(created.intentId);
    expect((event?.payload as { data: { amount: string } }).data.amount).toBe('198500');
    const list = await h.internal('GET', `/sites/${site.siteId}/intents?limit=100`);
    expect(list.body.data.find((item: { intentId: string }) => item.intentId === created.intentId)).toMatchObject({
      amount: '198500',
      requestedAmount: '200000',
    });
    const balance = await h.ops('GET', `/sites/${site.siteId}/balance`);
    expect(BigInt(balance.body.available)).toBeGreaterThanOrEqual(198500n);
  });

  it('defaults the approved amount to what arrived, not what was requested', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 100000);
    await h.transfer(created.referenceNo, 90000);
    const approved = await h.ops('POST', `/intents/${created.intentId}/approve`, {});
    expect(approved.body).toMatchObject({ amount: '90000', requestedAmount: '100000' });
  });

  it('rejects with a reason and emits intent.rejected carrying it', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 50000);
    await h.transfer(created.referenceNo, 50000);
    const rejected = await h.ops('POST', `/intents/${created.intentId}/reject`, { reason: 'Sender name does not match the user' });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectedReason: 'Sender name does not match the user' });
    expect(rejected.body.rejectedAt).not.toBeNull();
    const [event, ...more] = await events(created.intentId);
    expect(more).toHaveLength(0);
    expect(event?.type).toBe('intent.rejected');
    expect((event?.payload as { data: { rejectedReason: string; status: string } }).data).toMatchObject({
      status: 'REJECTED',
      rejectedReason: 'Sender name does not match the user',
    });
    const journal = await h.ledger.deps.journal.entriesOf('deposit_intent', created.intentId);
    expect(journal).toHaveLength(0);
  });

  it('requires a reason to reject', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 50000);
    await h.transfer(created.referenceNo, 50000);
    const missing = await h.ops('POST', `/intents/${created.intentId}/reject`, {});
    expect(missing.status).toBe(400);
    const blank = await h.ops('POST', `/intents/${created.intentId}/reject`, { reason: '   ' });
    expect(blank.status).toBe(400);
    expect((await intent(created.intentId)).status).toBe('PENDING_REVIEW');
  });

  it("keeps what the user is told apart from the partner's reason: stored, audited, shown to operators, never in the event", async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 50000);
    await h.transfer(created.referenceNo, 50000);
    const unknown = await h.ops('POST', `/intents/${created.intentId}/reject`, { reason: 'x', userReason: 'BECAUSE' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([{ field: 'userReason', message: expect.stringContaining('TRANSFER_NOT_RECEIVED') }]);
    expect((await intent(created.intentId)).status).toBe('PENDING_REVIEW');

    const rejected = await h.ops('POST', `/intents/${created.intentId}/reject`, { reason: 'Name mismatch', userReason: 'AMOUNT_MISMATCH' });
    expect(rejected.status).toBe(200);
    expect(await intent(created.intentId)).toMatchObject({
      status: 'REJECTED',
      rejectedReason: 'Name mismatch',
      rejectedUserReason: 'AMOUNT_MISMATCH',
    });
    const audit = await h.ledger.deps.db.auditLog.findFirst({ where: { entityId: created.intentId, action: 'INTENT.REJECTED' } });
    expect(audit?.metadata).toMatchObject({ reason: 'Name mismatch', userReason: 'AMOUNT_MISMATCH' });
    const [event] = await events(created.intentId);
    expect(JSON.stringify(event?.payload)).not.toContain('AMOUNT_MISMATCH');

    const plain = await h.createDeposit(site, 50000);
    await h.transfer(plain.referenceNo, 50000);
    await h.ops('POST', `/intents/${plain.intentId}/reject`, { reason: 'No' });
    expect((await intent(plain.intentId)).rejectedUserReason).toBeNull();
  });
});

describe('bank transfer matching', () => {
  it('finds the reference in lower case with spaces and dashes inside it', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 30000);
    const ref = created.referenceNo.toLowerCase();
    const mangled = `${ref.slice(0, 3)} ${ref.slice(3, 6)}-${ref.slice(6)}`;
    const recorded = await h.transfer('', 30000, { description: `para yatirma ${mangled} tesekkurler` });
    expect(recorded.body).toMatchObject({ status: 'MATCHED', intentId: created.intentId });
  });

  it('puts a transfer without a known reference in the unmatched queue, and an operator assigns it', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 40000);
    const recorded = await h.transfer('', 40000, { description: 'kira odemesi' });
    expect(recorded.body).toMatchObject({ status: 'UNMATCHED', intentId: null, unmatchedReason: 'no_reference' });
    const queue = await h.ops('GET', '/bank-transfers?status=UNMATCHED&limit=100');
    expect(queue.body.data.map((t: { bankTransferId: string }) => t.bankTransferId)).toContain(recorded.body.bankTransferId);

    const assigned = await h.ops('POST', `/bank-transfers/${recorded.body.bankTransferId}/assign`, { intentId: created.intentId });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({
      status: 'ASSIGNED',
      intentId: created.intentId,
      intent: { status: 'PENDING_REVIEW', receivedAmount: '40000' },
    });
    const again = await h.ops('POST', `/bank-transfers/${recorded.body.bankTransferId}/assign`, { intentId: created.intentId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict', reason: 'transfer_settled' });
    expect((await intent(created.intentId)).receivedAmount).toBe('40000');
  });

  it('marks a well-formed reference that names no intent as unknown_reference', async () => {
    const { h } = setup;
    const recorded = await h.transfer(generateReferenceNo('deposit'), 40000);
    expect(recorded.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'unknown_reference' });
  });

  it('ignores a reference with a wrong check character (a typo), so the transfer waits unmatched', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 40000);
    const last = created.referenceNo.slice(-1);
    const typo = created.referenceNo.slice(0, -1) + (last === 'A' ? 'B' : 'A');
    const recorded = await h.transfer(typo, 40000);
    expect(recorded.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'no_reference' });
    expect((await intent(created.intentId)).status).toBe('RESERVED');
  });

  it('refuses to guess when a description names two open intents', async () => {
    const { h, site } = setup;
    const one = await h.createDeposit(site, 40000);
    const two = await h.createDeposit(site, 40000);
    const recorded = await h.transfer('', 40000, { description: `${one.referenceNo} ${two.referenceNo}` });
    expect(recorded.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'ambiguous_reference' });
    expect((await intent(one.intentId)).status).toBe('RESERVED');
    expect((await intent(two.intentId)).status).toBe('RESERVED');
  });

  it('sends money for an already decided intent to the unmatched queue without touching the intent', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 25000);
    await h.transfer(created.referenceNo, 25000);
    await h.ops('POST', `/intents/${created.intentId}/approve`, {});
    const late = await h.transfer(created.referenceNo, 25000);
    expect(late.body).toMatchObject({ status: 'UNMATCHED', unmatchedReason: 'intent_closed', intentId: null });
    expect(await intent(created.intentId)).toMatchObject({ status: 'APPROVED', amount: '25000', receivedAmount: '25000' });
    const assign = await h.ops('POST', `/bank-transfers/${late.body.bankTransferId}/assign`, { intentId: created.intentId });
    expect(assign.status).toBe(409);
    expect(assign.body).toMatchObject({ error: 'conflict', reason: 'intent_decided' });
  });

  it('adds a second transfer to an intent under review', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 60000);
    await h.transfer(created.referenceNo, 30000);
    const second = await h.transfer(created.referenceNo, 30000);
    expect(second.body).toMatchObject({ status: 'MATCHED', intent: { status: 'PENDING_REVIEW', receivedAmount: '60000' } });
    const detail = await intent(created.intentId);
    expect(detail.bankTransfers).toHaveLength(2);
  });

  it('treats a repeated bankTxId as a no-op answering the first recording', async () => {
    const { h, site } = setup;
    const created = await h.createDeposit(site, 70000);
    const body = bankTransferBody(created.referenceNo, 70000, {
      bankTxId: `dup-${created.intentId}`,
      senderIban: 'TR33 0006 1005 1978 6457 8413 26',
    });
    const first = await h.ops('POST', '/bank-transfers', body);
    const second = await h.ops('POST', '/bank-transfers', body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.bankTransferId).toBe(first.body.bankTransferId);
    expect((await intent(created.intentId)).receivedAmount).toBe('70000');
    const different = await h.ops('POST', '/bank-transfers', { ...body, amount: '70001' });
    expect(different.status).toBe(409);
    expect(different.body).toMatchObject({ error: 'conflict', reason: 'bank_tx_id_reused' });
    expect((await intent(created.intentId)).receivedAmount).toBe('70000');
  });

  it('validates a transfer: amount digits, TR IBAN, timestamp not in the future', async () => {
    const { h } = setup;
    const bad = await h.transfer('', '12.50', { senderIban: 'TR00123', receivedAt: 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['amount', 'receivedAt', 'senderIban']);
    const future = await h.transfer('', 1000, { receivedAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.status).toBe(400);
  });
});
