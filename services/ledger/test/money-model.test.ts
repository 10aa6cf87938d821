/**
 * A seeded model-based test of the money paths: fast-check generates sequences of steps (money-model/steps.ts) that
 * a real ledger (PostgreSQL, Redis, HTTP) is driven through over one live site and its sandbox twin, two receiving
 * accounts, three operators and the bootstrap token: deposits paid by hand entries (with and without their account),
 * the bank connector's lines and statement files (repeated, overlapping, with references the bank gave two lines),
 * the sandbox's simulator, approvals in full and in part, bulk approvals, returns to senders, four-eyes, payout
 * batches and the lines that pay or bring back their payouts (and decoys), some steps at the same moment. After every
 * run the invariants (money-model/invariants.ts) are read from the database and the journal check.
 *
 * Budget: NUM_RUNS runs of up to MAX_STEPS steps, stopped after TIME_LIMIT_MS (shrinking included).
 * MONEY_MODEL_SEED replays a seed (and MONEY_MODEL_PATH a counterexample's path, as fast-check prints them);
 * otherwise the seed is random and printed.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import fc from 'fast-check';
import pg from 'pg';
import { makeTrIban } from '@kasa/testkit';
import { startLedgerHarness, type LedgerHarness } from './harness.js';
import { checkInvariants, journalProblems } from './money-model/invariants.js';
import { perform, startRun, type World } from './money-model/perform.js';
import { countSteps, stepsArbitrary, type Step } from './money-model/steps.js';

const NUM_RUNS = 15;
const MAX_STEPS = 30;
const TIME_LIMIT_MS = 35_000;
/** Above 1.000,00 TL a payout needs two operators. */
const FOUR_EYES_ABOVE = 100_000n;

const SEED = process.env.MONEY_MODEL_SEED ? Number(process.env.MONEY_MODEL_SEED) : Math.floor(Math.random() * 2 ** 31);
const PATH = process.env.MONEY_MODEL_PATH;

let h: LedgerHarness;
let world: World;
beforeAll(async () => {
  h = await startLedgerHarness({ DUAL_APPROVAL_ABOVE_KURUS: FOUR_EYES_ABOVE.toString() });
  const second = await h.ops('POST', '/receiving-accounts', {
    bankName: 'Garanti BBVA',
    holderName: 'Kasa Ödeme A.Ş.',
    iban: makeTrIban(424_242_424),
  });
  expect(second.status).toBe(201);
  const accounts = (await h.ops('GET', '/receiving-accounts')).body.data as Array<{ id: string; iban: string }>;
  const [rev1, rev2, admin] = await Promise.all([h.createOperator('REVIEWER'), h.createOperator('REVIEWER'), h.createOperator('ADMIN')]);
  world = {
    h,
    db: new pg.Pool({ connectionString: h.env.databaseUrl, max: 4 }),
    accounts: accounts.map(({ id, iban }) => ({ id, iban })),
    tokens: { rev1: rev1!.token, rev2: rev2!.token, admin: admin!.token, bootstrap: h.env.config.opsBootstrapToken },
    fourEyesAbove: FOUR_EYES_ABOVE,
  };
});
afterAll(async () => {
  await world?.db.end();
  await h?.stop();
});

it('keeps every invariant of the money paths over generated runs', async () => {
  let runs = 0;
  let steps = 0;
  const property = fc.asyncProperty(stepsArbitrary(MAX_STEPS), async (generated: Step[]) => {
    runs += 1;
    steps += countSteps(generated);
    const journalBefore = new Set(await journalProblems(world));
    const run = await startRun(world, `M${runs.toString(36).padStart(3, '0')}${Math.random().toString(36).slice(2, 6)}`);
    for (const step of generated) await perform(run, step);
    const found = Object.entries(await checkInvariants(run, journalBefore)).filter(([, problems]) => problems.length > 0);
    if (found.length > 0) {
      throw new Error(found.map(([name, problems]) => `${name}:\n  ${problems.slice(0, 8).join('\n  ')}`).join('\n'));
    }
  });
  const details = await fc.check(property, {
    seed: SEED,
    numRuns: NUM_RUNS,
    ...(PATH ? { path: PATH } : {}),
    includeErrorInReport: true,
    plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)],
  });
  console.log(
    `money model: ${details.numRuns} runs, ${steps} steps in ${runs} executions (shrinking included), seed ${details.seed}` +
      `${details.interrupted ? ', stopped at the time limit' : ''}${details.failed ? `, FAILED at path ${details.counterexamplePath}` : ''}` +
      ` (replay: MONEY_MODEL_SEED=${details.seed}${details.failed ? ` MONEY_MODEL_PATH=${details.counterexamplePath}` : ''})`,
  );
  if (details.failed) throw new Error(fc.defaultReportMessage(details));
}, 90_000);
