import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPublicKey, verify } from 'node:crypto';
import { canonicalJson } from '@kasa/contracts';
import { partner, ISO_MS, UUID } from './partner-client.js';
import { startHarness, validIban, type Harness, type TestSite } from './harness.js';

/**
 * Partners' balance movements (`GET /balance-transactions`) and signed daily statements (`GET /balance-statements/...`)
 * through the real gateway and ledger: what each movement says, paging, and the boundary between sites and modes; a
 * statement's day, figures, signature and stable bytes. Statement days must be over, so a test moves its own site's
 * journal entries back in PostgreSQL (the entries of no other site are touched).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

type Client = ReturnType<typeof partner>;

/** A deposit of `amount` credited to the site: created, paid, approved. */
async function deposit(client: Client, amount: string): Promise<{ intentId: string; referenceNo: string }> {
  const created = await client.createDeposit({ amount });
  expect(created.status).toBe(201);
  const { intentId, referenceNo } = created.body as { intentId: string; referenceNo: string };
  const transfer = await h.ops('POST', '/ops/v1/bank-transfers', {
    bankTxId: `tx-${intentId}`,
    amount,
    currency: 'TRY',
    senderName: 'Ayşe Yılmaz',
    senderIban: validIban(Number.parseInt(intentId.slice(0, 6), 16)),
    description: referenceNo,
    receivedAt: new Date().toISOString(),
  });
  expect(transfer.status).toBe(201);
  expect((await h.ops('POST', `/ops/v1/intents/${intentId}/approve`, {})).status).toBe(200);
  return { intentId, referenceNo };
}

async function withdrawal(client: Client, amount: string): Promise<{ withdrawalId: string; referenceNo: string }> {
  const created = await client.createWithdrawal({ amount });
  expect(created.status).toBe(201);
  return created.body as { withdrawalId: string; referenceNo: string };
}

const op = async (path: string, body: unknown = {}) => expect((await h.ops('POST', `/ops/v1${path}`, body)).status).toBe(200);

