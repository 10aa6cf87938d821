/** The kasa CLI against a real ledger (PostgreSQL and Redis), run in-process with captured output. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { formatAmount, parseAmount, runCli } from '../src/index.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs kasa as the bootstrap admin unless another token is given; stderr may pretend to be a terminal. */
async function kasa(args: string[], options: { token?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: Object.assign(
      { write: (chunk: string) => ((stderr += chunk), true) },
      options.tty ? { isTTY: true, columns: 100, cursorTo: () => true, clearLine: () => true, moveCursor: () => true } : {},
    ),
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: options.token ?? real.env.config.opsBootstrapToken, ...options.env },
  });
  let json: unknown = null;
  try {
    json = JSON.parse(stdout);
  } catch {
    json = null;
  }
  return { code, stdout, stderr, json };
}

async function createDeposit(siteId: string, amount: string): Promise<{ intentId: string; referenceNo: string }> {
  return real.scenario.createDeposit(siteId, amount);
}

let siteCount = 0;
async function newSite(): Promise<string> {
  siteCount += 1;
  const created = await kasa(['--json', 'sites', 'create', `cli-${siteCount}-${randomUUID().slice(0, 6)}`, '--name', 'CLI Site']);
  expect(created.code).toBe(0);
  return created.json.siteId as string;
}

