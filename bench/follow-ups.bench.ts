/**
 * Follow-up work benchmark (docs/statements.md, "After the lines commit"): how fast the work a batch of bank lines
 * promises is carried out once the lines commit, set-based, against the old way of one transaction per record, over
 * the compiled ledger (`node services/ledger/dist/main.js`, NODE_ENV=production) on a fresh database. Data is made
 * through the ledger's internal API (as the gateway calls it) and its ops API; the figures are read from PostgreSQL.
 *
 *   npx tsx bench/follow-ups.bench.ts          (npm run bench -- follow-ups)
 *
 * Each round (BENCH_ROUNDS, default 2):
 * 1. Approvals: N deposits of a site with straight-through approval on, paid by one CSV statement file. Timed from the
 *    lines' commit (the statement row visible, polled every few ms) to the last follow-up page finished
 *    (`follow_ups.finished_at`), and to the import's answer. Then its floor: the same number of pending approval
 *    follow-ups done by bare SQL from this process, 500 a transaction (floorApprovals).
 * 2. Payouts: M batched withdrawals confirmed sent by one CSV file of their debit lines; timed likewise.
 * 3. The old path, one transaction each: M approved withdrawals marked sent by `POST /ops/v1/withdrawals/:id/mark-sent`,
 *    half one at a time and half 8 at a time, and K deposits waiting for review (a site with the rule off, paid by one
 *    file) approved by `POST /ops/v1/intents/:id/approve`, likewise.
 * 4. The worker alone: one file of N/2 deposit lines and M/2 payout lines, the ledger killed with SIGKILL the moment its
 *    lines commit (as test/runtime/follow-up-crash.test.ts does), a new ledger started with FOLLOW_UP_GRACE_MS=0: the
 *    time its follow-up worker takes to finish what the killed one left pending.
 *
 * Environment: BENCH_NO_DOCS=1 (do not touch docs/benchmarks.md), BENCH_ROUNDS (2), BENCH_DEPOSITS (5000),
 * BENCH_PAYOUTS (2000), BENCH_SINGLE (500: records per old-path route and concurrency).
 * Prints a JSON summary; rewrites only the follow-ups section of docs/benchmarks.md. Exits 0 when the run completed
 * (a missed goal is reported, not an error), 1 when it could not run.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import pg from 'pg';
import { expectStatus, makeTrIban, Scenario } from '../packages/testkit/src/index.js';
import { benchRun } from './lib/bench-run.js';
import { cloneDeposits } from './lib/clone-records.js';
import { clearSiteJournal } from './lib/clear-site-journal.js';
import { writeMarkedSection } from './lib/doc-section.js';
import { gitState, runHeader, type RunHeader } from './lib/machine.js';
import { repoPath } from './lib/processes.js';
import type { CompiledHandle } from './lib/production-services.js';
import { fmt, passFail } from './lib/report.js';

const whole = (name: string, fallback: number, min: number, max: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name}: a whole number from ${min} to ${max}`);
  return value;
};
const ROUNDS = whole('BENCH_ROUNDS', 2, 1, 5);
const DEPOSITS = whole('BENCH_DEPOSITS', 5_000, 100, 20_000);
const PAYOUTS = whole('BENCH_PAYOUTS', 2_000, 100, 10_000);
const SINGLE = whole('BENCH_SINGLE', 500, 50, 10_000);
/** The worker-alone run's file: half the deposits and half the payouts, to keep the run bounded. */
const WORKER_DEPOSITS = Math.ceil(DEPOSITS / 2);
const WORKER_PAYOUTS = Math.ceil(PAYOUTS / 2);
/** Parallel requests while making the data (not measured). */
const SETUP_CONCURRENCY = 16;
const OLD_PATH_CONCURRENCY = 8;
/** Kuruş per withdrawal: small, so the funding stays under the step-up threshold in a few deposits. */
const PAYOUT_KURUS = 1_000;
const FUND_CHUNK_KURUS = 4_000_000;
const WATCHDOG_MS = 10 * 60_000;
/** The issue's goal: confirmations and approvals at thousands per second. */
const GOAL_PER_SECOND = 1_000;