/** Every movement of the site, newest first, page by page. */
async function allMovements(client: Client, query = ''): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const page = await client.get(`/api/v1/external/balance-transactions?limit=2${query}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(page.status).toBe(200);
    items.push(...page.body.data);
    cursor = page.body.nextCursor;
  } while (cursor);
  return items;
}

/** Moves every journal entry of one site back by `days` days (its statement days must be over). */
async function backdate(siteId: string, days: number, entryIds?: string[]): Promise<void> {
  await h.ledger.deps.db.$executeRawUnsafe(
    `UPDATE journal_entries SET created_at = created_at - make_interval(days => $2) WHERE site_id = $1::uuid ${
      entryIds ? 'AND id = ANY($3::uuid[])' : ''
    }`,
    siteId,
    days,
    ...(entryIds ? [entryIds] : []),
  );
}

/** The calendar day in Istanbul (UTC+3) of an instant. */
const istanbulDate = (instant: Date) => new Date(instant.getTime() + 3 * 3600_000).toISOString().slice(0, 10);

/** A site with a deposit, a withdrawal sent and returned, and one approved then rejected. */
async function busySite(): Promise<{ site: TestSite; client: Client; ids: Record<string, string> }> {
  const site = await h.createSite();
  const client = partner(h.gateway.url, site);
  const credited = await deposit(client, '200000');
  const returned = await withdrawal(client, '50000');
  await op(`/withdrawals/${returned.withdrawalId}/approve`);
  await op(`/withdrawals/${returned.withdrawalId}/mark-sent`);
  await op(`/withdrawals/${returned.withdrawalId}/mark-returned`, { reason: 'Returned by the receiving bank: account closed.' });
  const released = await withdrawal(client, '30000');
  await op(`/withdrawals/${released.withdrawalId}/approve`);
  await op(`/withdrawals/${released.withdrawalId}/reject`, { reason: 'Target IBAN is closed.' });
  return {
    site,
    client,
    ids: {
      intentId: credited.intentId,
      depositRef: credited.referenceNo,
      returnedId: returned.withdrawalId,
      returnedRef: returned.referenceNo,
      releasedId: released.withdrawalId,
    },
  };
}

describe('GET /balance-transactions', () => {
  it("lists each movement of the site's available and reserved balances, newest first, signed and with its cause", async () => {
    const { client, ids } = await busySite();
    const items = await allMovements(client);
    // Oldest first, one group per posting (its legs share their time; within it the order is the ids').
    const postings = new Map<string, string[][]>();
    for (const item of [...items].reverse()) {
      postings.set(item.createdAt, [...(postings.get(item.createdAt) ?? []), [item.type, item.balance, item.amount]].sort());
    }
    expect([...postings.values()]).toEqual([
      [['deposit', 'available', '200000']],
      // Approval: out of available, into reserved.
      [
        ['withdrawal_reserved', 'available', '-50000'],
        ['withdrawal_reserved', 'reserved', '50000'],
      ],
      [['withdrawal_sent', 'reserved', '-50000']],
      [['withdrawal_returned', 'available', '50000']],
      [
        ['withdrawal_reserved', 'available', '-30000'],
        ['withdrawal_reserved', 'reserved', '30000'],
      ],
      [
        ['withdrawal_released', 'available', '30000'],
        ['withdrawal_released', 'reserved', '-30000'],
      ],
    ]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(
        ['amount', 'balance', 'createdAt', 'currency', 'id', 'intentId', 'referenceNo', 'type', 'withdrawalId'].sort(),
      );
      expect(item.id).toMatch(UUID);
      expect(item.createdAt).toMatch(ISO_MS);
      expect(item.currency).toBe('TRY');
    }
    const credit = items.find((item) => item.type === 'deposit');
    expect(credit).toMatchObject({ intentId: ids.intentId, withdrawalId: null, referenceNo: ids.depositRef });
    const sent = items.find((item) => item.type === 'withdrawal_sent');
    expect(sent).toMatchObject({ intentId: null, withdrawalId: ids.returnedId, referenceNo: ids.returnedRef });
    // Newest first, and the movements of each balance add up to the balance the site reads.
    const times = items.map((item) => `${item.createdAt}|${item.id}`);
    expect([...times].sort().reverse()).toEqual(times);
    const total = (balance: string) =>
      items
        .filter((item) => item.balance === balance)
        .reduce((sum, item) => sum + BigInt(item.amount), 0n)
        .toString();
    const balance = (await client.get('/api/v1/external/balance')).body;
    expect({ available: total('available'), reserved: total('reserved') }).toEqual({
      available: balance.available,
      reserved: balance.reserved,
    });
    // The same movement has the same id on every read.
    expect((await allMovements(client)).map((item) => item.id)).toEqual(items.map((item) => item.id));
  });

  it('pages with the list rules: createdFrom inclusive, createdTo exclusive, a cursor bound to its filters, limit 1 to 100', async () => {
    const { site, client } = await busySite();
    const items = await allMovements(client);
    expect(items).toHaveLength(9);
    // Spread the movements over three days, so the window filters have something to tell apart.
    const byAge = [...items].reverse().map((item) => item.id as string);
    await backdate(site.siteId, 2, byAge.slice(0, 3));
    await backdate(site.siteId, 1, byAge.slice(3, 6));
    const moved = await allMovements(client);
    const midnightAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const window = await allMovements(client, `&createdFrom=${midnightAgo(1.5)}&createdTo=${midnightAgo(0.5)}`);
    expect(window.map((item) => item.id).sort()).toEqual(byAge.slice(3, 6).sort());
    expect(moved.map((item) => item.id).sort()).toEqual([...byAge].sort());
    const exact = moved.find((item) => item.id === byAge[3])!.createdAt as string;
    const from = await allMovements(client, `&createdFrom=${exact}&createdTo=${midnightAgo(0.5)}`);
    expect(from.map((item) => item.id)).toContain(byAge[3]);
    const to = await allMovements(client, `&createdTo=${exact}`);
    expect(to.map((item) => item.id)).not.toContain(byAge[3]);

    const first = await client.get('/api/v1/external/balance-transactions?limit=2');
    const otherFilters = await client.get(
      `/api/v1/external/balance-transactions?limit=2&createdFrom=${midnightAgo(3)}&cursor=${first.body.nextCursor}`,
    );
    expect(otherFilters.status).toBe(400);
    expect(otherFilters.body).toMatchObject({ error: 'validation_failed', errors: [expect.objectContaining({ field: 'cursor' })] });
    for (const bad of ['limit=0', 'limit=101', 'createdFrom=yesterday', 'status=APPROVED', 'cursor=forged.cursor']) {
      const answer = await client.get(`/api/v1/external/balance-transactions?${bad}`);
      expect([bad, answer.status, answer.body.error]).toEqual([bad, 400, 'validation_failed']);
    }
  });

  it("shows another site's key none of the site's movements, and keeps test and live keys to their own mode", async () => {
    const { site, client } = await busySite();
    const stranger = partner(h.gateway.url, await h.createSite());
    expect(await allMovements(stranger)).toEqual([]);
    const liveIds = (await allMovements(client)).map((item) => item.id);
    expect(liveIds.length).toBeGreaterThan(0);

    const issued = await h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
    expect(issued.status).toBe(201);
    const testClient = partner(h.gateway.url, { ...site, apiKey: issued.body.apiKey as string });
    expect(await allMovements(testClient)).toEqual([]);
    // A sandbox deposit, credited by the simulator: seen by the test key only.
    const created = await testClient.createDeposit({ amount: '120000' });
    const intentId = created.body.intentId as string;
    const sim = (path: string) =>
      testClient.post(`/api/v1/external/test/deposits/${intentId}/${path}`).set('idempotency-key', `${path}-${intentId}`).send({});
    expect((await sim('transfers')).status).toBe(201);
    const approved = await sim('approve');
    expect([200, 409]).toContain(approved.status);
    const testItems = await allMovements(testClient);
    expect(testItems.map((item) => [item.type, item.amount, item.intentId])).toEqual([['deposit', '120000', intentId]]);
    expect((await allMovements(client)).map((item) => item.id)).toEqual(liveIds);
  });
});

describe('GET /balance-statements/{date}', () => {
  async function keys(client: Client) {
    const answer = await client.get('/api/v1/external/balance-statements/keys');
    expect(answer.status).toBe(200);
    return answer.body.keys as Array<{ keyId: string; algorithm: string; publicKey: string; publicKeyPem: string }>;
  }

  it('gives a finished day its movements, opening and closing balances, signed; the same bytes on every fetch', async () => {
    const { site, client } = await busySite();
    const before = await allMovements(client);
    const byAge = [...before].reverse();
    // The deposit three days back (the opening balance), the rest two days back (the day asked for).
    await backdate(site.siteId, 3, [byAge[0].id]);
    await backdate(
      site.siteId,
      2,
      byAge.slice(1).map((item) => item.id),
    );
    const moved = new Map((await allMovements(client)).map((item) => [item.id, item]));
    const dayOf = istanbulDate(new Date(moved.get(byAge[1].id).createdAt));
    const opener = istanbulDate(new Date(moved.get(byAge[0].id).createdAt));
    expect(opener).not.toBe(dayOf);

    const answer = await client.get(`/api/v1/external/balance-statements/${dayOf}`);
    expect(answer.status).toBe(200);
    const statement = answer.body;
    expect(statement).toMatchObject({
      format: 'kasa.balance-statement.v1',
      siteId: site.siteId,
      livemode: true,
      date: dayOf,
      timeZone: 'Europe/Istanbul',
      currency: 'TRY',
      opening: { available: '200000', reserved: '0' },
      closing: { available: '200000', reserved: '0' },
    });
    // Istanbul is UTC+3: the day runs from 21:00 UTC the evening before.
    expect(new Date(statement.from).toISOString()).toBe(new Date(`${dayOf}T00:00:00+03:00`).toISOString());
    expect(new Date(statement.to).getTime() - new Date(statement.from).getTime()).toBe(86_400_000);
    expect(statement.movements.map((m: any) => m.id).sort()).toEqual(
      byAge
        .slice(1)
        .map((item) => item.id)
        .sort(),
    );
    // Oldest first, each with the balance it left.
    const running: Record<string, bigint> = { available: 200000n, reserved: 0n };
    for (const movement of statement.movements) {
      running[movement.balance] = (running[movement.balance] ?? 0n) + BigInt(movement.amount);
      expect(movement.balanceAfter).toBe(running[movement.balance]!.toString());
      expect(moved.get(movement.id)).toEqual(Object.fromEntries(Object.entries(movement).filter(([key]) => key !== 'balanceAfter')));
    }

    const [key] = await keys(client);
    expect(statement.signature).toMatchObject({ algorithm: 'ed25519', keyId: key!.keyId });
    const { signature, ...signed } = statement;
    const message = Buffer.from(canonicalJson(signed));
    expect(verify(null, message, createPublicKey(key!.publicKeyPem), Buffer.from(signature.value, 'base64'))).toBe(true);
    const tampered = Buffer.from(canonicalJson({ ...signed, closing: { ...signed.closing, available: '200001' } }));
    expect(verify(null, tampered, createPublicKey(key!.publicKeyPem), Buffer.from(signature.value, 'base64'))).toBe(false);

    // The same bytes every time it is fetched, and the day before holds the deposit only.
    expect((await client.get(`/api/v1/external/balance-statements/${dayOf}`)).text).toBe(answer.text);
    const earlier = (await client.get(`/api/v1/external/balance-statements/${opener}`)).body;
    expect(earlier).toMatchObject({ opening: { available: '0', reserved: '0' }, closing: { available: '200000', reserved: '0' } });
    expect(earlier.movements.map((m: any) => m.type)).toEqual(['deposit']);
  });

  it("answers another site's key and a test key with their own (empty) statement of the day, never the site's movements", async () => {
    const { site, client } = await busySite();
    await backdate(site.siteId, 2);
    const date = istanbulDate(new Date((await allMovements(client))[0].createdAt));
    expect((await client.get(`/api/v1/external/balance-statements/${date}`)).body.movements.length).toBe(9);

    const strangerSite = await h.createSite();
    const stranger = (await partner(h.gateway.url, strangerSite).get(`/api/v1/external/balance-statements/${date}`)).body;
    expect(stranger).toMatchObject({
      siteId: strangerSite.siteId,
      livemode: true,
      movements: [],
      closing: { available: '0', reserved: '0' },
    });

    const issued = await h.ops('POST', `/ops/v1/sites/${site.siteId}/api-keys`, { mode: 'test' });
    const testClient = partner(h.gateway.url, { ...site, apiKey: issued.body.apiKey as string });
    const sandbox = (await testClient.get(`/api/v1/external/balance-statements/${date}`)).body;
    expect(sandbox).toMatchObject({
      siteId: issued.body.siteId,
      livemode: false,
      movements: [],
      opening: { available: '0', reserved: '0' },
    });
  });

  it('refuses a day not finished (409 statement_not_final) and a malformed date (400), and needs a key', async () => {
    const site = await h.createSite();
    const client = partner(h.gateway.url, site);
    for (const date of [istanbulDate(new Date()), istanbulDate(new Date(Date.now() + 86_400_000))]) {
      const answer = await client.get(`/api/v1/external/balance-statements/${date}`);
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ error: 'conflict', reason: 'statement_not_final' });
    }
    for (const date of ['2026-02-30', '2026-1-31', '31-01-2026', '1999-12-31', 'yesterday']) {
      const answer = await client.get(`/api/v1/external/balance-statements/${date}`);
      expect([date, answer.status, answer.body.error]).toEqual([date, 400, 'validation_failed']);
      expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'date' })]);
    }
    // Hostile path text never reaches a 5xx: refused as a bad date, or as no such path.
    for (const date of ['2026-01-31%00', '..%2Fkeys', '2026-01-31%2F..', 'x'.repeat(300), '%E0%A4%A', '2026-01-31;drop']) {
      const answer = await client.get(`/api/v1/external/balance-statements/${date}`);
      expect([date, [400, 404].includes(answer.status)]).toEqual([date, true]);
    }
    const anonymous = await partner(h.gateway.url, { ...site, apiKey: 'sk_live_nobody_' + 'x'.repeat(40) }).get(
      '/api/v1/external/balance-statements/keys',
    );
    expect(anonymous.status).toBe(401);
  });

  it('publishes the development key, whose id is derived from the public key', async () => {
    const [key, ...others] = await keys(partner(h.gateway.url, await h.createSite()));
    expect(others).toEqual([]);
    // STATEMENT_SIGNING_KEY unset outside production: the published development seed ("kasa-statement-dev-key-change-me").
    expect(key).toMatchObject({
      keyId: 'c667a5ba0da2148d',
      algorithm: 'ed25519',
      publicKey: 'PDQx/v/f5hc4c+LI2Qxp2htQNTx215VJ+r37c+zjUYY=',
    });
    expect(createPublicKey(key!.publicKeyPem).export({ format: 'der', type: 'spki' }).subarray(12).toString('base64')).toBe(key!.publicKey);
  });
});
