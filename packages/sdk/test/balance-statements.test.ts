/**
 * The SDK's balance movements and signed statements against a real gateway and ledger, and `verifyBalanceStatement`
 * offline: a fetched statement verifies with the published key (as given by `keys()`, raw base64 or PEM); one changed
 * amount or byte, another key, or figures that do not add up are refused with a reason.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { balanceStatementMessage, buildOpenApiDocument } from '@kasa/contracts';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { BalanceStatementVerificationError, KasaClient, verifyBalanceStatement, type BalanceStatement } from '../src/index.js';
import { startHarness } from '../../../services/gateway/test/harness.js';

const file = useHarness(() => startHarness());

/** A site whose key has a credited deposit and an approved withdrawal, its journal moved two days back. */
async function siteWithHistory(): Promise<{ kasa: KasaClient; date: string }> {
  const h = file.h;
  const site = await h.createSite({ rateLimitPerMinute: 10000 });
  const kasa = new KasaClient({ baseUrl: h.gateway.url, apiKey: site.apiKey });
  const created = await kasa.deposits.create({ externalUserId: 'sdk-user', amount: '150000' });
  const transfer = await h.ops('POST', '/ops/v1/bank-transfers', {
    bankTxId: `tx-${created.intentId}`,
    amount: '150000',
    currency: 'TRY',
    senderName: 'Ayşe Yılmaz',
    senderIban: makeTrIban(8_100_000),
    description: created.referenceNo,
    receivedAt: new Date().toISOString(),
  });
  expect(transfer.status).toBe(201);
  expect((await h.ops('POST', `/ops/v1/intents/${created.intentId}/approve`, {})).status).toBe(200);
  const withdrawal = await kasa.withdrawals.create({
    externalUserId: 'sdk-user',
    amount: '40000',
    targetIban: makeTrIban(8_200_000),
    targetHolderName: 'Ayşe Yılmaz',
  });
  expect((await h.ops('POST', `/ops/v1/withdrawals/${withdrawal.withdrawalId}/approve`, {})).status).toBe(200);
  await h.ledger.deps.db.$executeRawUnsafe(
    `UPDATE journal_entries SET created_at = created_at - interval '2 days' WHERE site_id = $1::uuid`,
    site.siteId,
  );
  const [newest] = (await kasa.balanceTransactions.list({ limit: 1 })).data;
  return { kasa, date: new Date(Date.parse(newest!.createdAt) + 3 * 3600_000).toISOString().slice(0, 10) };
}

const reasonOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    if (error instanceof BalanceStatementVerificationError) return error.reason;
    throw error;
  }
  return 'verified';
};

