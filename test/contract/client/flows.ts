/**
 * A partner's client written only against the types openapi-typescript generates from the served document,
 * calling the gateway through openapi-fetch. test/contract/typed-client.test.ts copies this file beside the
 * generated `./generated/kasa-api.ts` in a temporary directory, type-checks it there with the TypeScript
 * compiler, then runs it (the type-only import leaves nothing to load at run time).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/kasa-api.js';

type DepositIntent = components['schemas']['DepositIntent'];
type WithdrawalList = components['schemas']['WithdrawalList'];

export interface FlowResult {
  created: components['schemas']['CreateDepositResponse'];
  lookedUp: DepositIntent;
  listed: components['schemas']['DepositIntentListItem'][];
  withdrawal: components['schemas']['CreateWithdrawalResponse'];
  withdrawals: WithdrawalList;
  events: components['schemas']['EventList'];
  notFound: { status: number; error: components['schemas']['Problem'] | undefined };
  reused: { status: number; error: components['schemas']['Problem'] | undefined };
}

export async function runFlows(baseUrl: string, apiKey: string, keyPrefix: string, targetIban: string): Promise<FlowResult> {
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  const create = await client.POST('/api/v1/external/deposits', {
    params: { header: { 'Idempotency-Key': `${keyPrefix}-deposit` } },
    body: { externalUserId: 'contract-user-1', amount: '125000', externalUserLabel: 'Contract User' },
  });
  if (!create.data) throw new Error(`create: ${create.response.status} ${JSON.stringify(create.error)}`);

  const lookup = await client.GET('/api/v1/external/intents/{intentId}', { params: { path: { intentId: create.data.intentId } } });
  if (!lookup.data) throw new Error(`lookup: ${lookup.response.status}`);

  const list = await client.GET('/api/v1/external/intents', { params: { query: { limit: 10, status: 'RESERVED' } } });
  if (!list.data) throw new Error(`list: ${list.response.status}`);

  const withdrawal = await client.POST('/api/v1/external/withdrawals', {
    params: { header: { 'Idempotency-Key': `${keyPrefix}-withdrawal` } },
    body: { externalUserId: 'contract-user-1', amount: '50000', targetIban, targetHolderName: 'Contract User' },
  });
  if (!withdrawal.data) throw new Error(`withdrawal: ${withdrawal.response.status} ${JSON.stringify(withdrawal.error)}`);
  const withdrawals = await client.GET('/api/v1/external/withdrawals', { params: { query: { limit: 5 } } });
  if (!withdrawals.data) throw new Error(`withdrawals: ${withdrawals.response.status}`);

  const events = await client.GET('/api/v1/external/events', { params: { query: { limit: 5 } } });
  if (!events.data) throw new Error(`events: ${events.response.status}`);

  const missing = await client.GET('/api/v1/external/intents/{intentId}', {
    params: { path: { intentId: '00000000-0000-4000-8000-000000000000' } },
  });
  const reused = await client.POST('/api/v1/external/deposits', {
    params: { header: { 'Idempotency-Key': `${keyPrefix}-deposit` } },
    body: { externalUserId: 'contract-user-1', amount: '125001' },
  });

  return {
    created: create.data,
    lookedUp: lookup.data,
    listed: list.data.data,
    withdrawal: withdrawal.data,
    withdrawals: withdrawals.data,
    events: events.data,
    notFound: { status: missing.response.status, error: missing.error },
    reused: { status: reused.response.status, error: reused.error },
  };
}
