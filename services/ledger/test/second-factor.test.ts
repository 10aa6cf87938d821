/**
 * The operator second factor (docs/operations.md, Two-factor authentication): TOTP enrollment, login with and
 * without the code, recovery codes, step-up for large approvals, throttling of wrong codes, OPERATOR_2FA_REQUIRED,
 * and the secret never shown or logged after enrollment. The test plays the authenticator app with the secret the
 * enrollment answered, on the ledger's own clock.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import winston from 'winston';
import { createLogger } from '@kasa/logger';
import { httpJson } from '@kasa/testkit';
import { startLedgerHarness, TestClock, type LedgerHarness, type TestOperator, type TestSite } from './harness.js';
import { totpCodeAt } from '../src/operators/totp.js';

const STEP_MS = 30_000;
/** Approvals above 1,000.00 TL need a fresh code in these tests. */
const STEP_UP_ABOVE = '100000';

function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ service: 'ledger', level: 'debug', transports: [new winston.transports.Stream({ stream })] });
  return { logger, text: () => lines.join('') };
}

const clock = new TestClock();
const logs = capturedLogger();
let h: LedgerHarness;
let site: TestSite;

beforeAll(async () => {
  h = await startLedgerHarness(
    { STEP_UP_ABOVE_KURUS: STEP_UP_ABOVE, OPS_LOGIN_ATTEMPTS_PER_ACCOUNT_ADDRESS: '5', OPS_LOGIN_WINDOW_SECONDS: '900' },
    { clock, logger: logs.logger },
  );
  site = await h.createSite();
});
afterAll(async () => {
  await h?.stop();
});

const login = (operator: { email: string; password: string }, code?: string, address = '198.51.100.1') =>
  httpJson(
    `${h.ledger.url}/ops/v1/login`,
    'POST',
    { 'x-internal-token': h.env.config.internalToken, 'x-kasa-client-address': address },
    { email: operator.email, password: operator.password, ...(code === undefined ? {} : { code }) },
  );

/** The app's code now; each call moves the clock to the next step first, since a step is accepted only once. */
function nextCode(secret: string): string {
  clock.advance(STEP_MS);
  return totpCodeAt(secret, clock.now());
}

interface Enrolled extends TestOperator {
  secret: string;
  otpauthUri: string;
  recoveryCodes: string[];
}

async function enrolledOperator(role: 'REVIEWER' | 'ADMIN' = 'REVIEWER'): Promise<Enrolled> {
  const operator = await h.createOperator(role);
  const started = await h.ops('POST', '/me/2fa/enroll', undefined, operator.token);
  expect(started.status).toBe(201);
  const confirmed = await h.ops('POST', '/me/2fa/confirm', { code: nextCode(started.body.secret) }, operator.token);
  expect(confirmed.status).toBe(200);
  return { ...operator, secret: started.body.secret, otpauthUri: started.body.otpauthUri, recoveryCodes: confirmed.body.recoveryCodes };
}

describe('enrollment', () => {
  it('answers the secret, its otpauth URI and QR once, and turns the factor on only with a right first code', async () => {
    const operator = await h.createOperator('REVIEWER');
    const started = await h.ops('POST', '/me/2fa/enroll', undefined, operator.token);
    expect(started.status).toBe(201);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(started.body.otpauthUri).toMatch(/^otpauth:\/\/totp\/Kasa:.+\?.*secret=/);
    expect(started.body.otpauthUri).toContain(started.body.secret);
    expect(started.body.qrDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);

    // Pending: not on yet, so login does not ask for a code.
    expect((await h.ops('GET', '/me', undefined, operator.token)).body).toMatchObject({ secondFactor: 'OFF' });
    expect((await login(operator)).status).toBe(201);

    const wrong = await h.ops('POST', '/me/2fa/confirm', { code: '000000' }, operator.token);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'unauthorized', reason: 'otp_invalid' });

    const confirmed = await h.ops('POST', '/me/2fa/confirm', { code: nextCode(started.body.secret) }, operator.token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    expect((await h.ops('GET', '/me', undefined, operator.token)).body).toMatchObject({ secondFactor: 'ENROLLED' });

    const again = await h.ops('POST', '/me/2fa/enroll', undefined, operator.token);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('otp_already_enrolled');

    // At rest: the secret sealed, the recovery codes hashed.
    const row = await h.ledger.deps.db.operator.findUniqueOrThrow({ where: { id: operator.operatorId }, include: { recoveryCodes: true } });
    expect(row.totpSecretEnc).toMatch(/^v1\./);
    expect(row.totpSecretEnc).not.toContain(started.body.secret);
    expect(row.recoveryCodes.map((code) => code.codeHash)).not.toEqual(expect.arrayContaining(confirmed.body.recoveryCodes));
  });

  it('refuses the bootstrap token, which is configuration', async () => {
    const refused = await h.ops('POST', '/me/2fa/enroll');
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('bootstrap_token');
  });
});

