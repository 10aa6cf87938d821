/**
 * The failover drill with the short budget (test/drill/budgets.ts; `npm run drill` runs the full one): partner
 * and operator traffic at about 100 requests a second while the gateway, the ledger and the webhook worker are
 * killed -9 and restarted, the PostgreSQL primary is killed -9 and its synchronous standby promoted, and the
 * Redis master of the queues' slot is killed -9 and replaced by its replica. Per fault: no acknowledged write
 * lost, no duplicate beyond at-least-once (two records for one Idempotency-Key, a deposit credited twice, an
 * event minted twice), every recorded event delivered, and the failure windows within their targets.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SHORT_BUDGET } from './budgets.js';
import { WINDOW_TARGET_MS } from './report.js';
import { cleanupDrill, FAULTS, runDrill, type DrillResult } from './run-drill.js';

let result: DrillResult;

beforeAll(async () => {
  result = await runDrill({ ...SHORT_BUDGET, log: (line) => process.stdout.write(`[drill] ${line}\n`) });
  process.stdout.write(`\n${result.table}\n\n`);
}, 170_000);

afterAll(async () => {
  await cleanupDrill();
}, 60_000);

const row = (fault: (typeof FAULTS)[number]) => {
  const found = result.rows.find((candidate) => candidate.fault === fault);
  if (!found) throw new Error(`no row for ${fault}`);
  return found;
};

describe('the failover drill', () => {
  it('ran every fault under traffic and checked acknowledged writes in each', () => {
    expect(result.rows.map((candidate) => candidate.fault)).toEqual(FAULTS);
    for (const fault of FAULTS) expect(row(fault).acknowledged).toBeGreaterThan(0);
    expect(result.notReady).toEqual([]);
    expect(result.crashes).toEqual([]);
  });

  it.each(FAULTS)('loses no acknowledged write when the %s is killed', (fault) => {
    const lost = result.verification.lost.filter((finding) => finding.phase === fault);
    expect(lost).toEqual([]);
  });

  it.each(FAULTS)('makes no duplicate beyond at-least-once when the %s is killed', (fault) => {
    const duplicates = result.verification.duplicates.filter((finding) => finding.phase === fault);
    expect(duplicates).toEqual([]);
  });

  it('delivers every event the ledger recorded, and none it has no record of', () => {
    // Grouped by where they stopped (outbox row and queue job), so a failure says why as well as how many.
    expect(result.verification.events.undeliveredWhy).toEqual([]);
    expect(result.verification.events.undelivered).toEqual([]);
    expect(result.verification.events.unknown).toBe(0);
    expect(result.verification.events.delivered).toBe(result.verification.events.recorded);
  });

  it('keeps the PostgreSQL failover window within 30 s', () => {
    expect(row('postgres').windowMs).toBeLessThanOrEqual(WINDOW_TARGET_MS.postgres!);
  });

  it('keeps the Redis Cluster failover window within 10 s', () => {
    expect(row('redis').windowMs).toBeLessThanOrEqual(WINDOW_TARGET_MS.redis!);
  });
});