const log = (message: string) => process.stderr.write(`[follow-ups ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lira = (kurus: number) =>
  `${kurus < 0 ? '-' : ''}${Math.floor(Math.abs(kurus) / 100)}.${String(Math.abs(kurus) % 100).padStart(2, '0')}`;

/** Runs `task` over `0..count-1` with at most `concurrency` at a time. */
async function pool<R>(count: number, concurrency: number, task: (index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const index = next;
        next += 1;
        results[index] = await task(index);
      }
    }),
  );
  return results;
}

/** One measured set-based run: lines committed -> last follow-up finished, and -> the import's answer. */
interface SetRun {
  records: number;
  done: number;
  /** The transactions that did them: a page's follow-ups share its finished_at (500 a page; more: pages failed and were done one by one). */
  transactions: number;
  importSeconds: number;
  /** Lines visible -> the last follow-up page finished (follow_ups.finished_at). */
  followUpSeconds: number;
  perSecond: number;
  /** Lines visible -> the answer received. */
  commitToAnswerSeconds: number;
  /**
   * Of `done`, those the import request itself did (its answer's count); the rest a follow-up worker took in parallel
   * (SKIP LOCKED): follow-ups are due FOLLOW_UP_GRACE_MS after their transaction began, and a long import commits later.
   */
  byRequest: number;
  answer: Record<string, unknown>;
}

interface OldRun {
  records: number;
  concurrency: number;
  ok: number;
  seconds: number;
  perSecond: number;
}

interface WorkerRun {
  deposits: number;
  payouts: number;
  pendingAtKill: number;
  doneByWorker: number;
  /** The transactions the worker did them in (see SetRun.transactions). */
  transactions: number;
  /** The new ledger's spawn -> ready (listening, /readyz 200). */
  startSeconds: number;
  /** The first follow-up step (min approved_at / sent_at) -> the last page finished. */
  workSeconds: number;
  perSecond: number;
  /** The new ledger ready -> its worker's first step (negative: it began before the ready check saw it). */
  readyToFirstSeconds: number;
  /** The new ledger ready -> every pending follow-up done. */
  readyToDoneSeconds: number;
}

/** The bare SQL floor of the approvals' follow-ups: only the rows a page writes, one page after another. */
interface FloorRun {
  records: number;
  done: number;
  transactions: number;
  seconds: number;
  perSecond: number;
}

interface RoundResult {
  approvals: SetRun;
  floor: FloorRun;
  payouts: SetRun;
  markSent: OldRun[];
  approveEach: OldRun[];
  worker: WorkerRun;
}

interface Summary extends RunHeader {
  benchmark: 'follow-ups';
  settings: { rounds: number; deposits: number; payouts: number; single: number };
  rounds: RoundResult[];
  /** Deposits and withdrawals made for the run (internal and ops API, not measured), and the time that took. */
  setup: { deposits: number; withdrawals: number; seconds: number };
  journalCheck: { ok: boolean; problems: number; kinds: Record<string, number> };
  /** os.loadavg() (1, 5, 15 minutes) when the run began and ended: the machine is shared. */
  load: { start: number[]; end: number[] };
  serviceErrorLogLines: number;
  wallSeconds: number;
}

async function main(): Promise<void> {
  const wallStart = performance.now();
  const loadAtStart = loadavg().map((l) => round(l, 2));
  const startedAt = new Date().toISOString();
  const code = gitState(repoPath());
  let db: pg.Client | undefined;
  await benchRun(
    {
      database: 'kasa_bench_follow_ups',
      watchdogMs: WATCHDOG_MS,
      log,
      cleanup: async () => {
        await db?.end().catch(() => undefined);
      },
    },
    async ({ env, databaseUrl, start }) => {
      db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      const sql = db;
      const count = async (text: string, params: unknown[]) => Number((await sql.query<{ n: string }>(text, params)).rows[0]?.n ?? 0);
      const token = env.OPS_BOOTSTRAP_TOKEN as string;
      let ledger: CompiledHandle = await start('ledger');
      const ledgers: CompiledHandle[] = [ledger];
      const scenario = new Scenario({ ledgerUrl: () => ledger.url, opsToken: token, internalToken: env.INTERNAL_TOKEN as string });
      log(`ledger ${ledger.url}, database ${new URL(databaseUrl).pathname.slice(1)}`);

      const ruleOn = await scenario.createSite();
      const ruleOff = await scenario.createSite();
      const rule = { autoApprove: { enabled: true, maxAmount: '100000000', requireSenderMatch: false } };
      expectStatus(await scenario.ops('PATCH', `/sites/${ruleOn.siteId}`, rule), 200, 'straight-through rule');
      // The hand-recorded funding lands on the scenario's first account; the statements go to their own.
      await newAccount(scenario);
      const account = await newAccount(scenario);
      let balance = 0;
      // Every withdrawal of the run is paid from the rule-on site's balance.
      const payoutsNeeded = ROUNDS * (PAYOUTS + WORKER_PAYOUTS + 2 * SINGLE) * PAYOUT_KURUS;
      for (let funded = 0; funded < payoutsNeeded; funded += FUND_CHUNK_KURUS) await scenario.fund(ruleOn.siteId, FUND_CHUNK_KURUS);

      /** Making the data (not measured): how long it took, to tell the run's wall time apart. */
      const setup = { deposits: 0, withdrawals: 0, seconds: 0 };
      const timed = async <T>(make: () => Promise<T[]>, kind: 'deposits' | 'withdrawals'): Promise<T[]> => {
        const started = performance.now();
        const made = await make();
        setup.seconds += (performance.now() - started) / 1000;
        setup[kind] += made.length;
        return made;
      };
      const makeDeposits = (siteId: string, n: number) =>
        timed(
          () =>
            pool(n, SETUP_CONCURRENCY, async (i) => {
              const amount = 10_000 + (i % 5_000);
              const deposit = await scenario.createDeposit(siteId, amount);
              return { intentId: deposit.intentId, referenceNo: deposit.referenceNo, amount };
            }),
          'deposits',
        );
      const makeWithdrawals = (n: number) =>
        timed(
          () =>
            pool(n, SETUP_CONCURRENCY, async () => {
              const created = await scenario.createWithdrawal(ruleOn.siteId, PAYOUT_KURUS);
              expectStatus(await scenario.ops('POST', `/withdrawals/${created.withdrawalId}/approve`, {}), 200, 'approve withdrawal');
              return created.withdrawalId;
            }),
          'withdrawals',
        );
      /**
       * Batches the withdrawals on the account (1,000 a batch: the ops API takes bodies up to 64 KiB) and returns their
       * debit lines as the bank books them: the batch item's reference as EndToEndId, its creditor as counterparty.
       */
      const batchLines = async (ids: string[]): Promise<Line[]> => {
        const lines: Line[] = [];
        for (let from = 0; from < ids.length; from += 1_000) {
          const withdrawalIds = ids.slice(from, from + 1_000);
          const batch = await scenario.ops('POST', '/payout-batches', { withdrawalIds, accountId: account.id });
          expectStatus(batch, 201, 'batch');
          const detail = expectStatus(
            await scenario.ops('GET', `/payout-batches/${(batch.body as { batchId: string }).batchId}`),
            200,
            'batch',
          );
          const items = (detail.body as { items: Array<{ reference: string; amount: string; creditorIban: string }> }).items;
          for (const item of items) {
            lines.push({
              direction: 'debit',
              kurus: Number(item.amount),
              bankTxId: `PAY-${randomUUID().slice(0, 8)}-${lines.length}`,
              name: 'AYSE YILMAZ',
              iban: item.creditorIban,
              description: `EFT ${item.reference}`,
              endToEndId: item.reference,
            });
          }
        }
        return lines;
      };
      const creditLines = (deposits: Array<{ referenceNo: string; amount: number }>): Line[] =>
        deposits.map((deposit, i) => ({
          direction: 'credit',
          kurus: deposit.amount,
          bankTxId: `DEP-${randomUUID().slice(0, 8)}-${i}`,
          name: 'AYSE YILMAZ',
          iban: 'TR290006400000112345678901',
          description: `HAVALE ${deposit.referenceNo}`,
          endToEndId: '',
        }));

      /** Imports one file and notes when its lines became visible (committed) and when the answer came. */
      const importTimed = async (lines: Line[], onCommit?: () => void) => {
        const statementRef = `FU-${randomUUID().slice(0, 12)}`;
        const csv = statementCsv(account.iban, statementRef, lines, balance);
        balance = closingOf(lines, balance);
        let answeredAt: number | null = null;
        const started = Date.now();
        const sent = fetch(`${ledger.url}/ops/v1/receiving-accounts/${account.id}/statements`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
          body: csv,
          signal: AbortSignal.timeout(120_000),
        }).then(
          async (response) => {
            const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
            answeredAt = Date.now();
            return { status: response.status, body };
          },
          (error: unknown) => {
            answeredAt = Date.now();
            return { status: 0, body: { error: String(error) } as Record<string, unknown> };
          },
        );
        let committedAt: number | null = null;
        const deadline = Date.now() + 120_000;
        const visible = async () => (await count('SELECT count(*) AS n FROM bank_statements WHERE statement_ref = $1', [statementRef])) > 0;
        while (committedAt === null && Date.now() < deadline) {
          // Answered between two polls (a file with no follow-ups answers at once): committed by the answer at the latest.
          const answered = answeredAt;
          if (await visible()) {
            committedAt = answered ?? Date.now();
            onCommit?.();
          } else if (answered !== null) break;
          else await sleep(3);
        }
        if (committedAt === null) {
          const { status, body } = await sent;
          throw new Error(`statement ${statementRef}: answered ${status} before its lines were seen committed: ${JSON.stringify(body)}`);
        }
        const answer = await sent;
        return { statementRef, started, committedAt, answeredAt: answeredAt ?? Date.now(), ...answer };
      };

      /** The set-based run over `subjects`: follow-ups of `kind` that must all end DONE. */
      const setRun = async (kind: string, subjects: string[], lines: Line[], counted: 'autoApproved' | 'payoutsSent'): Promise<SetRun> => {
        const run = await importTimed(lines);
        if (run.status !== 201 && run.status !== 200) throw new Error(`import: ${run.status} ${JSON.stringify(run.body)}`);
        // A page the worker took in parallel may still be in its transaction when the request answers: wait for it.
        const pendingOf = () =>
          count(
            `SELECT count(*) AS n FROM follow_ups WHERE kind = $1::"FollowUpKind" AND status = 'PENDING' AND subject_id = ANY($2::uuid[])`,
            [kind, subjects],
          );
        const deadline = Date.now() + 60_000;
        while ((await pendingOf()) > 0 && Date.now() < deadline) await sleep(20);
        const { rows } = await sql.query<{ done: string; last: Date | null; transactions: string }>(
          `SELECT count(*) FILTER (WHERE status = 'DONE') AS done, max(finished_at) AS last,
             count(DISTINCT finished_at) AS transactions FROM follow_ups
           WHERE kind = $1::"FollowUpKind" AND subject_id = ANY($2::uuid[])`,
          [kind, subjects],
        );
        const done = Number(rows[0]?.done ?? 0);
        const last = rows[0]?.last?.getTime() ?? Number.NaN;
        const followUpSeconds = (last - run.committedAt) / 1000;
        // The answer's counts only: its per-line outcomes would fill the log and the summary with thousands of lines.
        delete run.body.statements;
        delete run.body.lineOutcomes;
        return {
          records: subjects.length,
          done,
          transactions: Number(rows[0]?.transactions ?? 0),
          importSeconds: round((run.answeredAt - run.started) / 1000, 3),
          followUpSeconds: round(followUpSeconds, 3),
          perSecond: round(done / followUpSeconds),
          commitToAnswerSeconds: round((run.answeredAt - run.committedAt) / 1000, 3),
          byRequest: Number(run.body[counted] ?? 0),
          answer: run.body,
        };
      };

      /** The old path: one request (one transaction) per record, `concurrency` at a time. */
      const oldRun = async (ids: string[], concurrency: number, path: (id: string) => string): Promise<OldRun> => {
        const started = performance.now();
        const results = await pool(ids.length, concurrency, async (i) => (await scenario.ops('POST', path(ids[i] as string), {})).status);
        const seconds = (performance.now() - started) / 1000;
        const ok = results.filter((status) => status === 200).length;
        return { records: ids.length, concurrency, ok, seconds: round(seconds, 2), perSecond: round(ok / seconds) };
      };

      /**
       * The floor of the approvals' follow-ups: `records` deposits of a site of its own, copied by SQL from `template` and
       * waiting (PENDING_REVIEW), each with a pending DEPOSIT_APPROVAL follow-up due tomorrow (so the ledger's worker
       * leaves them alone), then done from this process by bare SQL, 500 a transaction, one page after another. A page
       * writes exactly the rows a follow-up page writes and nothing else: BEGIN; claim the follow-ups (FOR UPDATE SKIP
       * LOCKED); the deposits' guarded update; two journal entries each; the site's two balance rows; an audit entry
       * and an outbox event each (the event DELIVERED, so the ledger's relay leaves it alone); the follow-ups DONE;
       * COMMIT. No site or rule read, no lock or read of the deposits before their update, no money-received sums, no
       * log line. Its rows are deleted afterwards, so the journal check sees Kasa's alone.
       */
      const floorApprovals = async (template: string, records: number): Promise<FloorRun> => {
        const floorSite = (await scenario.createSite()).siteId;
        const copies = await cloneDeposits(sql, template, records, { site_id: floorSite, status: 'PENDING_REVIEW', approved_at: null });
        const { rows: followUps } = await sql.query<{ id: string }>(
          `INSERT INTO follow_ups (id, kind, subject_id, line_key, payload, status, due_at, created_at)
           SELECT gen_random_uuid(), 'DEPOSIT_APPROVAL', d.id, 'floor-' || d.id,
             jsonb_build_object('siteId', d.site_id, 'amount', d.amount::text, 'rule', 'straight_through'),
             'PENDING', now() + interval '1 day', now()
           FROM deposit_intents d WHERE d.id = ANY($1::uuid[])
           RETURNING id::text`,
          [copies],
        );
        const ids = followUps.map((followUp) => followUp.id);
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        let done = 0;
        let transactions = 0;
        const started = performance.now();
        try {
          for (let from = 0; from < ids.length; from += 500) {
            await client.query('BEGIN');
            const claimed = await client.query<{ subject_id: string }>(
              `SELECT subject_id::text FROM follow_ups WHERE id = ANY($1::uuid[]) AND status = 'PENDING' FOR UPDATE SKIP LOCKED`,
              [ids.slice(from, from + 500)],
            );
            const subjects = claimed.rows.map((row) => row.subject_id);
            await client.query(
              `WITH approved AS (
                 UPDATE deposit_intents SET status = 'APPROVED', approved_at = now(), updated_at = now()
                 WHERE id = ANY($1::uuid[]) AND status = 'PENDING_REVIEW'
                 RETURNING id, site_id, amount, to_jsonb(deposit_intents.*) AS record),
               posted AS (SELECT *, gen_random_uuid() AS transaction_id FROM approved),
               journal AS (
                 INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id, created_at)
                 SELECT gen_random_uuid(), p.transaction_id, p.site_id, side.account, side.sign * p.amount, 'deposit_intent', p.id, now()
                 FROM posted p, (VALUES ('bank_clearing', 1), ('site_available', -1)) AS side(account, sign)),
               audit AS (
                 INSERT INTO audit_log (id, site_id, actor_type, actor_id, action, entity_type, entity_id, metadata, created_at)
                 SELECT gen_random_uuid(), p.site_id, 'SYSTEM', 'straight-through', 'INTENT.APPROVED', 'deposit_intent', p.id::text,
                   jsonb_build_object('from', 'PENDING_REVIEW', 'to', 'APPROVED', 'amount', p.amount::text,
                     'rule', 'straight_through', 'transactionId', p.transaction_id), now()
                 FROM posted p),
               events AS (
                 INSERT INTO outbox_events (id, site_id, type, entity_id, payload, status, enqueued_at, delivered_at, created_at, updated_at)
                 SELECT gen_random_uuid(), p.site_id, 'intent.approved', p.id, p.record, 'DELIVERED', now(), now(), now(), now()
                 FROM posted p)
               INSERT INTO site_balances (site_id, account, balance, updated_at)
               SELECT p.site_id, side.account, sum(side.sign * p.amount), now()
               FROM posted p, (VALUES ('bank_clearing', 1), ('site_available', -1)) AS side(account, sign)
               GROUP BY p.site_id, side.account
               ON CONFLICT (site_id, account) DO UPDATE SET balance = site_balances.balance + EXCLUDED.balance, updated_at = now()`,
              [subjects],
            );
            const finished = await client.query(
              `UPDATE follow_ups SET status = 'DONE', finished_at = now() WHERE id = ANY($1::uuid[]) AND status = 'PENDING'`,
              [ids.slice(from, from + 500)],
            );
            await client.query('COMMIT');
            done += finished.rowCount ?? 0;
            transactions += 1;
          }
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          await client.end().catch(() => undefined);
        }
        const seconds = (performance.now() - started) / 1000;
        const approved = await count(`SELECT count(*) AS n FROM deposit_intents WHERE site_id = $1 AND status = 'APPROVED'`, [floorSite]);
        if (approved !== records || done !== records) throw new Error(`floor: ${approved} approved, ${done} follow-ups done of ${records}`);
        // The floor's audit entries stay: they are links of the one audit chain, which a removed row would break.
        await clearSiteJournal(sql, floorSite);
        for (const table of ['follow_ups', 'outbox_events', 'site_balances', 'deposit_intents']) {
          const where = table === 'follow_ups' ? 'id = ANY($1::uuid[])' : 'site_id = $1::uuid';
          await sql.query(`DELETE FROM ${table} WHERE ${where}`, [table === 'follow_ups' ? ids : floorSite]);
        }
        return { records, done, transactions, seconds: round(seconds, 3), perSecond: round(done / seconds) };
      };

      const restart = async (extra: Record<string, string>) => {
        if (ledger.pid !== null) await ledger.stop();
        const spawnedAt = performance.now();
        ledger = await start('ledger', extra);
        ledgers.push(ledger);
        return (performance.now() - spawnedAt) / 1000;
      };

      const rounds: RoundResult[] = [];
      for (let r = 1; r <= ROUNDS; r += 1) {
        log(`round ${r}: ${fmt(DEPOSITS)} deposits, ${fmt(PAYOUTS)} batched payouts, ${fmt(2 * SINGLE)} of each for the old path`);
        const deposits = await makeDeposits(ruleOn.siteId, DEPOSITS);
        const approvals = await setRun(
          'DEPOSIT_APPROVAL',
          deposits.map((d) => d.intentId),
          creditLines(deposits),
          'autoApproved',
        );
        log(`round ${r} approvals: ${JSON.stringify(approvals)}`);
        const floor = await floorApprovals(deposits[0]?.intentId as string, DEPOSITS);
        log(`round ${r} approvals' floor: ${JSON.stringify(floor)}`);

        const batched = await makeWithdrawals(PAYOUTS);
        const payouts = await setRun('WITHDRAWAL_SENT', batched, await batchLines(batched), 'payoutsSent');
        log(`round ${r} payouts sent: ${JSON.stringify(payouts)}`);

        const single = await makeWithdrawals(2 * SINGLE);
        const markSent = [
          await oldRun(single.slice(0, SINGLE), 1, (id) => `/withdrawals/${id}/mark-sent`),
          await oldRun(single.slice(SINGLE), OLD_PATH_CONCURRENCY, (id) => `/withdrawals/${id}/mark-sent`),
        ];
        log(`round ${r} mark-sent one each: ${JSON.stringify(markSent)}`);
        const review = await makeDeposits(ruleOff.siteId, 2 * SINGLE);
        const paid = await importTimed(creditLines(review));
        if (paid.status !== 201) throw new Error(`import for review: ${paid.status} ${JSON.stringify(paid.body)}`);
        const reviewIds = review.map((d) => d.intentId);
        const approveEach = [
          await oldRun(reviewIds.slice(0, SINGLE), 1, (id) => `/intents/${id}/approve`),
          await oldRun(reviewIds.slice(SINGLE), OLD_PATH_CONCURRENCY, (id) => `/intents/${id}/approve`),
        ];
        log(`round ${r} approve one each: ${JSON.stringify(approveEach)}`);

        // The worker alone: the killed ledger's promised work, finished by a new ledger's worker with nobody re-sending.
        const workerDeposits = await makeDeposits(ruleOn.siteId, WORKER_DEPOSITS);
        const workerPayouts = await makeWithdrawals(WORKER_PAYOUTS);
        const killed = ledger;
        const lines = [...creditLines(workerDeposits), ...(await batchLines(workerPayouts))];
        await importTimed(lines, () => {
          if (killed.pid !== null) process.kill(killed.pid, 'SIGKILL');
        });
        await killed.stop(); // already exited: waits for the exit
        const subjects = [...workerDeposits.map((d) => d.intentId), ...workerPayouts];
        const pendingAtKill = await count(
          `SELECT count(*) AS n FROM follow_ups WHERE status = 'PENDING' AND subject_id = ANY($1::uuid[])`,
          [subjects],
        );
        const startSeconds = await restart({ FOLLOW_UP_GRACE_MS: '0', FOLLOW_UP_INTERVAL_MS: '200' });
        const readyAt = Date.now();
        const waitDeadline = Date.now() + 60_000;
        let left = pendingAtKill;
        while (left > 0 && Date.now() < waitDeadline) {
          await sleep(20);
          left = await count(`SELECT count(*) AS n FROM follow_ups WHERE status = 'PENDING' AND subject_id = ANY($1::uuid[])`, [subjects]);
        }
        const doneAt = Date.now();
        const { rows } = await sql.query<{ first: Date | null; last: Date | null; done: string; transactions: string }>(
          `SELECT least(min(d.approved_at), min(w.sent_at)) AS first, max(f.finished_at) AS last, count(*) AS done,
             count(DISTINCT f.finished_at) AS transactions
             FROM follow_ups f
             LEFT JOIN deposit_intents d ON f.kind = 'DEPOSIT_APPROVAL' AND d.id = f.subject_id
             LEFT JOIN withdrawals w ON f.kind = 'WITHDRAWAL_SENT' AND w.id = f.subject_id
            WHERE f.subject_id = ANY($1::uuid[]) AND f.status = 'DONE' AND f.finished_at >= $2::timestamptz`,
          [subjects, new Date(readyAt - startSeconds * 1000).toISOString()],
        );
        const first = rows[0]?.first?.getTime() ?? Number.NaN;
        const last = rows[0]?.last?.getTime() ?? Number.NaN;
        const doneByWorker = Number(rows[0]?.done ?? 0);
        const workSeconds = (last - first) / 1000;
        const worker: WorkerRun = {
          deposits: workerDeposits.length,
          payouts: workerPayouts.length,
          pendingAtKill,
          doneByWorker,
          transactions: Number(rows[0]?.transactions ?? 0),
          startSeconds: round(startSeconds, 2),
          workSeconds: round(workSeconds, 3),
          perSecond: round(doneByWorker / workSeconds),
          readyToFirstSeconds: round((first - readyAt) / 1000, 2),
          readyToDoneSeconds: round((doneAt - readyAt) / 1000, 2),
        };
        log(`round ${r} worker alone: ${JSON.stringify(worker)}${left > 0 ? `; ${left} still pending after 60 s` : ''}`);
        // Back to the production settings for the next round's request-path figures.
        if (r < ROUNDS) await restart({});
        rounds.push({ approvals, floor, payouts, markSent, approveEach, worker });
      }

      const check = await scenario.ops('GET', '/journal/check');
      const problems = (check.body as { problems?: Array<{ kind: string; detail: unknown }> }).problems ?? [];
      const kinds: Record<string, number> = {};
      for (const problem of problems) kinds[problem.kind] = (kinds[problem.kind] ?? 0) + 1;
      const journalCheck = { ok: (check.body as { ok?: boolean }).ok === true, problems: problems.length, kinds };
      if (problems.length > 0) log(`journal problems: ${JSON.stringify(problems.slice(0, 5))}`);
      log(`journal check: ${JSON.stringify(journalCheck)}`);
      const summary: Summary = {
        benchmark: 'follow-ups',
        ...runHeader(startedAt, code),
        settings: { rounds: ROUNDS, deposits: DEPOSITS, payouts: PAYOUTS, single: SINGLE },
        load: { start: loadAtStart, end: loadavg().map((l) => round(l, 2)) },
        rounds,
        setup: { ...setup, seconds: round(setup.seconds, 1) },
        journalCheck,
        serviceErrorLogLines: ledgers.reduce((sum, l) => sum + l.errorLines(), 0),
        wallSeconds: round((performance.now() - wallStart) / 1000),
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      if (process.env.BENCH_NO_DOCS !== '1')
        await writeMarkedSection(repoPath('docs', 'benchmarks.md'), 'follow-ups', 'Follow-up work', report(summary));
    },
  );
}

