/**
 * The drill's traffic: a bounded loop that starts about `rps` requests a second (never more than `maxInFlight`
 * at once) as a partner and its operators would make them: deposit and withdrawal creates with an
 * Idempotency-Key through the gateway (a failed one is retried with the same key and body, as a partner does),
 * lookups, a connector's bank lines paying some deposits, and operators' approvals through the ops API.
 * Every request is recorded with its phase; every acknowledged (2xx) write is kept with what it returned.
 */
import { randomUUID } from 'node:crypto';
import { makeTrIban } from '@kasa/testkit';

/** Deposits up to this amount (kuruş) are paid exactly by one line and approved straight through by the site's rule. */
export const STRAIGHT_THROUGH_MAX = 100_000n;
const SMALL_DEPOSIT = '50000';
/** How often the connector posts a receiving account's new lines, and the most one request carries. */
const LINES_EVERY_MS = 500;
const LINES_PER_REQUEST = 50;
const LARGE_DEPOSIT = '150000';

export type RequestKind = 'create-deposit' | 'create-withdrawal' | 'lookup' | 'lines' | 'approve-deposit' | 'approve-withdrawal';

export interface Attempt {
  kind: RequestKind;
  phase: string;
  sentAt: number;
  doneAt: number;
  /** The HTTP status, or 0 when no answer came (refused, reset, timed out). */
  status: number;
  /** A failure's `error` code from the problem body, or the network error's code. */
  error?: string;
}

export interface AckedCreate {
  kind: 'deposit' | 'withdrawal';
  key: string;
  body: Record<string, string>;
  id: string;
  referenceNo: string;
  phase: string;
  ackAt: number;
}

export interface AckedLine {
  bankTxId: string;
  intentId: string;
  amount: string;
  phase: string;
  ackAt: number;
}

export interface AckedApproval {
  kind: 'deposit' | 'withdrawal';
  id: string;
  phase: string;
  ackAt: number;
}

/** A second answer for one Idempotency-Key that named another record: a duplicate the partner saw. */
export interface KeyConflict {
  key: string;
  first: string;
  second: string;
  phase: string;
}

export interface TrafficTargets {
  gatewayUrl: string;
  ledgerUrl: string;
  apiKey: string;
  /** A reviewer's session token: approvals. */
  reviewerToken: string;
  /** A token allowed to post a receiving account's lines (CONNECTOR or ADMIN). */
  connectorToken: string;
  accountId: string;
}

const failed = (status: number) => status === 0 || status >= 500;

interface PendingCreate {
  kind: 'deposit' | 'withdrawal';
  key: string;
  body: Record<string, string>;
  tries: number;
}

export class Traffic {
  phase = 'baseline';
  readonly attempts: Attempt[] = [];
  readonly creates = new Map<string, AckedCreate>();
  readonly lines: AckedLine[] = [];
  readonly approvals: AckedApproval[] = [];
  readonly keyConflicts: KeyConflict[] = [];
  /** Requests not started because `maxInFlight` were still open. */
  skipped = 0;
  private inFlight = 0;
  private stopped = false;
  private readonly retries: PendingCreate[] = [];
  private readonly reserved: AckedCreate[] = [];
  private readonly unpaidLines: { line: Record<string, string>; deposit: AckedCreate; tries: number }[] = [];
  private readonly toApprove: { kind: 'deposit' | 'withdrawal'; id: string; tries: number }[] = [];
  private readonly acked: AckedCreate[] = [];
  private linesOpen = false;
  private linesAt = 0;

  constructor(
    private readonly targets: TrafficTargets,
    private readonly rps: number,
    readonly maxInFlight = 100,
    private readonly timeoutMs = 10_000,
  ) {}