describe('login with a second factor', () => {
  it('answers 401 otp_required without the code, otp_invalid with a wrong one, and a token with the right one', async () => {
    const operator = await enrolledOperator();

    const without = await login(operator);
    expect(without.status).toBe(401);
    expect(without.body).toMatchObject({ error: 'unauthorized', reason: 'otp_required' });
    expect(without.body).not.toHaveProperty('token');

    const wrong = await login(operator, '123456');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'unauthorized', reason: 'otp_invalid' });

    const code = nextCode(operator.secret);
    const right = await login(operator, code);
    expect(right.status).toBe(201);
    expect(right.body.operator.secondFactorEnrolledAt).toEqual(expect.any(String));

    // A code is accepted once: the same one again (same time step) is refused.
    expect((await login(operator, code)).body.reason).toBe('otp_invalid');
  });

  it('still answers the same 401 without a reason to a wrong password, code or not', async () => {
    const operator = await enrolledOperator();
    const wrong = await login({ email: operator.email, password: 'not the password' }, nextCode(operator.secret));
    expect(wrong.status).toBe(401);
    expect(wrong.body).not.toHaveProperty('reason');
  });

  it('takes a recovery code in place of the code, once', async () => {
    const operator = await enrolledOperator();
    const [recovery] = operator.recoveryCodes as [string];
    expect((await login(operator, recovery.toUpperCase())).status).toBe(201);
    const reused = await login(operator, recovery);
    expect(reused.status).toBe(401);
    expect(reused.body.reason).toBe('otp_invalid');
    const audit = await h.ledger.deps.db.auditLog.findMany({
      where: { entityId: operator.operatorId, action: 'OPERATOR.RECOVERY_CODE_USED' },
    });
    expect(audit).toHaveLength(1);
  });
});

describe('throttling of wrong codes', () => {
  it('counts wrong codes against the allowance and answers 429 once it is used up, even to the right code', async () => {
    const operator = await enrolledOperator();
    const allowance = h.env.config.opsLoginAttemptsPerAccountAddress;
    for (let i = 0; i < allowance; i++) {
      const wrong = await h.ops('POST', '/me/2fa/verify', { code: String(100000 + i) }, operator.token);
      expect(wrong.body.reason).toBe('otp_invalid');
    }
    const blocked = await h.ops('POST', '/me/2fa/verify', { code: nextCode(operator.secret) }, operator.token);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('rate_limited');
    // From any address: the allowance is the operator's, so a stolen password cannot spread its guesses.
    const elsewhere = await login(operator, nextCode(operator.secret), '203.0.113.99');
    expect(elsewhere.status).toBe(429);
  });
});

describe('step-up for large approvals', () => {
  it('asks for a code entered in the last ten minutes to approve more than STEP_UP_ABOVE_KURUS', async () => {
    const operator = await enrolledOperator();
    await h.fund(site, 500000);
    const large = await h.createWithdrawal(site, 200000);
    const small = await h.createWithdrawal(site, 50000);

    // Enrolled just now (a code on this token): within ten minutes.
    clock.advance(11 * 60_000);
    const stale = await h.ops('POST', `/withdrawals/${large.withdrawalId}/approve`, {}, operator.token);
    expect(stale.status).toBe(403);
    expect(stale.body).toMatchObject({ error: 'forbidden', reason: 'step_up_required' });
    // At or below the threshold, no code is asked for.
    expect((await h.ops('POST', `/withdrawals/${small.withdrawalId}/approve`, {}, operator.token)).status).toBe(200);

    const verified = await h.ops('POST', '/me/2fa/verify', { code: nextCode(operator.secret) }, operator.token);
    expect(verified.status).toBe(200);
    expect(Date.parse(verified.body.stepUpUntil) - Date.parse(verified.body.secondFactorAt)).toBe(10 * 60_000);
    clock.advance(9 * 60_000);
    expect((await h.ops('POST', `/withdrawals/${large.withdrawalId}/approve`, {}, operator.token)).status).toBe(200);
  });

  it('guards deposit approvals and returns to senders too, and a login with a code counts', async () => {
    const operator = await enrolledOperator();
    const deposit = await h.createDeposit(site, 150000);
    await h.transfer(deposit.referenceNo, 150000);
    const loose = await h.transfer('', 120000);
    const asked = await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, { reason: 'No deposit' }, operator.token);
    expect(asked.status).toBe(201);

    clock.advance(11 * 60_000);
    const refusedDeposit = await h.ops('POST', `/intents/${deposit.intentId}/approve`, {}, operator.token);
    expect(refusedDeposit.body.reason).toBe('step_up_required');
    const refusedReturn = await h.ops('POST', `/sender-returns/${asked.body.returnId}/approve`, {}, operator.token);
    expect(refusedReturn.status).toBe(403);
    expect(refusedReturn.body.reason).toBe('step_up_required');

    const session = await login(operator, nextCode(operator.secret));
    const token = session.body.token as string;
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {}, token)).status).toBe(200);
    expect((await h.ops('POST', `/sender-returns/${asked.body.returnId}/approve`, {}, token)).status).toBe(200);
  });

  it('refuses an operator without a second factor, and checks the amount entered on a deposit', async () => {
    const reviewer = await h.createOperator('REVIEWER');
    const deposit = await h.createDeposit(site, 150000);
    await h.transfer(deposit.referenceNo, 150000);
    const refused = await h.ops('POST', `/intents/${deposit.intentId}/approve`, {}, reviewer.token);
    expect(refused.body).toMatchObject({ status: 403, reason: 'step_up_required' });
    expect(refused.body.detail).toMatch(/turn on two-factor authentication/);
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, { amount: '90000' }, reviewer.token)).status).toBe(200);
  });
});

