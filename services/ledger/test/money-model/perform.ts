/**
 * Carries out the model test's steps (steps.ts) against a real ledger over HTTP: the ops API as operators and the
 * bank connector use it, the internal API as the gateway calls it (partner creates, the sandbox's simulator). The run
 * remembers what it sent (the bank's lines, the deposits and payouts it made); it reads the ledger's answers for the
 * state of a record, never predicts it. An answer of 500 or more is noted for the invariants; a 4xx is a refusal the
 * model takes as it comes.
 */
import type pg from 'pg';
import type { HttpResult, LedgerHarness } from '../harness.js';
import { Bank, freshIban, type Account, type BankLine } from './bank.js';
import type { Actor, Channel, Mode, Step } from './steps.js';

export interface World {
  h: LedgerHarness;
  db: pg.Pool;
  accounts: readonly Account[];
  tokens: Record<Actor, string>;
  /** DUAL_APPROVAL_ABOVE_KURUS of the ledger under test. */
  fourEyesAbove: bigint;
}

export interface ModelDeposit {
  intentId: string;
  referenceNo: string;
  mode: Mode;
  amount: bigint;
  /** Index into the world's accounts: where its sender is told to pay. */
  account: number;
}

export interface BatchedItem {
  batchId: string;
  account: number;
  reference: string;
  amount: bigint;
  creditorIban: string;
}

export interface ModelPayout {
  kind: 'withdrawal' | 'sender_return';
  id: string;
  mode: Mode;
  /** A withdrawal's reference number (a return's batch item carries its own). */
  referenceNo: string | null;
  status: string;
  item: BatchedItem | null;
}

export interface SandboxSite {
  siteId: string;
  slug: string;
  apiKeyId: string;
}

/** One run of the property: its sites, its bank, and what it made. */
export class Run {
  readonly deposits: ModelDeposit[] = [];
  readonly payouts: ModelPayout[] = [];
  readonly simTransferIds: string[] = [];
  readonly batchIds: string[] = [];
  readonly serverErrors: string[] = [];

  constructor(
    readonly world: World,
    readonly bank: Bank,
    readonly live: { siteId: string; slug: string },
    readonly sandbox: SandboxSite,
  ) {}

  get siteIds(): string[] {
    return [this.live.siteId, this.sandbox.siteId];
  }

  /** Notes a 5xx; returns the answer. */
  async answer(what: string, call: Promise<HttpResult>): Promise<HttpResult> {
    const result = await call;
    if (result.status >= 500) this.serverErrors.push(`${what}: ${result.status} ${JSON.stringify(result.body)}`);
    return result;
  }

  ops(what: string, method: string, path: string, body?: unknown, actor: Actor = 'bootstrap'): Promise<HttpResult> {
    return this.answer(what, this.world.h.ops(method, path, body, this.world.tokens[actor]));
  }

  /** The sandbox's simulator, as the gateway forwards a test key's request. */
  simulate(what: string, path: string, request: Record<string, unknown> = {}): Promise<HttpResult> {
    return this.answer(
      what,
      this.world.h.internal('POST', `/sites/${this.sandbox.siteId}/test${path}`, { apiKeyId: this.sandbox.apiKeyId, request }),
    );
  }
}

const ok = (result: HttpResult) => result.status >= 200 && result.status < 300;
const at = <T>(list: readonly T[], index: number): T | undefined => (list.length === 0 ? undefined : list[index % list.length]);

