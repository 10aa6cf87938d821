/**
 * Risk flags with two ledgers on one database (docs/compliance.md, Risk flags and reports): both risk workers drain
 * the same backlog at the same moment, more than one page of it; each line is evaluated by one of them only, each
 * subject is flagged once per rule with one RISK.FLAGGED entry, and nothing is left to evaluate.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startLedger, type LedgerService } from '../src/index.js';
import { RiskWorker } from '../src/risk/risk.worker.js';
import { startLedgerHarness, type LedgerHarness, type TestSite } from './harness.js';

let h: LedgerHarness;
let second: LedgerService;
let site: TestSite;

beforeAll(async () => {
  // Neither ledger's own timer fires during the test: the test runs both passes itself, at the same moment.
  h = await startLedgerHarness({ RISK_INTERVAL_MS: '600000' });
  second = await startLedger(h.env.config, 0);
  site = await h.createSite();
});
afterAll(async () => {
  await second?.stop();
  await h?.stop();
});

/** A deposit of its own user, labelled `label`, paid by a line from `senderName`. */
async function paid(index: number, label: string, senderName: string) {
  const deposit = await h.createDeposit(site, 10_000 + index, { externalUserId: `two-ledgers-${index}`, externalUserLabel: label });
  const line = await h.transfer(deposit.referenceNo, 10_000 + index, { senderName });
  expect(line.status).toBe(201);
  return { intentId: deposit.intentId, bankTransferId: line.body.bankTransferId as string };
}

describe('two ledgers', () => {
  it('evaluate each line once between them and flag each subject once, over more than one page', async () => {
    // 230 deposits whose sender is not their user (one name_mismatch each) and 20 clean ones: 250 lines, more than a
    // page (200), so both workers find work waiting while the other holds its page.
    const mismatched: Array<{ intentId: string; bankTransferId: string }> = [];
    const clean: Array<{ intentId: string; bankTransferId: string }> = [];
    for (let start = 0; start < 250; start += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, i) => start + i).map((index) =>
          index < 230 ? paid(index, 'Ayşe Yılmaz', 'Mehmet Demir') : paid(index, 'Ayşe Yılmaz', 'AYSE YILMAZ'),
        ),
      );
      for (const [i, created] of batch.entries()) (start + i < 230 ? mismatched : clean).push(created);
    }
    const db = h.ledger.deps.db;
    const lineIds = [...mismatched, ...clean].map((line) => line.bankTransferId);
    expect(await db.bankTransfer.count({ where: { id: { in: lineIds }, riskCheckedAt: null } })).toBe(250);

    const [first, other] = await Promise.all([
      new RiskWorker(h.ledger.deps, 600_000).runOnce(),
      new RiskWorker(second.deps, 600_000).runOnce(),
    ]);
    // Every line taken once: a line evaluated by both would be counted twice.
    expect(first.lines + other.lines).toBe(250);
    expect(first.flagged + other.flagged).toBe(230);
    expect(await db.bankTransfer.count({ where: { id: { in: lineIds }, riskCheckedAt: null } })).toBe(0);

    const flags = await db.riskFlag.findMany({ where: { siteId: site.siteId } });
    expect(flags).toHaveLength(230);
    expect(flags.every((flag) => flag.rule === 'name_mismatch' && flag.subjectType === 'deposit')).toBe(true);
    expect(new Set(flags.map((flag) => flag.subjectId))).toEqual(new Set(mismatched.map((line) => line.intentId)));
    const entries = await db.auditLog.findMany({ where: { action: 'RISK.FLAGGED', entityId: { in: flags.map((flag) => flag.id) } } });
    expect(entries).toHaveLength(230);

    // Both again: nothing waits, nothing more is flagged.
    const again = await Promise.all([new RiskWorker(h.ledger.deps, 600_000).runOnce(), new RiskWorker(second.deps, 600_000).runOnce()]);
    expect(again).toEqual([
      { lines: 0, flagged: 0 },
      { lines: 0, flagged: 0 },
    ]);
    expect(await db.riskFlag.count({ where: { siteId: site.siteId } })).toBe(230);
  });
});
