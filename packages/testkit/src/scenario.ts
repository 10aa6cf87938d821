/**
 * The one scenario builder every harness uses: sites, keys, operators, deposits, withdrawals and bank
 * transfers made over real HTTP against a running ledger (ops API with an operator token, internal API as
 * the gateway calls it). HTTP only, so this package never depends on a service.
 */
import { createHash, randomUUID } from 'node:crypto';
import { expectStatus, httpJson, type HttpResult } from './http-json.js';
import { makeTrIban } from './iban.js';

/** Where the ledger is and the two secrets a scenario acts with. */
export interface ScenarioOptions {
  /** The ledger's base URL, or a function for a ledger that may restart on another port. */
  ledgerUrl: string | (() => string);
  /** The token ops calls carry by default (normally OPS_BOOTSTRAP_TOKEN, the first admin). */
  opsToken: string;
  internalToken: string;
  /** Starts every generated site slug, e.g. `s` gives `s-<pid>-<n>-<random>`. */
  slugPrefix?: string;
}

export interface ScenarioSite {
  siteId: string;
  slug: string;
}

export interface ScenarioApiKey {
  apiKey: string;
  apiKeyId: string;
}

export interface ScenarioOperator {
  operatorId: string;
  email: string;
  password: string;
}

export interface ScenarioDeposit {
  intentId: string;
  referenceNo: string;
  expiresAt: string;
}

export interface ScenarioWithdrawal {
  withdrawalId: string;
  referenceNo: string;
}

/** Builds test data through a ledger's real HTTP API; every step that must succeed throws otherwise. */
export class Scenario {
  private counter = 0;
  /** The first receiving account this scenario added: where its hand-recorded transfers arrive unless told otherwise. */
  private receivingAccountId: string | null = null;

  constructor(private readonly options: ScenarioOptions) {}

  /** The ledger's base URL now. */
  get ledgerUrl(): string {
    const { ledgerUrl } = this.options;
    return typeof ledgerUrl === 'string' ? ledgerUrl : ledgerUrl();
  }

  /** A value no other call (in any test process) produces. */
  unique(): string {
    this.counter += 1;
    return `${process.pid}-${this.counter}-${randomUUID().slice(0, 6)}`;
  }

  /** Calls `/ops/v1<path>` with `token` (default: the scenario's ops token) as the bearer. */
  ops(method: string, path: string, body?: unknown, token = this.options.opsToken): Promise<HttpResult> {
    return httpJson(`${this.ledgerUrl}/ops/v1${path}`, method, { authorization: `Bearer ${token}` }, body);
  }

  /** Calls `/internal/v1<path>` with the internal token, as the gateway does. */
  internal(method: string, path: string, body?: unknown): Promise<HttpResult> {
    return httpJson(`${this.ledgerUrl}/internal/v1${path}`, method, { 'x-internal-token': this.options.internalToken }, body);
  }

  /** Adds the receiving bank account deposits are sent to; `overrides` replace any field. */
  async createReceivingAccount(overrides: Record<string, unknown> = {}): Promise<HttpResult> {
    const account = {
      bankName: 'Test Bankası',
      holderName: 'Kasa Ödeme A.Ş.',
      iban: makeTrIban(Math.floor(Math.random() * 1e9)),
      ...overrides,
    };
    const created = expectStatus(await this.ops('POST', '/receiving-accounts', account), 201, 'receiving account');
    this.receivingAccountId ??= (created.body as { id: string }).id;
    return created;
  }

  /** Creates a site with a fresh slug; `overrides` go into the create body. */
  async createSite(overrides: Record<string, unknown> = {}): Promise<ScenarioSite> {
    const slug = `${this.options.slugPrefix ?? 's'}-${this.unique()}`.toLowerCase().replace(/[^a-z0-9-]/g, '');
    const site = expectStatus(await this.ops('POST', '/sites', { slug, name: `Site ${slug}`, ...overrides }), 201, 'create site');
    return { siteId: (site.body as { siteId: string }).siteId, slug };
  }

  /** Issues an API key for the site; the secret is only in this answer. */
  async issueApiKey(siteId: string): Promise<ScenarioApiKey> {
    const key = expectStatus(await this.ops('POST', `/sites/${siteId}/api-keys`, {}), 201, 'issue key');
    const { apiKey, apiKeyId } = key.body as ScenarioApiKey;
    return { apiKey, apiKeyId };
  }