/** A fresh live site and its sandbox twin, each with money to pay withdrawals from. */
export async function startRun(world: World, prefix: string): Promise<Run> {
  const { h } = world;
  const live = await h.createSite();
  const key = await h.ops('POST', `/sites/${live.siteId}/api-keys`, { mode: 'test' });
  if (key.status !== 201) throw new Error(`test key: ${key.status} ${JSON.stringify(key.body)}`);
  const run = new Run(world, new Bank(prefix, world.accounts), live, {
    siteId: key.body.siteId as string,
    slug: live.slug,
    apiKeyId: key.body.apiKeyId as string,
  });
  // The live float: a deposit paid by hand on its account and approved, like any other (so the model counts it).
  const float = await createDeposit(run, 'live', 2_000_000);
  const line = run.bank.add({ ...creditTo(float, float.amount), kind: 'deposit' });
  await deliver(run, line, 'hand');
  await run.ops('fund live site', 'POST', `/intents/${float.intentId}/approve`, {}, 'rev1');
  const sandboxFloat = await createDeposit(run, 'sandbox', 2_000_000);
  const sent = await run.simulate('fund sandbox', `/deposits/${sandboxFloat.intentId}/transfers`);
  if (ok(sent)) run.simTransferIds.push(sent.body.bankTransferId as string);
  await run.simulate('fund sandbox', `/deposits/${sandboxFloat.intentId}/approve`);
  return run;
}

async function createDeposit(run: Run, mode: Mode, amount: number): Promise<ModelDeposit> {
  const site = mode === 'live' ? run.live : { siteId: run.sandbox.siteId, slug: run.sandbox.slug };
  const created = await run.world.h.createDeposit(site, amount);
  const row = await run.world.db.query<{ account: string }>(
    'SELECT receiving_account_id::text AS account FROM deposit_intents WHERE id = $1',
    [created.intentId],
  );
  const account = Math.max(
    0,
    run.world.accounts.findIndex((candidate) => candidate.id === row.rows[0]?.account),
  );
  const deposit = { intentId: created.intentId, referenceNo: created.referenceNo, mode, amount: BigInt(amount), account };
  run.deposits.push(deposit);
  return deposit;
}

/** A sender's credit for a deposit, on the account the deposit names. */
function creditTo(deposit: ModelDeposit, amount: bigint) {
  return {
    account: deposit.account,
    direction: 'credit' as const,
    amount,
    counterpartyName: 'Ayşe Yılmaz',
    counterpartyIban: freshIban(),
    description: `Havale ${deposit.referenceNo} yatirim`,
  };
}

/** Brings a bank line to the ledger through one channel; a 2xx marks it delivered. */
async function deliver(run: Run, line: BankLine, via: Channel): Promise<void> {
  if (via === 'later') return;
  const account = run.world.accounts[line.account]!;
  let result: HttpResult;
  if ((via === 'hand' || via === 'handNoAccount') && line.direction === 'credit') {
    result = await run.ops(`hand entry ${line.bankTxId}`, 'POST', '/bank-transfers', {
      bankTxId: line.bankTxId,
      amount: line.amount.toString(),
      senderName: line.counterpartyName,
      senderIban: line.counterpartyIban,
      description: line.description,
      receivedAt: line.bookedAt.toISOString(),
      ...(via === 'hand' ? { receivingAccountId: account.id } : {}),
    });
  } else {
    result = await run.ops(`connector line ${line.bankTxId}`, 'POST', `/receiving-accounts/${account.id}/lines`, {
      lines: [
        {
          bankTxId: line.bankTxId,
          direction: line.direction,
          amount: line.amount.toString(),
          currency: 'TRY',
          receivedAt: line.bookedAt.toISOString(),
          senderName: line.counterpartyName,
          senderIban: line.counterpartyIban,
          description: line.description,
        },
      ],
    });
  }
  if (ok(result)) line.delivered = true;
}

async function importStatement(run: Run, account: number, file: { body: string; lines: BankLine[] }): Promise<void> {
  const { h, accounts, tokens } = run.world;
  const call = fetch(`${h.ledger.url}/ops/v1/receiving-accounts/${accounts[account]!.id}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.bootstrap}`, 'content-type': 'text/csv' },
    body: file.body,
  }).then(async (response) => ({ status: response.status, headers: response.headers, body: (await response.json()) as unknown }));
  const result = await run.answer(`statement of account ${account}`, call);
  if (ok(result)) for (const line of file.lines) line.delivered = true;
}

/** Lines that share their bank reference with another line: only a statement brings such a pair (both at once). */
function sharedReferences(bank: Bank): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const line of bank.lines) (seen.has(line.bankTxId) ? shared : seen).add(line.bankTxId);
  return shared;
}