interface Line {
  direction: 'credit' | 'debit';
  kurus: number;
  bankTxId: string;
  name: string;
  iban: string;
  description: string;
  endToEndId: string;
}

async function newAccount(scenario: Scenario): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await scenario.createReceivingAccount({ iban });
  return { id: (created.body as { id: string }).id, iban };
}

const closingOf = (lines: readonly Line[], opening: number) =>
  lines.reduce((sum, l) => (l.direction === 'credit' ? sum + l.kurus : sum - l.kurus), opening);

/** One statement of the lines, opening where the account's last one closed, so the statements join up. */
function statementCsv(iban: string, statementRef: string, lines: readonly Line[], opening: number): string {
  const now = new Date().toISOString();
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id',
    `${iban},${statementRef},${now},opening,${lira(opening)},TRY,,,,,`,
    ...lines.map(
      (l) =>
        `${iban},${statementRef},${now},${l.direction},${lira(l.kurus)},TRY,${l.bankTxId},${l.name},${l.iban},${l.description},${l.endToEndId}`,
    ),
    `${iban},${statementRef},${now},closing,${lira(closingOf(lines, opening))},TRY,,,,,`,
  ].join('\n');
}

const span = (values: number[], digits = 0): string => {
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? fmt(low, digits) : `${fmt(low, digits)}–${fmt(high, digits)}`;
};

