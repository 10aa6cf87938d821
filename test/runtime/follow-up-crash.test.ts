/**
 * What a commit promises survives a kill -9 right after it (docs/statements.md, "After the lines commit"): the
 * compiled ledger, as its container runs it, imports a statement whose lines pay deposits of a site with straight-
 * through approval on, or posts connector lines showing batched payouts leave the bank, and is killed with SIGKILL the
 * moment the lines' transaction is visible in PostgreSQL, before it finished the work that transaction promised. A new
 * ledger then finishes it: by the same file sent again (the docs' advice after a lost answer), or by its follow-up
 * worker alone. Each deposit is approved exactly once and each payout marked sent exactly once, with one event each,
 * and the journal check stays clean.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { expectStatus, makeTrIban, Scenario, type ScenarioSite } from '@kasa/testkit';
import {
  ensureBuilt,
  killLeftovers,
  migrate,
  productionEnvironment,
  startCompiled,
  waitFor,
  type ProductionEnvironment,
  type RunningService,
} from './support.js';

/** Deposits paid by one statement file, and payouts confirmed by one batch of connector lines. */
const DEPOSITS = 1_500;
const PAYOUTS = 300;
/** Parallel creates while setting up. */
const PARALLEL = 8;

let prod: ProductionEnvironment;
let ledger: RunningService;
let scenario: Scenario;
let db: pg.Client;
let site: ScenarioSite;
let account: { id: string; iban: string };

/** Starts the compiled ledger on the test's database; `graceMs`: how long its follow-up worker leaves fresh work to the request. */
async function startLedger(graceMs: number): Promise<void> {
  ledger = await startCompiled('ledger', { ...prod.env, FOLLOW_UP_GRACE_MS: String(graceMs), FOLLOW_UP_INTERVAL_MS: '200' });
}

/**
 * Sends `request` and kills the ledger with SIGKILL as soon as `committed` holds, polling PostgreSQL every few
 * milliseconds. An answer before that is the test's failure (the request was refused, or finished before the kill).
 */
async function killOnceCommitted(request: () => Promise<Response>, committed: () => Promise<boolean>): Promise<number> {
  let answered: string | null = null;
  const sent = request().then(
    async (response) => (answered = `${response.status} ${await response.text()}`),
    () => null,
  );
  await waitFor(
    'the lines committed',
    async () => {
      if (answered) throw new Error(`answered before the kill: ${answered.slice(0, 500)}`);
      return (await committed()) ? true : null;
    },
    120_000,
    3,
  );
  const at = Date.now();
  ledger.child.kill('SIGKILL');
  const exit = await ledger.exited;
  expect(exit.signal).toBe('SIGKILL');
  await sent;
  return at;
}

const count = async (sql: string, params: unknown[]) => Number((await db.query<{ n: string }>(sql, params)).rows[0]?.n ?? 0);

async function inParallel<T>(total: number, make: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < total) {
        const index = next++;
        results[index] = await make(index);
      }
    }),
  );
  return results;
}

const lira = (kurus: bigint) => `${kurus / 100n}.${String(kurus % 100n).padStart(2, '0')}`;

beforeAll(async () => {
  ensureBuilt();
  prod = productionEnvironment({}, 'kasa_fu');
  await migrate(prod.env);
  await startLedger(600_000);
  db = new pg.Client({ connectionString: prod.databaseUrl });
  await db.connect();
  scenario = new Scenario({
    ledgerUrl: () => ledger.url,
    opsToken: prod.env.OPS_BOOTSTRAP_TOKEN!,
    internalToken: prod.env.INTERNAL_TOKEN!,
  });
  site = await scenario.createSite();
  const rule = { autoApprove: { enabled: true, maxAmount: '100000000', requireSenderMatch: false } };
  expectStatus(await scenario.ops('PATCH', `/sites/${site.siteId}`, rule), 200, 'straight-through rule');
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  account = { id: ((await scenario.createReceivingAccount({ iban })).body as { id: string }).id, iban };
}, 120_000);

afterAll(async () => {
  killLeftovers();
  await db?.end();
  await prod?.cleanup();
});