/** The run's transfers an operator may still deal with as unmatched money, oldest first. */
async function unmatchedTransfers(run: Run): Promise<Array<{ id: string; status: string }>> {
  const { rows } = await run.world.db.query<{ id: string; status: string }>(
    `SELECT id::text, status::text FROM bank_transfers
     WHERE (bank_tx_id LIKE $1 OR id = ANY($2::uuid[])) AND status IN ('UNMATCHED', 'SET_ASIDE')
     ORDER BY created_at, id`,
    [`${run.bank.prefix}-%`, run.simTransferIds],
  );
  return rows;
}

/** Adds the returns to senders of the run's money the model has not seen yet (partial approvals' remainders too). */
async function syncSenderReturns(run: Run): Promise<void> {
  const { rows } = await run.world.db.query<{ id: string; livemode: boolean }>(
    `SELECT r.id::text, t.livemode FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
     WHERE t.bank_tx_id LIKE $1 OR t.id = ANY($2::uuid[]) ORDER BY r.created_at, r.id`,
    [`${run.bank.prefix}-%`, run.simTransferIds],
  );
  for (const row of rows) {
    if (run.payouts.some((payout) => payout.id === row.id)) continue;
    run.payouts.push({
      kind: 'sender_return',
      id: row.id,
      mode: row.livemode ? 'live' : 'sandbox',
      referenceNo: null,
      status: 'PENDING_REVIEW',
      item: null,
    });
  }
}

async function refresh(run: Run, payout: ModelPayout): Promise<void> {
  const path = payout.kind === 'withdrawal' ? `/withdrawals/${payout.id}` : `/sender-returns/${payout.id}`;
  const read = await run.ops(`read ${payout.kind}`, 'GET', path);
  if (ok(read)) payout.status = read.body.status as string;
}

/** Reads a batch the ledger made and notes, for each payout of the run in it, its item. */
async function noteBatch(run: Run, batchId: string): Promise<void> {
  run.batchIds.push(batchId);
  const detail = await run.ops('read batch', 'GET', `/payout-batches/${batchId}`);
  if (!ok(detail)) return;
  const account = run.world.accounts.findIndex((candidate) => candidate.id === detail.body.receivingAccountId);
  for (const item of detail.body.items as Array<Record<string, string | null>>) {
    const payout = run.payouts.find((candidate) => candidate.id === (item.withdrawalId ?? item.senderReturnId));
    if (!payout) continue;
    payout.item = {
      batchId,
      account: Math.max(0, account),
      reference: item.reference as string,
      amount: BigInt(item.amount as string),
      creditorIban: item.creditorIban as string,
    };
  }
}

async function batch(run: Run, body: Record<string, unknown>): Promise<void> {
  const created = await run.ops('create payout batch', 'POST', '/payout-batches', body);
  if (created.status === 201) await noteBatch(run, created.body.batchId as string);
}

const FINISHED = new Set(['withdrawal:REJECTED', 'withdrawal:RETURNED', 'sender_return:REJECTED', 'sender_return:SENT']);

type Move = Pick<Extract<Step, { do: 'payoutNext' }>, 'actor' | 'variant' | 'via'> & { honest: boolean };

/** The next things that happen to a payout, one per move, each by the state the ledger reports for it then. */
async function payoutNext(run: Run, step: Extract<Step, { do: 'payoutNext' }>): Promise<void> {
  await syncSenderReturns(run);
  // Payouts with a next step, as last read: a run's few steps go to the ones still moving.
  const moving = run.payouts.filter((candidate) => !FINISHED.has(`${candidate.kind}:${candidate.status}`));
  const payout = at(moving, step.payout);
  if (!payout) return;
  for (const honest of step.moves) {
    await refresh(run, payout);
    if (FINISHED.has(`${payout.kind}:${payout.status}`)) return;
    await advance(run, payout, { ...step, honest });
  }
  await refresh(run, payout);
}