describe('turning it off', () => {
  it("needs a code for one's own, and none for an admin turning off someone else's", async () => {
    const operator = await enrolledOperator();
    const path = `/operators/${operator.operatorId}/2fa/disable`;
    expect((await h.ops('POST', path, {}, operator.token)).status).toBe(400);
    const off = await h.ops('POST', path, { code: nextCode(operator.secret) }, operator.token);
    expect(off.status).toBe(200);
    expect(off.body.secondFactorEnrolledAt).toBeNull();
    expect((await login(operator)).status).toBe(201);

    const other = await enrolledOperator();
    const reviewer = await h.createOperator('REVIEWER');
    expect((await h.ops('POST', `/operators/${other.operatorId}/2fa/disable`, {}, reviewer.token)).status).toBe(403);
    const admin = await h.createOperator('ADMIN');
    expect((await h.ops('POST', `/operators/${other.operatorId}/2fa/disable`, {}, admin.token)).status).toBe(200);
    expect((await h.ops('POST', `/operators/${other.operatorId}/2fa/disable`, {}, admin.token)).body.reason).toBe('otp_not_enrolled');
  });
});

describe('the secret after enrollment', () => {
  it('is in no answer and no log line', async () => {
    const operator = await enrolledOperator('ADMIN');
    const session = await login(operator, nextCode(operator.secret));
    const answers = [
      session.body,
      (await h.ops('GET', '/me', undefined, operator.token)).body,
      (await h.ops('GET', '/operators', undefined, operator.token)).body,
      (await h.ops('GET', `/audit?entityId=${operator.operatorId}`, undefined, operator.token)).body,
      (await h.ops('POST', '/me/2fa/verify', { code: nextCode(operator.secret) }, operator.token)).body,
    ].map((body) => JSON.stringify(body));
    const logged = logs.text();
    expect(logged.length).toBeGreaterThan(0);
    for (const text of [...answers, logged]) {
      expect(text).not.toContain(operator.secret);
      expect(text).not.toContain('otpauth://totp');
      for (const code of operator.recoveryCodes) expect(text).not.toContain(code);
    }
  });
});

describe('OPERATOR_2FA_REQUIRED', () => {
  let strict: LedgerHarness;
  beforeAll(async () => {
    strict = await startLedgerHarness({ OPERATOR_2FA_REQUIRED: 'REVIEWER' }, { clock });
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('lets a required operator without a second factor log in only to enroll it', async () => {
    const reviewer = await strict.createOperator('REVIEWER');
    expect((await strict.ops('GET', '/me', undefined, reviewer.token)).body).toMatchObject({ secondFactor: 'REQUIRED' });
    const refused = await strict.ops('GET', '/intents', undefined, reviewer.token);
    expect(refused.status).toBe(403);
    expect(refused.body.reason).toBe('otp_enrollment_required');

    const started = await strict.ops('POST', '/me/2fa/enroll', undefined, reviewer.token);
    expect(started.status).toBe(201);
    clock.advance(STEP_MS);
    const confirmed = await strict.ops('POST', '/me/2fa/confirm', { code: totpCodeAt(started.body.secret, clock.now()) }, reviewer.token);
    expect(confirmed.status).toBe(200);
    expect((await strict.ops('GET', '/intents', undefined, reviewer.token)).status).toBe(200);

    // Admins are not required here.
    const admin = await strict.createOperator('ADMIN');
    expect((await strict.ops('GET', '/intents', undefined, admin.token)).status).toBe(200);
  });
});