function report(s: Summary): string {
  const rs = s.rounds;
  const of = <T>(pick: (r: RoundResult) => T) => rs.map(pick);
  const oldRow = (label: string, pick: (r: RoundResult) => OldRun) =>
    `| ${label} | ${fmt(pick(rs[0] as RoundResult).records)} | ${span(
      of((r) => pick(r).seconds),
      2,
    )} s | **${span(of((r) => pick(r).perSecond))}/s** | ${span(of((r) => pick(r).ok))} of ${fmt(pick(rs[0] as RoundResult).records)} | ${fmt(pick(rs[0] as RoundResult).records)} |`;
  const setRow = (label: string, pick: (r: RoundResult) => SetRun) =>
    `| ${label} | ${fmt(pick(rs[0] as RoundResult).records)} | ${span(
      of((r) => pick(r).followUpSeconds),
      2,
    )} s | **${span(of((r) => pick(r).perSecond))}/s** | ${span(of((r) => pick(r).done))} of ${fmt(pick(rs[0] as RoundResult).records)} | ${span(of((r) => pick(r).transactions))} |`;
  const minApprovals = Math.min(...of((r) => r.approvals.perSecond));
  const minPayouts = Math.min(...of((r) => r.payouts.perSecond));
  const minWorker = Math.min(...of((r) => r.worker.perSecond));
  const ratios = of((r) => r.approvals.perSecond / r.floor.perSecond);
  const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;
  const best = (pick: (r: RoundResult) => number) => fmt(Math.max(...of(pick)));
  const goal = (value: number) => passFail(value >= GOAL_PER_SECOND);
  const shared = rs.some((r) => r.approvals.byRequest < r.approvals.done || r.payouts.byRequest < r.payouts.done);
  return [
    `Run ${s.startedAt.slice(0, 16).replace('T', ' ')} UTC with \`npm run bench -- follow-ups\` (${s.wallSeconds} s wall, of which ${fmt(s.setup.seconds)} s making ${fmt(s.setup.deposits)} deposits and ${fmt(s.setup.withdrawals)} withdrawals; ${s.settings.rounds} rounds), commit ${s.commit}${s.dirtyFiles > 0 ? ` with ${s.dirtyFiles} changed files under services/, packages/, prisma/` : ''}, ${s.cpus} CPUs (${s.cpuModel}), Node ${s.node}; load average (1 min) ${s.load.start[0]} at the start and ${s.load.end[0]} at the end${(s.load.start[0] ?? 0) > s.cpus || (s.load.end[0] ?? 0) > s.cpus ? ': **the machine was busy with other work**, so the absolute rates are low; the paths were measured in the same run, one after the other, and compare with each other' : ''}. Ranges are over the rounds.`,
    '',
    `**Method:** the compiled ledger (\`node services/ledger/dist/main.js\`, NODE_ENV=production, the default FOLLOW_UP_* settings) on a fresh database, PostgreSQL and Redis on this machine, 127.0.0.1 only; deposits and withdrawals made through the ledger's internal API (as the gateway calls it, ${SETUP_CONCURRENCY} at a time, not timed), withdrawals approved and batched through the ops API. Each round: (1) ${fmt(s.settings.deposits)} deposits of a site with straight-through approval on, paid by one CSV statement file; (2) ${fmt(s.settings.payouts)} batched withdrawals, confirmed by one CSV file of their debit lines (EndToEndId and creditor IBAN from the batch). The time is from the lines' commit (the statement row visible in PostgreSQL, polled every 3 ms) to the last follow-up page finished (\`follow_ups.finished_at\`, written in the page's transaction); every follow-up must end DONE. (3) The old path, one transaction per record, in the same run: ${fmt(s.settings.single)} approved withdrawals marked sent by \`POST /ops/v1/withdrawals/:id/mark-sent\` one at a time and ${fmt(s.settings.single)} more ${OLD_PATH_CONCURRENCY} at a time; likewise deposits waiting for review (a site with the rule off, paid by one file) approved by \`POST /ops/v1/intents/:id/approve\`. (1b) The floor of (1), right after it: as many deposits of a site of their own, copied by SQL and waiting for review, each with a pending approval follow-up (due the next day, so the ledger's worker leaves them alone), done from the bench process by bare SQL over one connection, 500 a transaction, one after another: BEGIN; the follow-ups claimed \`FOR UPDATE SKIP LOCKED\`; one statement for the deposits' guarded update, two journal entries each, an audit entry and an outbox event each (written DELIVERED, so the ledger's relay leaves them alone) and the site's two balance rows; the follow-ups marked DONE; COMMIT. It reads no site, rule, lock or money received and logs nothing: the floor of a page's writes, not of a page. Its rows are deleted after it (its journal entries with their hash chain; its audit entries stay, links of the one audit chain), so the journal check sees Kasa's alone. (4) The worker alone: one file of ${fmt(rs[0]?.worker.deposits ?? 0)} deposit lines and ${fmt(rs[0]?.worker.payouts ?? 0)} payout debit lines, the ledger killed with SIGKILL the moment the lines commit (as test/runtime/follow-up-crash.test.ts does), a new ledger started with FOLLOW_UP_GRACE_MS=0 and FOLLOW_UP_INTERVAL_MS=200; its worker's time from its first step (the earliest \`approved_at\`/\`sent_at\` it wrote) to its last page finished, and from the new ledger ready to nothing pending. *Transactions* counts the distinct \`finished_at\` of the follow-ups done: one per page transaction (500 a page), so more than records / 500 would mean pages failed and were redone one at a time; for the old path, one per request.`,
    '',
    '| Path | Records | Time | Rate | Done | Transactions |',
    '|---|---:|---:|---:|---:|---:|',
    setRow('Straight-through approvals, follow-ups after the commit (set-based, 500 a transaction)', (r) => r.approvals),
    `| Floor: as many approval follow-ups done by bare SQL (500 a transaction, writes only) | ${fmt(s.settings.deposits)} | ${span(
      of((r) => r.floor.seconds),
      2,
    )} s | **${span(of((r) => r.floor.perSecond))}/s** | ${span(of((r) => r.floor.done))} of ${fmt(s.settings.deposits)} | ${span(of((r) => r.floor.transactions))} |`,
    setRow('Payouts confirmed sent, follow-ups after the commit (set-based, 500 a transaction)', (r) => r.payouts),
    oldRow('Old path: `mark-sent` one request each, one at a time', (r) => r.markSent[0] as OldRun),
    oldRow(`Old path: \`mark-sent\` one request each, ${OLD_PATH_CONCURRENCY} at a time`, (r) => r.markSent[1] as OldRun),
    oldRow('Old path: `approve` one request each, one at a time', (r) => r.approveEach[0] as OldRun),
    oldRow(`Old path: \`approve\` one request each, ${OLD_PATH_CONCURRENCY} at a time`, (r) => r.approveEach[1] as OldRun),
    `| Worker alone after a kill -9 (approvals and payouts pending) | ${span(of((r) => r.worker.pendingAtKill))} pending | ${span(
      of((r) => r.worker.workSeconds),
      2,
    )} s | **${span(of((r) => r.worker.perSecond))}/s** | ${span(of((r) => r.worker.doneByWorker))} | ${span(of((r) => r.worker.transactions))} |`,
    '',
    `The whole import request (parse, record, match, then the follow-ups): ${span(
      of((r) => r.approvals.importSeconds),
      2,
    )} s for the ${fmt(s.settings.deposits)}-line deposit file, ${span(
      of((r) => r.payouts.importSeconds),
      2,
    )} s for the ${fmt(s.settings.payouts)}-line payout file; from the commit to the answer ${span(
      of((r) => r.approvals.commitToAnswerSeconds),
      2,
    )} s and ${span(
      of((r) => r.payouts.commitToAnswerSeconds),
      2,
    )} s. Of the follow-ups, the import request itself did ${span(of((r) => r.approvals.byRequest))} of ${fmt(s.settings.deposits)} approvals and ${span(of((r) => r.payouts.byRequest))} of ${fmt(s.settings.payouts)} payouts (its answer's \`autoApproved\` / \`payoutsSent\`); ${shared ? "the rest were done after the answer: a file promising more than 2,000 follow-ups is answered at its commit and its follow-ups run just after (docs/statements.md, After the lines commit), by the request's own process or the follow-up worker, whichever claims a page first" : 'the worker took none'}. Worker alone: the new ledger ready ${span(
      of((r) => r.worker.startSeconds),
      2,
    )} s after its spawn, nothing pending ${span(
      of((r) => r.worker.readyToDoneSeconds),
      2,
    )} s after it was ready (polled every 20 ms). Journal check after the run: ${s.journalCheck.ok ? 'clean' : `**${s.journalCheck.problems} problems**`}; ${s.serviceErrorLogLines} error log lines from the ledgers.`,
    '',
    '| Goal (issue 32: "thousands per second, not 93"), judged on the slowest round | Slowest round | Fastest round | |',
    '|---|---:|---:|---|',
    `| straight-through approvals >= ${fmt(GOAL_PER_SECOND)}/s | ${fmt(minApprovals)}/s | ${best((r) => r.approvals.perSecond)}/s | ${goal(minApprovals)} |`,
    `| payouts confirmed sent >= ${fmt(GOAL_PER_SECOND)}/s | ${fmt(minPayouts)}/s | ${best((r) => r.payouts.perSecond)}/s | ${goal(minPayouts)} |`,
    `| worker alone >= ${fmt(GOAL_PER_SECOND)}/s | ${fmt(minWorker)}/s | ${best((r) => r.worker.perSecond)}/s | ${goal(minWorker)} |`,
    `| straight-through approvals / their bare SQL floor (reported; issue 35 sets no goal for follow-ups) | ${pct(Math.min(...ratios))} | ${pct(Math.max(...ratios))} | rounds: ${ratios.map(pct).join(', ')} |`,
  ].join('\n');
}

await main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