/** The next thing that happens to a payout in the state last read (see the step's description). */
async function advance(run: Run, payout: ModelPayout, step: Move): Promise<void> {
  const { accounts } = run.world;
  const isWithdrawal = payout.kind === 'withdrawal';
  if (payout.status === 'PENDING_REVIEW') {
    if (isWithdrawal && payout.mode === 'sandbox') await run.simulate('simulate approval', `/withdrawals/${payout.id}/approve`);
    else {
      const path = isWithdrawal ? `/withdrawals/${payout.id}/approve` : `/sender-returns/${payout.id}/approve`;
      await run.ops(`approve ${payout.kind}`, 'POST', path, isWithdrawal ? {} : undefined, step.actor);
    }
  } else if (payout.status === 'APPROVED' && !payout.item) {
    const accountId = accounts[step.variant % accounts.length]!.id;
    if (step.honest && isWithdrawal && payout.mode === 'sandbox') await run.simulate('simulate send', `/withdrawals/${payout.id}/send`);
    else if (isWithdrawal) await batch(run, { withdrawalIds: [payout.id], accountId });
    else await batch(run, { accountId });
  } else if (payout.status === 'APPROVED' && payout.item) {
    const { item } = payout;
    const line = step.honest
      ? { kind: 'payout' as const, account: item.account, iban: item.creditorIban, e2e: item.reference }
      : step.variant === 0
        ? { kind: 'payoutDecoy' as const, account: item.account, iban: freshIban(), e2e: '' }
        : { kind: 'payoutElsewhere' as const, account: (item.account + 1) % accounts.length, iban: item.creditorIban, e2e: item.reference };
    const added = run.bank.add({
      account: line.account,
      direction: 'debit',
      amount: item.amount,
      kind: line.kind,
      counterpartyName: 'Mehmet Demir',
      counterpartyIban: line.iban,
      description: `Odeme ${item.reference}`,
      endToEndId: line.e2e,
      payoutRef: item.reference,
    });
    await deliver(run, added, step.via);
  } else if (payout.status === 'SENT' && isWithdrawal) {
    if (!payout.item) {
      if (step.honest && payout.mode === 'sandbox') await run.simulate('simulate return', `/withdrawals/${payout.id}/return`);
      return;
    }
    const { item } = payout;
    const added = run.bank.add({
      account: item.account,
      direction: 'credit',
      amount: item.amount,
      kind: step.honest ? 'payoutReturn' : 'strangerNamingPayout',
      counterpartyName: step.honest ? 'Mehmet Demir' : 'Veli Kaya',
      counterpartyIban: step.honest ? item.creditorIban : freshIban(),
      description: step.honest ? `IADE ${item.reference}` : `${item.reference} geri odeme`,
      endToEndId: step.honest ? item.reference : '',
      returnReason: step.honest ? 'AC04' : '',
      payoutRef: item.reference,
    });
    await deliver(run, added, step.via);
  }
}

async function approveDeposit(run: Run, step: Extract<Step, { do: 'approveDeposit' }>): Promise<void> {
  const deposit = at(run.deposits, step.deposit);
  if (!deposit) return;
  const read = await run.ops('read deposit', 'GET', `/intents/${deposit.intentId}`);
  const received = ok(read) && read.body.receivedAmount ? BigInt(read.body.receivedAmount as string) : 0n;
  const part = step.part !== 'all' && received > 1n ? ((received * 3n) / 4n).toString() : null;
  if (deposit.mode === 'sandbox') {
    await run.simulate('simulate deposit approval', `/deposits/${deposit.intentId}/approve`, part ? { amount: part } : {});
    return;
  }
  const remainder = step.part === 'return' ? { action: 'return' } : { action: 'set_aside', reason: 'Sender asked us to hold the rest' };
  await run.ops('approve deposit', 'POST', `/intents/${deposit.intentId}/approve`, part ? { amount: part, remainder } : {}, step.actor);
}