describe('follow-up work after a kill -9 right after the commit', () => {
  it('a statement whose lines approve deposits straight through: the same file sent again finishes every approval, once', async () => {
    const amounts = Array.from({ length: DEPOSITS }, (_, i) => BigInt(10_000 + i));
    const deposits = await inParallel(DEPOSITS, (i) => scenario.createDeposit(site.siteId, amounts[i]!.toString()));
    const statementId = `FU-${randomUUID().slice(0, 8)}`;
    const now = new Date().toISOString();
    const total = amounts.reduce((sum, amount) => sum + amount, 0n);
    const csv = [
      'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id',
      `${account.iban},${statementId},${now},opening,0.00,TRY,,,,,`,
      ...deposits.map(
        (deposit, i) =>
          `${account.iban},${statementId},${now},credit,${lira(amounts[i]!)},TRY,${statementId}-${i},AYSE YILMAZ,TR290006400000112345678901,HAVALE ${deposit.referenceNo},`,
      ),
      `${account.iban},${statementId},${now},closing,${lira(total)},TRY,,,,,`,
    ].join('\n');
    const send = () =>
      fetch(`${ledger.url}/ops/v1/receiving-accounts/${account.id}/statements`, {
        method: 'POST',
        headers: { authorization: `Bearer ${prod.env.OPS_BOOTSTRAP_TOKEN}`, 'content-type': 'text/csv' },
        body: csv,
      });

    await killOnceCommitted(
      send,
      async () => (await count('SELECT count(*) AS n FROM bank_statements WHERE statement_ref = $1', [statementId])) === 1,
    );
    const ids = deposits.map((deposit) => deposit.intentId);
    const pendingAtKill = await count(`SELECT count(*) AS n FROM follow_ups WHERE kind = 'DEPOSIT_APPROVAL' AND status = 'PENDING'`, []);
    const approvedAtKill = await count(`SELECT count(*) AS n FROM deposit_intents WHERE id = ANY($1::uuid[]) AND status = 'APPROVED'`, [
      ids,
    ]);
    // Every line committed, with the promise of its approval; the kill came before the work was done.
    expect(await count('SELECT count(*) AS n FROM bank_transfers WHERE receiving_account_id = $1', [account.id])).toBe(DEPOSITS);
    expect(pendingAtKill).toBeGreaterThan(0);
    expect(approvedAtKill + pendingAtKill).toBe(DEPOSITS);

    // A new ledger whose worker leaves the work alone (its grace is long): the file sent again resumes it.
    await startLedger(600_000);
    const resentAt = performance.now();
    const again = await send();
    const resentMs = Math.round(performance.now() - resentAt);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ created: 0, duplicates: DEPOSITS, autoApproved: pendingAtKill });
    expect(await count(`SELECT count(*) AS n FROM deposit_intents WHERE id = ANY($1::uuid[]) AND status = 'APPROVED'`, [ids])).toBe(
      DEPOSITS,
    );
    expect(await count(`SELECT count(*) AS n FROM follow_ups WHERE status = 'PENDING'`, [])).toBe(0);
    // Exactly once: one intent.approved event and one approval audit entry per deposit.
    expect(
      await count(
        `SELECT count(DISTINCT entity_id) AS n FROM outbox_events WHERE type = 'intent.approved' AND entity_id = ANY($1::uuid[])`,
        [ids],
      ),
    ).toBe(DEPOSITS);
    expect(
      await count(`SELECT count(*) AS n FROM outbox_events WHERE type = 'intent.approved' AND entity_id = ANY($1::uuid[])`, [ids]),
    ).toBe(DEPOSITS);
    expect(await count(`SELECT count(*) AS n FROM audit_log WHERE action = 'INTENT.APPROVED' AND entity_id = ANY($1::text[])`, [ids])).toBe(
      DEPOSITS,
    );
    expect((await scenario.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
    // A third sending finds nothing left to do.
    expect(await (await send()).json()).toMatchObject({ created: 0, autoApproved: 0 });
    process.stdout.write(
      `follow-up crash (statement): ${DEPOSITS} lines, ${approvedAtKill} approved before the kill, ${pendingAtKill} pending, ${pendingAtKill} finished by the re-sent file (answered in ${resentMs} ms)\n`,
    );
  }, 240_000);

  it('connector lines showing batched payouts leave: the follow-up worker alone marks every one SENT, once', async () => {
    await startLedger(500);
    const amount = 20_000;
    await scenario.fund(site.siteId, amount * PAYOUTS);
    const withdrawals = await inParallel(PAYOUTS, async () => {
      const created = await scenario.createWithdrawal(site.siteId, amount);
      expectStatus(await scenario.ops('POST', `/withdrawals/${created.withdrawalId}/approve`, {}), 200, 'approve withdrawal');
      return created;
    });
    const ids = withdrawals.map((withdrawal) => withdrawal.withdrawalId);
    const batch = expectStatus(await scenario.ops('POST', '/payout-batches', { withdrawalIds: ids, accountId: account.id }), 201, 'batch');
    expect(batch.body).toMatchObject({ count: PAYOUTS });
    const targets = new Map(
      (await inParallel(PAYOUTS, async (i) => (await scenario.ops('GET', `/withdrawals/${ids[i]}`)).body as Record<string, string>)).map(
        (w) => [w.withdrawalId!, w],
      ),
    );
    const tag = randomUUID().slice(0, 8);
    const lines = ids.map((id, i) => ({
      bankTxId: `PAY-${tag}-${i}`,
      direction: 'debit',
      amount: String(amount),
      receivedAt: new Date().toISOString(),
      description: `EFT ${targets.get(id)!.referenceNo}`,
      senderName: 'AYSE YILMAZ',
      senderIban: targets.get(id)!.targetIban,
    }));

    const post = () =>
      fetch(`${ledger.url}/ops/v1/receiving-accounts/${account.id}/lines`, {
        method: 'POST',
        headers: { authorization: `Bearer ${prod.env.OPS_BOOTSTRAP_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ lines }),
      });
    await killOnceCommitted(
      post,
      async () =>
        (await count('SELECT count(*) AS n FROM bank_statement_debits WHERE receiving_account_id = $1', [account.id])) === PAYOUTS,
    );
    const pendingAtKill = await count(`SELECT count(*) AS n FROM follow_ups WHERE kind = 'WITHDRAWAL_SENT' AND status = 'PENDING'`, []);
    const sentAtKill = await count(`SELECT count(*) AS n FROM withdrawals WHERE id = ANY($1::uuid[]) AND status = 'SENT'`, [ids]);
    expect(pendingAtKill).toBeGreaterThan(0);
    expect(sentAtKill + pendingAtKill).toBe(PAYOUTS);

    // Nobody sends anything again: the new ledger's worker finds the pending work and does it.
    const restartedAt = Date.now();
    await startLedger(500);
    await waitFor(
      'every payout SENT',
      async () =>
        (await count(`SELECT count(*) AS n FROM withdrawals WHERE id = ANY($1::uuid[]) AND status = 'SENT'`, [ids])) === PAYOUTS || null,
      30_000,
      100,
    );
    const finishedMs = Date.now() - restartedAt;
    expect(await count(`SELECT count(*) AS n FROM follow_ups WHERE status = 'PENDING'`, [])).toBe(0);
    expect(
      await count(`SELECT count(*) AS n FROM outbox_events WHERE type = 'withdrawal.sent' AND entity_id = ANY($1::uuid[])`, [ids]),
    ).toBe(PAYOUTS);
    expect(await count(`SELECT count(*) AS n FROM audit_log WHERE action = 'WITHDRAWAL.SENT' AND entity_id = ANY($1::text[])`, [ids])).toBe(
      PAYOUTS,
    );
    expect((await scenario.ops('GET', '/journal/check')).body).toMatchObject({ ok: true, problems: [] });
    process.stdout.write(
      `follow-up crash (connector): ${PAYOUTS} debit lines, ${sentAtKill} sent before the kill, ${pendingAtKill} pending, all finished by the worker ${finishedMs} ms after the restart began\n`,
    );
  }, 240_000);
});