  /** Creates an operator account with a random password (not logged in; see {@link Scenario.login}). */
  async createOperator(role: 'REVIEWER' | 'ADMIN'): Promise<ScenarioOperator> {
    const email = `op-${this.unique()}@kasa.test`;
    const password = `pw-${randomUUID()}`;
    const created = expectStatus(
      await this.ops('POST', '/operators', { email, name: `Operator ${role}`, role, password }),
      201,
      'create operator',
    );
    return { operatorId: (created.body as { operatorId: string }).operatorId, email, password };
  }

  /** Logs an operator in and returns the session's bearer token. */
  async login(operator: { email: string; password: string }): Promise<string> {
    const session = await httpJson(`${this.ledgerUrl}/ops/v1/login`, 'POST', {}, { email: operator.email, password: operator.password });
    return (expectStatus(session, 201, 'login').body as { token: string }).token;
  }

  /** A partner create as the gateway sends it: the envelope with an idempotency key and the body's fingerprint. */
  async partnerCreate(siteId: string, kind: 'deposits' | 'withdrawals', request: Record<string, unknown>): Promise<HttpResult> {
    const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('hex');
    return this.internal('POST', `/sites/${siteId}/${kind}`, { idempotencyKey: randomUUID(), fingerprint, request });
  }

  /** Creates a deposit intent for a fresh user; `extra` adds or replaces request fields. */
  async createDeposit(siteId: string, amount: string | number, extra: Record<string, unknown> = {}): Promise<ScenarioDeposit> {
    const request = { externalUserId: `u-${this.unique()}`, amount: String(amount), ...extra };
    return expectStatus(await this.partnerCreate(siteId, 'deposits', request), 201, 'create deposit').body as ScenarioDeposit;
  }

  /** Creates a withdrawal to a valid IBAN for a fresh user; `extra` adds or replaces request fields. */
  async createWithdrawal(siteId: string, amount: string | number, extra: Record<string, unknown> = {}): Promise<ScenarioWithdrawal> {
    const request = {
      externalUserId: `u-${this.unique()}`,
      amount: String(amount),
      targetIban: makeTrIban(7_000_000 + this.counter),
      targetHolderName: 'Ayşe Yılmaz',
      ...extra,
    };
    return expectStatus(await this.partnerCreate(siteId, 'withdrawals', request), 201, 'create withdrawal').body as ScenarioWithdrawal;
  }

  /**
   * Records a bank transfer whose description carries `reference` (pass '' for none) on the scenario's first receiving
   * account (a hand entry names its account once several are active); the answer is not checked.
   */
  transfer(reference: string, amount: string | number, overrides: Record<string, unknown> = {}): Promise<HttpResult> {
    const account = this.receivingAccountId ? { receivingAccountId: this.receivingAccountId } : {};
    return this.ops('POST', '/bank-transfers', bankTransferBody(reference, amount, { ...account, ...overrides }));
  }

  /** Approves a deposit that is waiting for review. */
  async approveDeposit(intentId: string, body: Record<string, unknown> = {}): Promise<HttpResult> {
    return expectStatus(await this.ops('POST', `/intents/${intentId}/approve`, body), 200, 'approve intent');
  }

  /** Puts `amount` on the site's available balance: a deposit, its transfer and its approval. */
  async fund(siteId: string, amount: string | number): Promise<void> {
    const deposit = await this.createDeposit(siteId, amount);
    expectStatus(await this.transfer(deposit.referenceNo, amount), 201, 'fund transfer');
    await this.approveDeposit(deposit.intentId);
  }
}

/**
 * The body of `POST /ops/v1/bank-transfers` for a fresh transfer (its own bankTxId, received now) whose
 * description carries `reference` (pass '' for none); `overrides` replace any field.
 */
export function bankTransferBody(reference: string, amount: string | number, overrides: Record<string, unknown> = {}) {
  return {
    bankTxId: `tx-${randomUUID()}`,
    amount: String(amount),
    senderName: 'Ayşe Yılmaz',
    senderIban: makeTrIban(Math.floor(Math.random() * 1e9)),
    description: reference ? `Havale ${reference} yatirim` : 'Havale',
    receivedAt: new Date().toISOString(),
    ...overrides,
  };
}