/** Carries out one step. */
export async function perform(run: Run, step: Step): Promise<void> {
  const { bank, world } = run;
  const liveDeposits = () => run.deposits.filter((deposit) => deposit.mode === 'live');
  switch (step.do) {
    case 'deposit':
      await createDeposit(run, step.mode, step.amount);
      return;
    case 'pay': {
      const deposit = at(liveDeposits(), step.deposit);
      if (!deposit) return;
      const amount =
        step.share === 'exact' ? deposit.amount : step.share === 'less' ? (deposit.amount * 3n) / 5n : deposit.amount + 10_000n;
      await deliver(run, bank.add({ ...creditTo(deposit, amount), kind: 'deposit' }), step.via);
      return;
    }
    case 'stranger': {
      const account = step.account % world.accounts.length;
      const stranger = { account, direction: 'credit' as const, counterpartyName: 'Veli Kaya', description: 'Kira odemesi' };
      const first = bank.add({ ...stranger, amount: 75_000n, kind: 'stranger', counterpartyIban: freshIban() });
      if (!step.twin) {
        await deliver(run, first, step.via);
        return;
      }
      // The bank's second line under the same reference: another sender, another amount; a statement brings both.
      bank.add({ ...stranger, bankTxId: first.bankTxId, amount: 42_500n, kind: 'twin', counterpartyIban: freshIban() });
      return;
    }
    case 'redeliver': {
      const shared = sharedReferences(bank);
      const candidates = bank.lines.filter(
        (line) => !shared.has(line.bankTxId) && (step.via === 'connector' || line.direction === 'credit'),
      );
      const line = at(candidates, step.line);
      if (line) await deliver(run, line, step.via);
      return;
    }
    case 'statement': {
      const account = step.account % world.accounts.length;
      const count = bank.linesOf(account).length;
      const previous = [...bank.files].reverse().find((file) => file.account === account);
      const file =
        step.window === 'again' && previous ? previous : bank.statement(account, step.window === 'tail' ? count - step.size : 0, count);
      if (file) await importStatement(run, account, file);
      return;
    }
    case 'simulateTransfer': {
      const deposit = at(
        run.deposits.filter((candidate) => candidate.mode === 'sandbox'),
        step.deposit,
      );
      if (!deposit) return;
      const amount =
        step.share === 'exact' ? deposit.amount : step.share === 'less' ? (deposit.amount * 3n) / 5n : deposit.amount + 10_000n;
      const sent = await run.simulate('simulate transfer', `/deposits/${deposit.intentId}/transfers`, {
        amount: amount.toString(),
        ...(step.noReference ? { reference: '' } : {}),
      });
      if (ok(sent)) run.simTransferIds.push(sent.body.bankTransferId as string);
      return;
    }
    case 'approveDeposit':
      await approveDeposit(run, step);
      return;
    case 'bulkApprove': {
      const ids = [...new Set(step.deposits.map((index) => at(liveDeposits(), index)?.intentId).filter((id): id is string => !!id))];
      if (ids.length > 0) await run.ops('bulk approve', 'POST', '/intents/bulk-approve', { intentIds: ids }, step.actor);
      return;
    }
    case 'unmatched': {
      const transfer = at(await unmatchedTransfers(run), step.transfer);
      if (!transfer) return;
      const action = step.action === 'setAside' ? 'set-aside' : 'return';
      await run.ops(`${action} transfer`, 'POST', `/bank-transfers/${transfer.id}/${action}`, { reason: 'Sender unknown' });
      return;
    }
    case 'withdrawal': {
      const site = step.mode === 'live' ? run.live : { siteId: run.sandbox.siteId, slug: run.sandbox.slug };
      const created = await world.h.createWithdrawal(site, step.amount, { targetIban: freshIban() });
      run.payouts.push({
        kind: 'withdrawal',
        id: created.withdrawalId,
        mode: step.mode,
        referenceNo: created.referenceNo,
        status: 'PENDING_REVIEW',
        item: null,
      });
      return;
    }
    case 'payoutNext':
      await payoutNext(run, step);
      return;
    case 'batchAll':
      await batch(run, { accountId: world.accounts[step.account % world.accounts.length]!.id });
      return;
    case 'together':
      await Promise.all(step.steps.map((inner) => perform(run, inner)));
      return;
  }
}
