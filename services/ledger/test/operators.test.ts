import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({
  admin: await h.createOperator('ADMIN'),
  reviewer: await h.createOperator('REVIEWER'),
  site: await h.createSite(),
}));

describe('authentication', () => {
  it('accepts OPS_BOOTSTRAP_TOKEN as an admin acting as "bootstrap"', async () => {
    const { h } = setup;
    const me = await h.ops('GET', '/me');
    expect(me.body).toEqual({
      operatorId: 'bootstrap',
      role: 'ADMIN',
      tokenId: null,
      email: null,
      secondFactor: 'OFF',
      secondFactorAt: null,
      // The bootstrap token is never limited to some sites.
      siteIds: [],
    });
  });

  it('refuses a missing, malformed or unknown token with 401', async () => {
    const { h } = setup;
    expect((await h.ops('GET', '/intents', undefined, '')).status).toBe(401);
    expect((await h.ops('GET', '/intents', undefined, 'kop_not-a-real-token')).status).toBe(401);
    const raw = await fetch(`${h.ledger.url}/ops/v1/balances`);
    expect(raw.status).toBe(401);
  });

  it('logs in with e-mail and password, returning an expiring token stored only as a hash', async () => {
    const { h, reviewer } = setup;
    const session = await h.ops('POST', '/login', { email: reviewer.email.toUpperCase(), password: reviewer.password }, '');
    expect(session.status).toBe(201);
    expect(session.body.token).toMatch(/^kop_[A-Za-z0-9_-]{43}$/);
    expect(session.body.operator).toMatchObject({ operatorId: reviewer.operatorId, role: 'REVIEWER' });
    expect(new Date(session.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 11 * 3600_000);
    const stored = await h.ledger.deps.db.operatorToken.findUniqueOrThrow({ where: { id: session.body.tokenId } });
    expect(stored.tokenHash).toBe(createHash('sha256').update(session.body.token).digest('hex'));
    const operator = await h.ledger.deps.db.operator.findUniqueOrThrow({ where: { id: reviewer.operatorId } });
    expect(operator.passwordHash).toMatch(/^scrypt\$/);
    expect(operator.passwordHash).not.toContain(reviewer.password);
    const me = await h.ops('GET', '/me', undefined, session.body.token);
    expect(me.body).toMatchObject({ operatorId: reviewer.operatorId, role: 'REVIEWER', email: reviewer.email });
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const { h, admin } = setup;
    const wrong = await h.ops('POST', '/login', { email: admin.email, password: 'not the password' }, '');
    const unknown = await h.ops('POST', '/login', { email: 'nobody@kasa.test', password: 'whatever it is' }, '');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
  });

  it('throttles repeated failed logins for one account with 429', async () => {
    const { h } = setup;
    const target = await h.createOperator('REVIEWER');
    const allowance = h.env.config.opsLoginAttemptsPerAccountAddress;
    for (let i = 0; i < allowance; i += 1)
      expect((await h.ops('POST', '/login', { email: target.email, password: 'wrong password' }, '')).status).toBe(401);
    const blocked = await h.ops('POST', '/login', { email: target.email, password: target.password }, '');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('refuses a revoked token with 401 from the next request on', async () => {
    const { h, admin, reviewer } = setup;
    const session = await h.ops('POST', '/login', { email: reviewer.email, password: reviewer.password }, '');
    expect((await h.ops('GET', '/intents', undefined, session.body.token)).status).toBe(200);
    const revoked = await h.ops('DELETE', `/operator-tokens/${session.body.tokenId}`, undefined, admin.token);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expect((await h.ops('GET', '/intents', undefined, session.body.token)).status).toBe(401);
  });

  it('logs out: the token used is revoked', async () => {
    const { h, reviewer } = setup;
    const session = await h.ops('POST', '/login', { email: reviewer.email, password: reviewer.password }, '');
    expect((await h.ops('POST', '/logout', undefined, session.body.token)).status).toBe(200);
    expect((await h.ops('GET', '/me', undefined, session.body.token)).status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const { h, reviewer } = setup;
    const session = await h.ops('POST', '/login', { email: reviewer.email, password: reviewer.password }, '');
    await h.ledger.deps.db.operatorToken.update({ where: { id: session.body.tokenId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await h.ops('GET', '/me', undefined, session.body.token)).status).toBe(401);
  });

  it('refuses an unrevoked token of a disabled account, and accepts it again from the request after re-enabling', async () => {
    const { h } = setup;
    const other = await h.createOperator('REVIEWER');
    expect((await h.ops('GET', '/me', undefined, other.token)).status).toBe(200);
    await h.ledger.deps.db.operator.update({ where: { id: other.operatorId }, data: { disabledAt: new Date() } });
    expect((await h.ops('GET', '/me', undefined, other.token)).status).toBe(401);
    await h.ledger.deps.db.operator.update({ where: { id: other.operatorId }, data: { disabledAt: null } });
    expect((await h.ops('GET', '/me', undefined, other.token)).body.operatorId).toBe(other.operatorId);
  });

  it('disabling an operator kills their tokens and their login', async () => {
    const { h, admin } = setup;
    const leaving = await h.createOperator('REVIEWER');
    expect((await h.ops('POST', `/operators/${leaving.operatorId}/disable`, undefined, admin.token)).body.disabledAt).not.toBeNull();
    expect((await h.ops('GET', '/me', undefined, leaving.token)).status).toBe(401);
    expect((await h.ops('POST', '/login', { email: leaving.email, password: leaving.password }, '')).status).toBe(401);
  });

  it('issues long-lived tokens for scripts: to oneself, or by an admin for anyone', async () => {
    const { h, admin, reviewer } = setup;
    const own = await h.ops('POST', `/operators/${reviewer.operatorId}/tokens`, { label: 'kasa cli' }, reviewer.token);
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ label: 'kasa cli', expiresAt: null, operatorId: reviewer.operatorId });
    expect((await h.ops('GET', '/me', undefined, own.body.token)).body.operatorId).toBe(reviewer.operatorId);
    const forOther = await h.ops('POST', `/operators/${admin.operatorId}/tokens`, {}, reviewer.token);
    expect(forOther.status).toBe(403);
    const byAdmin = await h.ops('POST', `/operators/${reviewer.operatorId}/tokens`, { expiresInSeconds: 3600 }, admin.token);
    expect(byAdmin.status).toBe(201);
    const othersToken = await h.ops(
      'DELETE',
      `/operator-tokens/${byAdmin.body.tokenId}`,
      undefined,
      (await h.createOperator('REVIEWER')).token,
    );
    expect(othersToken.status).toBe(403);
  });
});

describe('roles', () => {
  it('lets a reviewer review but not provision: 403 and nothing created', async () => {
    const { h, site, reviewer } = setup;
    const sitesBefore = await h.ledger.deps.db.site.count();
    const attempts = await Promise.all([
      h.ops('POST', '/sites', { slug: 'reviewer-made', name: 'No' }, reviewer.token),
      h.ops('POST', `/sites/${site.siteId}/api-keys`, {}, reviewer.token),
      h.ops('DELETE', '/api-keys/00000000-0000-4000-8000-000000000000', undefined, reviewer.token),
      h.ops('POST', '/receiving-accounts', { bankName: 'X Bank', holderName: 'Kasa', iban: 'TR330006100519786457841326' }, reviewer.token),
      h.ops('POST', '/operators', { email: 'new@kasa.test', name: 'New', role: 'ADMIN', password: 'long enough password' }, reviewer.token),
      h.ops('GET', '/operators', undefined, reviewer.token),
    ]);
    for (const attempt of attempts) {
      expect(attempt.status).toBe(403);
      expect(attempt.body.error).toBe('forbidden');
    }
    expect(await h.ledger.deps.db.site.count()).toBe(sitesBefore);
    expect(await h.ledger.deps.db.operator.count({ where: { email: 'new@kasa.test' } })).toBe(0);
  });

  it('lets a reviewer record transfers, approve and reject, and read queues, balances and the audit log', async () => {
    const { h, site, reviewer } = setup;
    const deposit = await h.createDeposit(site, 20000);
    expect((await h.transfer(deposit.referenceNo, 20000)).status).toBe(201);
    expect((await h.ops('POST', `/intents/${deposit.intentId}/approve`, {}, reviewer.token)).status).toBe(200);
    const { withdrawalId } = await h.createWithdrawal(site, 5000);
    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/approve`, {}, reviewer.token)).status).toBe(200);
    expect((await h.ops('POST', `/withdrawals/${withdrawalId}/mark-sent`, {}, reviewer.token)).status).toBe(200);
    for (const path of [
      '/intents',
      '/withdrawals',
      '/bank-transfers',
      '/balances',
      '/audit',
      '/journal/check',
      '/receiving-accounts',
      '/events?status=DEAD',
    ]) {
      expect((await h.ops('GET', path, undefined, reviewer.token)).status).toBe(200);
    }
  });

  it('lets a non-bootstrap admin provision sites and keys', async () => {
    const { h, admin } = setup;
    const created = await h.ops('POST', '/sites', { slug: `adm-${Date.now()}`, name: 'Admin made' }, admin.token);
    expect(created.status).toBe(201);
    expect((await h.ops('POST', `/sites/${created.body.siteId}/api-keys`, {}, admin.token)).status).toBe(201);
  });
});

describe('audit log', () => {
  it('records each action with the operator who took it, readable through GET /ops/v1/audit', async () => {
    const { h, site, admin, reviewer } = setup;
    const deposit = await h.createDeposit(site, 30000);
    await h.transfer(deposit.referenceNo, 30000, {}); // recorded by the bootstrap admin
    await h.ops('POST', `/intents/${deposit.intentId}/reject`, { reason: 'Wrong sender' }, reviewer.token);
    const audit = await h.ops('GET', `/audit?entityId=${deposit.intentId}`, undefined, admin.token);
    expect(audit.status).toBe(200);
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['INTENT.REJECTED', 'INTENT.PENDING_REVIEW']);
    expect(audit.body.data[0]).toMatchObject({
      actor: { type: 'OPERATOR', id: reviewer.operatorId, email: reviewer.email },
      entityType: 'deposit_intent',
      siteId: site.siteId,
      metadata: { from: 'PENDING_REVIEW', to: 'REJECTED', reason: 'Wrong sender' },
    });
    expect(audit.body.data[1].actor).toMatchObject({ type: 'OPERATOR', id: 'bootstrap' });
    expect(new Date(audit.body.data[0].createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('filters by actor and pages with a cursor bound to the filters', async () => {
    const { h, admin, reviewer } = setup;
    const byReviewer = await h.ops('GET', `/audit?actorId=${reviewer.operatorId}&limit=2`, undefined, admin.token);
    expect(byReviewer.body.data).toHaveLength(2);
    for (const entry of byReviewer.body.data) expect(entry.actor.id).toBe(reviewer.operatorId);
    expect(byReviewer.body.nextCursor).not.toBeNull();
    const next = await h.ops(
      'GET',
      `/audit?actorId=${reviewer.operatorId}&limit=2&cursor=${byReviewer.body.nextCursor}`,
      undefined,
      admin.token,
    );
    expect(next.status).toBe(200);
    const tampered = await h.ops('GET', `/audit?actorId=bootstrap&limit=2&cursor=${byReviewer.body.nextCursor}`, undefined, admin.token);
    expect(tampered.status).toBe(400);
  });

  it('records operator management itself: creation, login, token revocation', async () => {
    const { h } = setup;
    const fresh = await h.createOperator('REVIEWER');
    const created = await h.ops('GET', `/audit?entityId=${fresh.operatorId}`);
    expect(created.body.data.map((e: { action: string }) => e.action)).toContain('OPERATOR.CREATED');
    const logins = await h.ops('GET', `/audit?actorId=${fresh.operatorId}&action=OPERATOR.LOGGED_IN`);
    expect(logins.body.data).toHaveLength(1);
  });
});
