import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe('smoke', () => {
  it('creates and reads a deposit', async () => {
    const site = await h.createSite();
    const created = await request(h.gateway.url)
      .post('/api/v1/external/deposits')
      .set('authorization', `Bearer ${site.apiKey}`)
      .set('idempotency-key', 'k1')
      .send({ externalUserId: 'u1', amount: '150000' });
    console.log(created.status, created.body, created.headers);
    expect(created.status).toBe(201);
    const read = await request(h.gateway.url).get(`/api/v1/external/intents/${created.body.intentId}`).set('authorization', `Bearer ${site.apiKey}`);
    console.log(read.status, read.body);
    const list = await request(h.gateway.url).get(`/api/v1/external/intents?limit=1`).set('authorization', `Bearer ${site.apiKey}`);
    console.log(list.status, list.body);
  });
});
