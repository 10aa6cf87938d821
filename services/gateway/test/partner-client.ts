import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { TestSite } from './harness.js';
import { validIban } from './harness.js';

/** supertest calls against the gateway as one site's backend would make them. */
export function partner(baseUrl: string, site: TestSite) {
  const auth = `Bearer ${site.apiKey}`;
  return {
    createDeposit(body: Record<string, unknown> = {}, key: string | null = randomUUID()) {
      const call = request(baseUrl).post('/api/v1/external/deposits').set('authorization', auth);
      if (key !== null) call.set('idempotency-key', key);
      return call.send({ externalUserId: 'user-1', amount: '150000', ...body });
    },
    createWithdrawal(body: Record<string, unknown> = {}, key: string | null = randomUUID()) {
      const call = request(baseUrl).post('/api/v1/external/withdrawals').set('authorization', auth);
      if (key !== null) call.set('idempotency-key', key);
      return call.send({
        externalUserId: 'user-1',
        amount: '50000',
        targetIban: validIban(42),
        targetHolderName: 'Ayşe Yılmaz',
        ...body,
      });
    },
    get(path: string) {
      return request(baseUrl).get(path).set('authorization', auth);
    },
    post(path: string) {
      return request(baseUrl).post(path).set('authorization', auth);
    },
  };
}

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