describe('balance movements and statements through the SDK', () => {
  it('lists and iterates the movements, and a fetched statement verifies offline with the published key', async () => {
    const { kasa, date } = await siteWithHistory();
    const movements = [];
    for await (const movement of kasa.balanceTransactions.iterate({ limit: 1 })) movements.push(movement);
    expect(movements.map((m) => [m.type, m.balance, m.amount]).sort()).toEqual(
      [
        ['deposit', 'available', '150000'],
        ['withdrawal_reserved', 'available', '-40000'],
        ['withdrawal_reserved', 'reserved', '40000'],
      ].sort(),
    );

    const statement = await kasa.balanceStatements.get(date);
    const { keys } = await kasa.balanceStatements.keys();
    const key = keys[0]!;
    expect(statement).toMatchObject({ date, closing: { available: '110000', reserved: '40000' } });
    expect(verifyBalanceStatement(statement, key)).toEqual(statement);
    expect(reasonOf(() => verifyBalanceStatement(statement, key.publicKey))).toBe('verified');
    expect(reasonOf(() => verifyBalanceStatement(JSON.stringify(statement), key.publicKeyPem))).toBe('verified');

    // One changed amount: the signature no longer covers it.
    const changed = structuredClone(statement);
    changed.movements[0]!.amount = String(BigInt(changed.movements[0]!.amount) + 1n);
    expect(reasonOf(() => verifyBalanceStatement(changed, key))).toBe('bad_signature');
    // One changed byte of the text as fetched (a digit of the closing balance).
    const text = JSON.stringify(statement).replace('"closing":{"available":"110000"', '"closing":{"available":"110001"');
    expect(text).not.toBe(JSON.stringify(statement));
    expect(reasonOf(() => verifyBalanceStatement(text, key))).toBe('bad_signature');
    // Another key, and a statement that names another key than the one given.
    const stranger = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    expect(reasonOf(() => verifyBalanceStatement(statement, stranger))).toBe('bad_signature');
    expect(reasonOf(() => verifyBalanceStatement(statement, { ...key, keyId: '0000000000000000' }))).toBe('wrong_key');
    expect(reasonOf(() => verifyBalanceStatement('{"format":"something else"}', key))).toBe('malformed');
    expect(reasonOf(() => verifyBalanceStatement('not json', key))).toBe('malformed');
  });

  it("verifies the OpenAPI document's example statement with its example key, the development key docs/api.md prints", () => {
    const paths = buildOpenApiDocument('https://api.kasa.example').paths as Record<string, any>;
    const exampleOf = (path: string) => paths[path].get.responses['200'].content['application/json'].example;
    const statement = exampleOf('/api/v1/external/balance-statements/{date}') as BalanceStatement;
    const [key] = exampleOf('/api/v1/external/balance-statements/keys').keys;
    expect(key).toMatchObject({ keyId: 'c667a5ba0da2148d', publicKey: 'PDQx/v/f5hc4c+LI2Qxp2htQNTx215VJ+r37c+zjUYY=' });
    expect(reasonOf(() => verifyBalanceStatement(statement, key))).toBe('verified');
  });

  it('refuses a statement whose figures do not add up even when its signature is good', () => {
    const pair = generateKeyPairSync('ed25519');
    const { privateKey } = pair;
    const publicKey = pair.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const signed = (unsigned: Omit<BalanceStatement, 'signature'>): BalanceStatement => ({
      ...unsigned,
      signature: {
        algorithm: 'ed25519',
        keyId: 'test',
        value: sign(null, balanceStatementMessage(unsigned), privateKey).toString('base64'),
      },
    });
    const movement = {
      id: '0d5c7b1e-2f4a-4c3b-9e8d-7a6b5c4d3e2f',
      balance: 'available' as const,
      type: 'deposit' as const,
      amount: '150000',
      currency: 'TRY' as const,
      intentId: '8b0f2a1e-6c3d-4e5f-9a7b-1c2d3e4f5a6b',
      withdrawalId: null,
      referenceNo: 'KD7K2M9PQR',
      createdAt: '2026-01-31T12:01:05.210Z',
      balanceAfter: '250000',
    };
    const base = {
      format: 'kasa.balance-statement.v1' as const,
      siteId: '3f2b1c0d-9e8a-4b7c-8d6e-5f4a3b2c1d0e',
      livemode: true,
      date: '2026-01-31',
      timeZone: 'Europe/Istanbul' as const,
      from: '2026-01-30T21:00:00.000Z',
      to: '2026-01-31T21:00:00.000Z',
      currency: 'TRY' as const,
      opening: { available: '100000', reserved: '0' },
      closing: { available: '250000', reserved: '0' },
      movements: [movement],
    };
    expect(reasonOf(() => verifyBalanceStatement(signed(base), publicKey))).toBe('verified');
    expect(reasonOf(() => verifyBalanceStatement(signed({ ...base, closing: { available: '250001', reserved: '0' } }), publicKey))).toBe(
      'totals_mismatch',
    );
    expect(
      reasonOf(() => verifyBalanceStatement(signed({ ...base, movements: [{ ...movement, balanceAfter: '150000' }] }), publicKey)),
    ).toBe('totals_mismatch');
    expect(reasonOf(() => verifyBalanceStatement(signed({ ...base, opening: { available: '1.5', reserved: '0' } }), publicKey))).toBe(
      'totals_mismatch',
    );
  });
});