  /** Runs until `stop()`; resolves once every request it started has settled. */
  async run(): Promise<void> {
    const started = Date.now();
    let launched = 0;
    while (!this.stopped) {
      const due = Math.floor(((Date.now() - started) * this.rps) / 1000);
      for (; launched < due; launched += 1) {
        if (this.inFlight >= this.maxInFlight) {
          this.skipped += 1;
          continue;
        }
        this.inFlight += 1;
        void this.one().finally(() => (this.inFlight -= 1));
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const deadline = Date.now() + this.timeoutMs + 2_000;
    while (this.inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  stop(): void {
    this.stopped = true;
  }

  /** One request, chosen by what is waiting (retries first, then the connector's batch when due) and a weighted draw. */
  private one(): Promise<void> {
    const retry = this.retries.shift();
    if (retry) return this.create(retry);
    // A bank connector posts what the bank reported since its last call, every LINES_EVERY_MS, one request at a time.
    if (!this.linesOpen && Date.now() - this.linesAt >= LINES_EVERY_MS && (this.unpaidLines.length > 0 || this.reserved.length > 0)) {
      this.linesOpen = true;
      this.linesAt = Date.now();
      return this.postLines().finally(() => (this.linesOpen = false));
    }
    const draw = Math.random();
    if (draw < 0.15 && this.toApprove.length > 0) return this.approve();
    if (draw < 0.4 && this.acked.length > 0) return this.lookup();
    if (draw < 0.55) return this.create(this.newWithdrawal());
    return this.create(this.newDeposit());
  }

  private newDeposit(): PendingCreate {
    const key = randomUUID();
    const amount = Math.random() < 0.5 ? SMALL_DEPOSIT : LARGE_DEPOSIT;
    return { kind: 'deposit', key, body: { externalUserId: `d-${key}`, amount }, tries: 0 };
  }

  private newWithdrawal(): PendingCreate {
    const key = randomUUID();
    const body = {
      externalUserId: `w-${key}`,
      amount: String(1_000 + Math.floor(Math.random() * 40) * 100),
      targetIban: makeTrIban(Math.floor(Math.random() * 1e9)),
      targetHolderName: 'Ayşe Yılmaz',
    };
    return { kind: 'withdrawal', key, body, tries: 0 };
  }

  private async call(kind: RequestKind, url: string, method: string, headers: Record<string, string>, body?: unknown) {
    const sentAt = Date.now();
    let status = 0;
    let json: Record<string, unknown> = {};
    let error: string | undefined;
    try {
      const response = await fetch(url, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.status;
      json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (status >= 400) error = String(json.error ?? json.reason ?? '');
    } catch (thrown) {
      status = 0;
      const cause = (thrown as { cause?: { code?: string } }).cause;
      error = cause?.code ?? (thrown as Error).name;
    }
    // A request belongs to the phase it ended in: one cut off by a kill is that fault's.
    const phase = this.phase;
    this.attempts.push({ kind, phase, sentAt, doneAt: Date.now(), status, ...(error === undefined ? {} : { error }) });
    return { status, json, phase };
  }

  private partner(kind: RequestKind, method: string, path: string, body?: unknown, key?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.targets.apiKey}` };
    if (key) headers['idempotency-key'] = key;
    return this.call(kind, `${this.targets.gatewayUrl}/api/v1/external${path}`, method, headers, body);
  }

  private ops(kind: RequestKind, path: string, body: unknown, token: string) {
    return this.call(kind, `${this.targets.ledgerUrl}/ops/v1${path}`, 'POST', { authorization: `Bearer ${token}` }, body);
  }

  private async create(pending: PendingCreate): Promise<void> {
    const path = pending.kind === 'deposit' ? '/deposits' : '/withdrawals';
    const { status, json, phase } = await this.partner(`create-${pending.kind}`, 'POST', path, pending.body, pending.key);
    if (status === 201) {
      const id = String(json[pending.kind === 'deposit' ? 'intentId' : 'withdrawalId']);
      const earlier = this.creates.get(pending.key);
      if (earlier && earlier.id !== id) this.keyConflicts.push({ key: pending.key, first: earlier.id, second: id, phase });
      if (earlier) return;
      const acked: AckedCreate = { ...pending, id, referenceNo: String(json.referenceNo), phase, ackAt: Date.now() };
      this.creates.set(pending.key, acked);
      this.acked.push(acked);
      if (pending.kind === 'deposit') this.reserved.push(acked);
      else this.toApprove.push({ kind: 'withdrawal', id, tries: 0 });
      return;
    }
    // A partner retries a create that got no answer or a 5xx, with the same key and body.
    if (failed(status) && pending.tries < 5) this.retries.push({ ...pending, tries: pending.tries + 1 });
  }

  private async lookup(): Promise<void> {
    const record = this.acked[Math.floor(Math.random() * this.acked.length)]!;
    const path = record.kind === 'deposit' ? `/intents/${record.id}` : `/withdrawals/${record.id}`;
    await this.partner('lookup', 'GET', path);
  }

  /** Deposits paid by one request of a connector's lines (a failed request's lines are sent again as they were). */
  private async postLines(): Promise<void> {
    const batch = this.unpaidLines.splice(0, LINES_PER_REQUEST);
    // Not every deposit is paid: about half stay RESERVED, as partners' users abandon some.
    while (batch.length < LINES_PER_REQUEST && this.reserved.length > 0) {
      const deposit = this.reserved.shift()!;
      if (Math.random() < 0.5) continue;
      const line = {
        bankTxId: `drill-${randomUUID()}`,
        direction: 'credit',
        amount: deposit.body.amount!,
        currency: 'TRY',
        receivedAt: new Date().toISOString(),
        senderName: 'Ayşe Yılmaz',
        senderIban: makeTrIban(Math.floor(Math.random() * 1e9)),
        description: `Havale ${deposit.referenceNo}`,
      };
      batch.push({ line, deposit, tries: 0 });
    }
    if (batch.length === 0) return; // every new deposit this time was left unpaid
    const body = { lines: batch.map(({ line }) => line) };
    const { status, phase } = await this.ops(
      'lines',
      `/receiving-accounts/${this.targets.accountId}/lines`,
      body,
      this.targets.connectorToken,
    );
    if (status === 200 || status === 201) {
      for (const { line, deposit } of batch) {
        this.lines.push({ bankTxId: line.bankTxId!, intentId: deposit.id, amount: line.amount!, phase, ackAt: Date.now() });
        if (BigInt(deposit.body.amount!) > STRAIGHT_THROUGH_MAX) this.toApprove.push({ kind: 'deposit', id: deposit.id, tries: 0 });
      }
      return;
    }
    if (failed(status))
      this.unpaidLines.push(...batch.filter((item) => item.tries < 5).map((item) => ({ ...item, tries: item.tries + 1 })));
  }

  private async approve(): Promise<void> {
    const item = this.toApprove.shift()!;
    const path = item.kind === 'deposit' ? `/intents/${item.id}/approve` : `/withdrawals/${item.id}/approve`;
    const { status, phase } = await this.ops(`approve-${item.kind}`, path, {}, this.targets.reviewerToken);
    if (status === 200) this.approvals.push({ kind: item.kind, id: item.id, phase, ackAt: Date.now() });
    else if (failed(status) && item.tries < 5) this.toApprove.push({ ...item, tries: item.tries + 1 });
  }
}