describe('kasa', () => {
  it('sets up a receiving account precondition through the ops API', async () => {
    const response = await real.scenario.ops('POST', '/receiving-accounts', {
      bankName: 'Test Bankası',
      holderName: 'Kasa A.Ş.',
      iban: makeTrIban(99),
    });
    expect(response.status).toBe(201);
  });

  it('creates a site, issues an API key and revokes it', async () => {
    const site = await kasa([
      '--json',
      'sites',
      'create',
      'cli-demo',
      '--name',
      'Demo Casino',
      '--deposit-ttl',
      '900',
      '--min-amount',
      '10.00',
      '--return-url',
      'https://demo-casino.example/wallet',
    ]);
    expect(site.code).toBe(0);
    expect(site.json).toMatchObject({
      slug: 'cli-demo',
      depositTtlSeconds: 900,
      minAmount: '1000',
      returnUrl: 'https://demo-casino.example/wallet',
    });
    const key = await kasa(['--json', 'keys', 'issue', site.json.siteId]);
    expect(key.json.apiKey).toMatch(/^sk_live_cli-demo_/);
    const human = await kasa(['keys', 'issue', site.json.siteId]);
    expect(human.stdout).toContain('it is shown only now');
    const revoked = await kasa(['--json', 'keys', 'revoke', key.json.apiKeyId]);
    expect(revoked.json).toMatchObject({ apiKeyId: key.json.apiKeyId });
    expect(revoked.json.revokedAt).toEqual(expect.any(String));
  });

  it('records a transfer, approves the intent and prints the balance', async () => {
    const siteId = await newSite();
    const intent = await createDeposit(siteId, '150000');
    const recorded = await kasa([
      'transfers',
      'record',
      '--bank-tx-id',
      `BANK-${randomUUID()}`,
      '--amount',
      '1500.00',
      '--sender-name',
      'Ayşe Yılmaz',
      '--sender-iban',
      'TR33 0006 1005 1978 6457 8413 26',
      '--description',
      `yatirim ${intent.referenceNo.toLowerCase()}`,
    ]);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toContain(`intent ${intent.intentId} is now PENDING_REVIEW`);

    const queue = await kasa(['--json', 'intents', 'list', '--status', 'PENDING_REVIEW', '--site', siteId]);
    expect(queue.json.map((i: { intentId: string }) => i.intentId)).toEqual([intent.intentId]);

    const approved = await kasa(['intents', 'approve', intent.intentId]);
    expect(approved.stdout).toBe(`Intent ${intent.intentId} is now APPROVED (amount 1.500,00 TRY).\n`);

    const balance = await kasa(['--json', 'balances', '--site', siteId]);
    expect(balance.json).toEqual([expect.objectContaining({ siteId, available: '150000', reserved: '0' })]);
    const table = await kasa(['balances']);
    expect(table.stdout).toMatch(/AVAILABLE \(TRY\)[\s\S]*1\.500,00/);
  });

  it('approves exact matches in bulk, each on its own, and says which were not approved', async () => {
    const siteId = await newSite();
    const exact = await createDeposit(siteId, '120000');
    const short = await createDeposit(siteId, '90000');
    const transfer = (amount: string, referenceNo: string) =>
      kasa([
        'transfers',
        'record',
        '--bank-tx-id',
        `BANK-${randomUUID()}`,
        '--amount',
        amount,
        '--sender-name',
        'Ayşe Yılmaz',
        '--sender-iban',
        'TR33 0006 1005 1978 6457 8413 26',
        '--description',
        `yatirim ${referenceNo}`,
      ]);
    expect((await transfer('1200.00', exact.referenceNo)).code).toBe(0);
    expect((await transfer('800.00', short.referenceNo)).code).toBe(0);

    const run = await kasa(['intents', 'approve-exact', exact.intentId, short.intentId]);
    expect(run.code).toBe(1);
    expect(run.stdout.startsWith(`Intent ${exact.intentId} is now APPROVED (amount 1.200,00 TRY).\n`)).toBe(true);
    expect(run.stdout).toMatch(new RegExp(`^Intent ${short.intentId} was not approved: .+ \\(not_exact_match\\)$`, 'm'));
    expect(run.stdout).toMatch(/^Approved 1 of 2\.$/m);
    const queue = await kasa(['--json', 'intents', 'list', '--status', 'PENDING_REVIEW', '--site', siteId]);
    expect(queue.json.map((i: { intentId: string }) => i.intentId)).toEqual([short.intentId]);
    const balance = await kasa(['--json', 'balances', '--site', siteId]);
    expect(balance.json).toEqual([expect.objectContaining({ siteId, available: '120000' })]);
  });

  it('reports a refused action with exit code 1 and the problem, or as JSON with --json', async () => {
    const siteId = await newSite();
    const intent = await createDeposit(siteId, '5000');
    const refused = await kasa(['intents', 'reject', intent.intentId, '--reason', 'no money']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('409 conflict');
    expect(refused.stderr).toContain('RESERVED');
    expect(refused.stderr).toContain('409 conflict (invalid_transition)');
    expect(refused.stderr).toContain('kasa: next: the record has moved on, or is not ready for this yet');
    const asJson = await kasa(['--json', 'intents', 'reject', intent.intentId, '--reason', 'no money']);
    expect(asJson.code).toBe(1);
    expect(asJson.json.error).toMatchObject({ status: 409, error: 'conflict', reason: 'invalid_transition' });
  });

  it('exits 2 on a wrong command line, without calling the API', async () => {
    const missing = await kasa(['intents', 'reject', randomUUID()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--reason <reason>'");
    const badAmount = await kasa(['intents', 'approve', randomUUID(), '--amount', '1.500']);
    expect(badAmount.code).toBe(2);
    const badUserReason = await kasa(['intents', 'reject', randomUUID(), '--reason', 'x', '--user-reason', 'BECAUSE']);
    expect(badUserReason.code).toBe(2);
    expect(badUserReason.stderr).toContain('TRANSFER_NOT_RECEIVED');
  });

  it('runs a withdrawal through approve, mark-sent and mark-returned', async () => {
    const siteId = await newSite();
    const intent = await createDeposit(siteId, '90000');
    await kasa([
      'transfers',
      'record',
      '--bank-tx-id',
      `B-${randomUUID()}`,
      '--amount',
      '900',
      '--sender-name',
      'A B',
      '--sender-iban',
      makeTrIban(5),
      '--description',
      intent.referenceNo,
    ]);
    await kasa(['intents', 'approve', intent.intentId]);
    const { withdrawalId } = await real.scenario.createWithdrawal(siteId, '40000', {
      externalUserId: 'u1',
      targetIban: makeTrIban(6),
      targetHolderName: 'Ali Veli',
    });
    expect((await kasa(['--json', 'withdrawals', 'approve', withdrawalId])).json.status).toBe('APPROVED');
    expect((await kasa(['--json', 'withdrawals', 'mark-sent', withdrawalId, '--bank-tx-id', 'EFT-9'])).json).toMatchObject({
      status: 'SENT',
      sentBankTxId: 'EFT-9',
    });
    expect((await kasa(['--json', 'withdrawals', 'mark-returned', withdrawalId, '--reason', 'closed'])).json.status).toBe('RETURNED');
    const check = await kasa(['journal', 'check']);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('Journal OK');
  });

  it('lists DEAD events and replays them in bulk with a progress bar', async () => {
    const siteId = await newSite();
    const intents = await Promise.all(Array.from({ length: 5 }, () => createDeposit(siteId, '10000')));
    for (const intent of intents) {
      await kasa([
        'transfers',
        'record',
        '--bank-tx-id',
        `D-${randomUUID()}`,
        '--amount',
        '100,00',
        '--sender-name',
        'A B',
        '--sender-iban',
        makeTrIban(7),
        '--description',
        intent.referenceNo,
      ]);
      const userReason = intent === intents[0] ? ['--user-reason', 'TRANSFER_NOT_RECEIVED'] : [];
      expect((await kasa(['intents', 'reject', intent.intentId, '--reason', 'test', ...userReason])).code).toBe(0);
    }
    const db = real.ledger.deps.db;
    const told = await db.deposit.findMany({
      where: { id: { in: intents.map((i) => i.intentId) } },
      select: { rejectedUserReason: true },
    });
    expect(told.map((i) => i.rejectedUserReason).sort()).toEqual(['TRANSFER_NOT_RECEIVED', null, null, null, null]);
    const ids = intents.map((i) => i.intentId);
    // Arrange: every delivery attempt failed (the webhook worker is not part of this test).
    await db.outboxEvent.updateMany({ where: { entityId: { in: ids } }, data: { status: 'DEAD', deadAt: new Date(), attemptCount: 8 } });

    const listed = await kasa(['--json', 'events', 'list', '--status', 'DEAD', '--site', siteId]);
    expect(listed.json).toHaveLength(5);
    expect(listed.json[0]).toMatchObject({ type: 'intent.rejected', status: 'DEAD' });

    const dry = await kasa(['--json', 'events', 'replay-dead', '--site', siteId, '--dry-run']);
    expect(dry.json.dead).toBe(5);
    expect(await db.outboxEvent.count({ where: { entityId: { in: ids }, status: 'DEAD' } })).toBe(5);

    const run = await kasa(['events', 'replay-dead', '--site', siteId, '--concurrency', '2'], { tty: true });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Replayed 5 of 5 DEAD event(s).');
    expect(run.stderr).toContain('Replaying DEAD events');
    expect(run.stderr).toContain('5/5');
    expect(await db.outboxEvent.count({ where: { entityId: { in: ids }, status: 'DEAD' } })).toBe(0);

    const again = await kasa(['--json', 'events', 'replay-dead', '--site', siteId]);
    expect(again.json).toEqual({ total: 0, replayed: 0, failed: [] });
  });

  it('refuses an empty or short --password instead of creating a password-less operator', async () => {
    for (const password of ['', 'short']) {
      const email = `cli-${randomUUID().slice(0, 8)}@kasa.test`;
      const refused = await kasa([
        'operators',
        'create',
        '--email',
        email,
        '--name',
        'Empty',
        '--role',
        'reviewer',
        '--password',
        password,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('at least 12 characters');
      const listed = await kasa(['--json', 'operators', 'list']);
      expect(listed.json.map((o: { email: string }) => o.email)).not.toContain(email);
    }
  });

  it('limits an operator to some sites with --sites, and gives every site back with scope --sites all', async () => {
    const siteId = await newSite();
    const email = `cli-${randomUUID().slice(0, 8)}@kasa.test`;
    const created = await kasa([
      '--json',
      'operators',
      'create',
      '--email',
      email,
      '--name',
      'Scoped',
      '--role',
      'reviewer',
      '--sites',
      siteId,
    ]);
    expect(created.json).toMatchObject({ email, siteIds: [siteId] });
    const listed = await kasa(['operators', 'list']);
    expect(listed.stdout).toContain(siteId);
    const widened = await kasa(['operators', 'scope', created.json.operatorId, '--sites', 'all']);
    expect(widened.code).toBe(0);
    expect(widened.stdout).toContain('every site');
    const unknown = randomUUID();
    const refused = await kasa(['operators', 'scope', created.json.operatorId, '--sites', unknown]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(unknown);
  });

  it('logs an operator in with KASA_PASSWORD; a revoked token then gets 401', async () => {
    const email = `cli-${randomUUID().slice(0, 8)}@kasa.test`;
    const created = await kasa([
      '--json',
      'operators',
      'create',
      '--email',
      email,
      '--name',
      'Reviewer',
      '--role',
      'reviewer',
      '--password',
      'correct horse battery',
    ]);
    expect(created.json).toMatchObject({ email, role: 'REVIEWER' });
    const login = await kasa(['login', '--email', email], { env: { KASA_PASSWORD: 'correct horse battery' } });
    expect(login.code).toBe(0);
    const token = /export KASA_TOKEN=(\S+)/.exec(login.stdout)?.[1] as string;
    expect(token).toMatch(/^kop_/);
    expect((await kasa(['--json', 'whoami'], { token })).json).toMatchObject({ email, role: 'REVIEWER' });

    const forbidden = await kasa(['sites', 'create', 'nope-site', '--name', 'No'], { token });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('403 forbidden');

    const issued = await kasa(['--json', 'tokens', 'issue', '--label', 'nightly script'], { token });
    expect(issued.json.token).toMatch(/^kop_/);
    expect((await kasa(['--json', 'tokens', 'revoke', issued.json.tokenId], { token })).code).toBe(0);
    const denied = await kasa(['whoami'], { token: issued.json.token });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('401 unauthorized');

    const audit = await kasa(['--json', 'audit', '--actor', created.json.operatorId]);
    expect(audit.json.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['OPERATOR.LOGGED_IN', 'OPERATOR_TOKEN.ISSUED', 'OPERATOR_TOKEN.REVOKED']),
    );
  });
});

describe('amounts', () => {
  it('reads amount flags as lira, as the console does', () => {
    expect(parseAmount('1500')).toBe('150000');
    expect(parseAmount('1500.00')).toBe('150000');
    expect(parseAmount('1.500,00')).toBe('150000');
    expect(parseAmount('1,500.00')).toBe('150000');
    expect(parseAmount('12.5')).toBe('1250');
    expect(parseAmount('0.01')).toBe('1');
    for (const bad of ['1.500', '0', '0.00', '-5', '1e5', 'abc', '1500,001']) expect(() => parseAmount(bad)).toThrow(/amounts are lira/);
  });

  it('prints minor units as lira exactly, even beyond 2^53', () => {
    expect(formatAmount('150000')).toBe('1.500,00');
    expect(formatAmount('5')).toBe('0,05');
    expect(formatAmount('900719925474099312')).toBe('9.007.199.254.740.993,12');
  });
});

describe("the operators' desk from the terminal", () => {
  it('finds a deposit by its reference as a user reads it, and lists by --reference and --user', async () => {
    const siteId = await newSite();
    const user = `cli-user-${randomUUID().slice(0, 6)}`;
    const deposit = await real.scenario.createDeposit(siteId, '25000', { externalUserId: user });
    const spoken = `${deposit.referenceNo.slice(0, 4)} ${deposit.referenceNo.slice(4)}`.toLowerCase();
    const found = await kasa(['--json', 'search', ...spoken.split(' ')]);
    expect(found.code).toBe(0);
    expect(found.json.deposits.map((d: { intentId: string }) => d.intentId)).toEqual([deposit.intentId]);
    const human = await kasa(['search', deposit.referenceNo]);
    expect(human.stdout).toMatch(/^Deposits \(1\)$/m);
    expect(human.stdout).toContain(deposit.intentId);

    const byReference = await kasa(['--json', 'intents', 'list', '--reference', spoken]);
    expect(byReference.json.map((i: { intentId: string }) => i.intentId)).toEqual([deposit.intentId]);
    await real.scenario.createDeposit(siteId, '90000', { externalUserId: user });
    const byUser = await kasa(['--json', 'intents', 'list', '--user', user, '--max-amount', '250', '--order', 'oldest']);
    expect(byUser.json.map((i: { intentId: string }) => i.intentId)).toEqual([deposit.intentId]);
    expect((await kasa(['intents', 'list', '--order', 'sideways'])).code).toBe(2);
  });

  it('prints the dashboard, delivery health, sites and keys', async () => {
    const siteId = await newSite();
    const dashboard = await kasa(['dashboard']);
    expect(dashboard.code).toBe(0);
    expect(dashboard.stdout).toMatch(/^Deposits to review\s+\d+/m);
    expect(dashboard.stdout).toMatch(/^Failing partners\s+\d+/m);
    // The figures the console shows besides the queues, as the ops API counts them.
    const counts = (await kasa(['--json', 'dashboard'])).json;
    expect(dashboard.stdout).toMatch(new RegExp(`^Reconciliation differences\\s+${counts.reconciliationDifferences.count}\\b`, 'm'));
    expect(dashboard.stdout).toContain(`Webhook auto-replay, last 24 hours: ${counts.autoReplayed.count} DEAD event`);
    const health = await kasa(['--json', 'deliveries', 'health', '--site', siteId]);
    expect(health.json.data).toEqual([expect.objectContaining({ siteId, attempts: 0, successRate: null })]);
    const sites = await kasa(['sites', 'list']);
    expect(sites.stdout).toContain(siteId);
    expect((await kasa(['--json', 'sites', 'show', siteId])).json.siteId).toBe(siteId);
    const updated = await kasa([
      '--json',
      'sites',
      'update',
      siteId,
      '--rate-limit',
      '5',
      '--max-amount',
      '2.500,00',
      '--return-url',
      'https://cli.example/w',
    ]);
    expect(updated.json).toMatchObject({ rateLimitPerMinute: 5, maxAmount: '250000', returnUrl: 'https://cli.example/w' });
    const cleared = await kasa(['--json', 'sites', 'update', siteId, '--no-return-url']);
    expect(cleared.json).toMatchObject({ rateLimitPerMinute: 5, returnUrl: null });
    expect((await kasa(['sites', 'update', siteId])).code).toBe(1);
    const audit = await kasa(['audit', '--entity', siteId, '--action', 'SITE.SETTINGS_CHANGED']);
    expect(audit.stdout).toContain('rateLimitPerMinute: 60 → 5');
    expect(audit.stdout).toContain('returnUrl: https://cli.example/w → null');
    const issued = await kasa(['--json', 'keys', 'issue', siteId]);
    const keys = await kasa(['keys', 'list', siteId]);
    expect(keys.stdout).toContain(issued.json.apiKeyId);
    expect(keys.stdout).not.toContain(issued.json.apiKey);
  });
});

describe('returns to senders from the terminal', () => {
  it('asks for a return, approves it and marks it sent; a second ask is refused', async () => {
    const loose = await real.scenario.transfer('', '33300', { senderName: 'MEHMET DEMIR' });
    const transferId = (loose.body as { bankTransferId: string }).bankTransferId;
    const asked = await kasa(['--json', 'transfers', 'return', transferId, '--reason', 'Not our customer']);
    expect(asked.json).toMatchObject({ status: 'PENDING_REVIEW', amount: '33300' });
    const again = await kasa(['transfers', 'return', transferId, '--reason', 'again']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409 conflict (transfer_not_returnable)');
    expect(again.stderr).toContain('kasa: next: only unmatched or set-aside transfers');
    const listed = await kasa(['returns', 'list', '--status', 'PENDING_REVIEW', '--order', 'oldest']);
    expect(listed.stdout).toContain(asked.json.returnId);
    expect((await kasa(['returns', 'approve', asked.json.returnId])).stdout).toContain('is now APPROVED');
    expect((await kasa(['returns', 'mark-sent', asked.json.returnId, '--bank-tx-id', 'EFT-9'])).stdout).toContain('is now SENT');
    expect((await kasa(['dashboard'])).stdout).toMatch(/^Returns to send\s+\d+/m);
    const check = await kasa(['journal', 'check']);
    expect(check.code).toBe(0);
  });
});

describe('sandbox records from the terminal', () => {
  it('marks every sandbox record TEST in lists and details, and lists returns of simulated money only with --test', async () => {
    const live = await newSite();
    const issued = await kasa(['--json', 'keys', 'issue', live, '--test']);
    expect(issued.code).toBe(0);
    const twin = issued.json.siteId as string;
    const simulate = (path: string, request: Record<string, unknown> = {}) =>
      real.scenario.internal('POST', `/sites/${twin}/test${path}`, { apiKeyId: issued.json.apiKeyId, request });
    // With the test key only: a deposit paid and approved for less than arrived (its remainder goes back), a withdrawal.
    const deposit = await createDeposit(twin, '20000');
    const paid = await simulate(`/deposits/${deposit.intentId}/transfers`);
    expect(paid.status).toBe(201);
    expect((await simulate(`/deposits/${deposit.intentId}/approve`, { amount: '15000' })).status).toBe(200);
    const withdrawal = await real.scenario.createWithdrawal(twin, '10000');
    const liveDeposit = await createDeposit(live, '5000');

    const rowOf = (stdout: string, id: string) => stdout.split('\n').find((line) => line.includes(id)) ?? '';
    const intents = await kasa(['intents', 'list', '--limit', '100']);
    expect(intents.stdout.split('\n')[0]).toMatch(/MODE$/);
    expect(rowOf(intents.stdout, deposit.intentId)).toMatch(/TEST$/);
    expect(rowOf(intents.stdout, liveDeposit.intentId)).not.toContain('TEST');
    expect(rowOf((await kasa(['withdrawals', 'list', '--site', twin])).stdout, withdrawal.withdrawalId)).toMatch(/TEST$/);
    const transferId = (paid.body as { bankTransferId: string }).bankTransferId;
    expect(rowOf((await kasa(['transfers', 'list', '--limit', '100'])).stdout, transferId)).toMatch(/TEST$/);
    // Transfers and returns are not listed by site (their ops lists take no siteId): the flag is refused, not ignored.
    for (const list of ['transfers', 'returns']) {
      const bySite = await kasa([list, 'list', '--site', twin]);
      expect([bySite.code, bySite.stderr]).toEqual([2, expect.stringContaining("unknown option '--site'")]);
    }
    expect((await kasa(['intents', 'show', deposit.intentId])).stdout).toMatch(/^TEST: a sandbox record/);
    expect((await kasa(['withdrawals', 'show', withdrawal.withdrawalId])).stdout).toMatch(/^TEST: a sandbox record/);
    expect((await kasa(['intents', 'show', liveDeposit.intentId])).stdout).not.toContain('TEST');

    // The remainder's return is the simulator's: not in the live queue, listed TEST with --test.
    const test = await kasa(['--json', 'returns', 'list', '--test']);
    const played = (test.json as Array<{ returnId: string; status: string; livemode: boolean }>).find((r) => r.status === 'SENT');
    expect(played).toMatchObject({ livemode: false });
    expect((await kasa(['returns', 'list'])).stdout).not.toContain(played!.returnId);
    expect(rowOf((await kasa(['returns', 'list', '--test'])).stdout, played!.returnId)).toMatch(/TEST$/);
  });
});

describe('bank statements from the terminal', () => {
  const SAMPLE_IBAN = 'TR180006200119000006672315';
  const sample = (name: string) => readFileSync(new URL(`../../statements/test/samples/${name}`, import.meta.url), 'utf8');
  /** The CSV sample's first statement only (its second is of another account), on `iban`, paying `reference`. */
  const csvFor = (iban: string, reference: string) =>
    sample('statement.csv')
      .split('\n')
      .filter((row) => !row.includes('ZRT-20250314-B'))
      .join('\n')
      .replaceAll(SAMPLE_IBAN.replace(/(.{4})/g, '$1 ').trim(), iban)
      .replaceAll('KD7MX4Q2RH', reference);

  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kasa-cli-statements-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  async function newAccount(): Promise<{ id: string; iban: string }> {
    const iban = makeTrIban(Math.floor(Math.random() * 1e9));
    const created = await real.scenario.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
    expect(created.status).toBe(201);
    return { id: created.body.id as string, iban };
  }

  it('imports a statement file by its extension and prints the counts; again, nothing new', async () => {
    const account = await newAccount();
    const deposit = await createDeposit(await newSite(), '150000');
    const file = join(dir, 'march.csv');
    writeFileSync(file, csvFor(account.iban, deposit.referenceNo));

    const imported = await kasa(['statements', 'import', file, '--account', account.id]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('Imported csv statement ZRT-20250314: 3 lines, 3 new, 0 imported before.');
    expect(imported.stdout).toContain('Transfers: 1 matched, 0 with a suggestion, 1 unmatched');

    const again = await kasa(['--json', 'statements', 'import', file, '--account', account.id]);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ format: 'csv', lines: 3, created: 0, duplicates: 3, matched: 0 });
    const intent = await real.scenario.ops('GET', `/intents/${deposit.intentId}`);
    expect(intent.body.receivedAmount).toBe('150000');
  });

  it('takes --format for a file whose extension says nothing, and refuses to guess without it', async () => {
    const account = await newAccount();
    const file = join(dir, 'export.dat');
    writeFileSync(file, csvFor(account.iban, 'NOREFERENCE'));

    const guessed = await kasa(['statements', 'import', file, '--account', account.id]);
    expect(guessed.code).toBe(1);
    expect(guessed.stderr).toContain('give --format camt, camt052, mt940 or csv');
    expect((await kasa(['statements', 'import', file, '--account', account.id, '--format', 'xls'])).code).toBe(2);

    const imported = await kasa(['--json', 'statements', 'import', file, '--account', account.id, '--format', 'csv']);
    expect(imported.code).toBe(0);
    expect(imported.json).toMatchObject({ format: 'csv', created: 3 });
  });

  it("prints the problem's detail and where the file is wrong", async () => {
    const account = await newAccount();
    const file = join(dir, 'broken.csv');
    writeFileSync(file, csvFor(account.iban, 'X').replace('1500.00', 'fifteen hundred'));

    const refused = await kasa(['statements', 'import', file, '--account', account.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('400 validation_failed: The statement file cannot be read');
    expect(refused.stderr).toMatch(/\(line \d+/);

    const json = await kasa(['--json', 'statements', 'import', file, '--account', account.id]);
    expect(json.code).toBe(1);
    expect(json.json.error).toMatchObject({ status: 400, error: 'validation_failed' });
    expect(json.json.error.errors[0].field).toMatch(/^line \d+/);

    const missing = await kasa(['statements', 'import', join(dir, 'nope.csv'), '--account', account.id]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('ENOENT');
  });

  it('creates a bank connector account', async () => {
    const email = `connector-${randomUUID().slice(0, 8)}@kasa.test`;
    const created = await kasa(['--json', 'operators', 'create', '--email', email, '--name', 'Ziraat feed', '--role', 'connector']);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ email, role: 'CONNECTOR' });
  });
});

describe('kasa sites test-webhook', () => {
  it('refuses a site without a webhook URL with the conflict reason and a hint, and an unknown type before sending', async () => {
    const siteId = await newSite();
    const refused = await kasa(['sites', 'test-webhook', siteId]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('409 conflict (webhook_not_configured)');
    const unknown = await kasa(['sites', 'test-webhook', siteId, '--type', 'intent.exploded']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('--type must be one of');
  });
});
