import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startHarness, type Harness } from '../../gateway/test/harness.js';
import { partner } from '../../gateway/test/partner-client.js';
import { emitMany } from './emit-event.js';
import { WEBHOOK_BACKOFF } from '@kasa/queue';

let h: Harness;
beforeAll(async () => {
  // The relay's own loop stays idle here; each test drives one pass at a time.
  h = await startHarness({ OUTBOX_RELAY_INTERVAL_MS: '600000', OUTBOX_RELAY_GRACE_MS: '0', OUTBOX_RELAY_LOST_JOB_AFTER_MS: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

async function eventsAboutNewDeposit(count: number, publish: boolean) {
  const site = await h.createSite();
  const intentId = (await partner(h.gateway.url, site).createDeposit()).body.intentId as string;
  return emitMany(h.ledger, { siteId: site.siteId, type: 'intent.approved', entityId: intentId }, count, publish);
}

const jobOf = (jobId: string) => h.ledger.deps.webhookQueue.getJob(jobId);
const ageEnqueued = (ids: string[]) =>
  h.ledger.deps.db.outboxEvent.updateMany({ where: { id: { in: ids } }, data: { enqueuedAt: new Date(Date.now() - 60_000) } });

describe('outbox relay', () => {
  const deps = () => h.ledger.deps;
  it('publishes committed events with jobId = eventId and stamps them enqueued', async () => {
    const [payload] = await eventsAboutNewDeposit(1, true);
    const job = await jobOf(payload!.eventId);
    expect(job?.data).toEqual({ eventId: payload!.eventId });
    // The publisher names the worker's backoff and states no schedule of its own.
    expect(job?.opts.backoff).toEqual({ type: WEBHOOK_BACKOFF });
    expect((await deps().db.outboxEvent.findUniqueOrThrow({ where: { id: payload!.eventId } })).enqueuedAt).not.toBeNull();
  });

  it('enqueues events whose publish never happened (a crash between commit and enqueue)', async () => {
    const payloads = await eventsAboutNewDeposit(3, false);
    const ids = payloads.map((p) => p.eventId);
    for (const id of ids) expect(await jobOf(id)).toBeUndefined();

    const pass = await deps().outboxRelay.runOnce();
    expect(pass.enqueued).toBeGreaterThanOrEqual(3);
    for (const id of ids) expect(await jobOf(id)).toBeDefined();
    const rows = await deps().db.outboxEvent.findMany({ where: { id: { in: ids } } });
    expect(rows.every((row) => row.enqueuedAt !== null)).toBe(true);
    expect((await deps().outboxRelay.runOnce()).enqueued).toBe(0);
  });

  it('re-enqueues a PENDING event whose job Redis lost, and leaves finished events alone', async () => {
    const payloads = await eventsAboutNewDeposit(2, true);
    const [lost, delivered] = payloads.map((p) => p.eventId) as [string, string];
    await ageEnqueued([lost, delivered]);
    await deps().db.outboxEvent.update({ where: { id: delivered }, data: { status: 'DELIVERED', deliveredAt: new Date() } });
    await (await jobOf(lost))!.remove();
    await (await jobOf(delivered))!.remove();

    let requeued = 0;
    // The scan walks the PENDING backlog a batch per pass; two passes cover it from the start.
    for (let pass = 0; pass < 2 && !(await jobOf(lost)); pass += 1) requeued += (await deps().outboxRelay.runOnce()).requeued;
    expect(requeued).toBe(1);
    expect(await jobOf(lost)).toBeDefined();
    expect(await jobOf(delivered)).toBeUndefined();
  });

  it('re-enqueues a replayed event under its own cycle job id', async () => {
    const [payload] = await eventsAboutNewDeposit(1, true);
    const eventId = payload!.eventId;
    await deps().db.outboxEvent.update({ where: { id: eventId }, data: { status: 'DEAD', deadAt: new Date() } });
    const replayed = await h.ops('POST', `/ops/v1/events/${eventId}/replay`);
    expect(replayed.status).toBe(202);
    const job = await jobOf(`${eventId}-r1`);
    expect(job).toBeDefined();
    await job!.remove();
    await ageEnqueued([eventId]);
    for (let pass = 0; pass < 2 && !(await jobOf(`${eventId}-r1`)); pass += 1) await deps().outboxRelay.runOnce();
    expect(await jobOf(`${eventId}-r1`)).toBeDefined();
  });
});
