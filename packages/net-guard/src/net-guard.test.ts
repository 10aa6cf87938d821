import { describe, expect, it } from '@jest/globals';
import type { LookupAddress } from 'node:dns';
import { isBlockedAddress, WebhookUrlError, WebhookUrlGuard, type Resolver } from './index.js';

const zone: Record<string, LookupAddress[]> = {
  'hooks.partner.example': [{ address: '93.184.216.34', family: 4 }],
  'internal.partner.example': [{ address: '10.1.2.3', family: 4 }],
  'mixed.partner.example': [
    { address: '93.184.216.34', family: 4 },
    { address: 'fd00::1', family: 6 },
  ],
  'v6.partner.example': [{ address: '2606:4700::1111', family: 6 }],
  'dev.local.example': [{ address: '127.0.0.1', family: 4 }],
};
const resolver: Resolver = async (host) => {
  const found = zone[host];
  if (!found) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return found;
};

async function problemOf(guard: WebhookUrlGuard, url: string): Promise<string | null> {
  try {
    await guard.check(url);
    return null;
  } catch (error) {
    if (error instanceof WebhookUrlError) return error.problem;
    throw error;
  }
}

function lookupOnce(guard: WebhookUrlGuard, host: string, all = false): Promise<{ error: Error | null; result: unknown }> {
  return new Promise((resolve) => {
    guard.lookup(host, { all }, (error, address) => resolve({ error, result: address }));
  });
}

describe('isBlockedAddress', () => {
  it.each([
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '127.0.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '[::1]',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8'])('accepts public %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('WebhookUrlGuard.check', () => {
  const guard = new WebhookUrlGuard({ resolve: resolver });

  it('accepts an https URL whose name resolves to public addresses only', async () => {
    await expect(problemOf(guard, 'https://hooks.partner.example/kasa')).resolves.toBeNull();
    await expect(problemOf(guard, 'https://v6.partner.example:8443/kasa')).resolves.toBeNull();
  });

  it.each([
    ['http://hooks.partner.example/kasa', 'scheme'],
    ['ftp://hooks.partner.example/kasa', 'scheme'],
    ['https://user:pass@hooks.partner.example/kasa', 'credentials'],
    ['https://user@hooks.partner.example/kasa', 'credentials'],
    ['https://10.0.0.1/hook', 'private_address'],
    ['https://169.254.169.254/latest/meta-data', 'private_address'],
    ['https://[::1]/hook', 'private_address'],
    ['https://[::ffff:10.0.0.1]/hook', 'private_address'],
    ['https://[fe80::1]/hook', 'private_address'],
    ['https://2130706433/hook', 'private_address'],
    ['https://0x7f.1/hook', 'private_address'],
    ['https://internal.partner.example/hook', 'private_address'],
    ['https://mixed.partner.example/hook', 'private_address'],
    ['https://nowhere.partner.example/hook', 'unresolvable'],
    ['not a url', 'invalid_url'],
  ])('refuses %s (%s)', async (url, problem) => {
    await expect(problemOf(guard, url)).resolves.toBe(problem);
  });

  it('refuses localhost through the system resolver unless it is allow-listed', async () => {
    await expect(problemOf(new WebhookUrlGuard(), 'https://localhost:8443/hook')).resolves.toBe('private_address');
    await expect(problemOf(new WebhookUrlGuard({ allowedHosts: ['localhost'] }), 'https://localhost:8443/hook')).resolves.toBeNull();
  });

  it('exempts allow-listed host names, addresses and CIDRs, and allows http only when told to', async () => {
    const local = new WebhookUrlGuard({ resolve: resolver, allowedHosts: ['127.0.0.1', '10.0.0.0/8', 'dev.local.example'], allowHttp: true });
    await expect(problemOf(local, 'https://127.0.0.1:9443/hook')).resolves.toBeNull();
    await expect(problemOf(local, 'https://10.9.8.7/hook')).resolves.toBeNull();
    await expect(problemOf(local, 'http://dev.local.example/hook')).resolves.toBeNull();
    await expect(problemOf(local, 'https://192.168.1.1/hook')).resolves.toBe('private_address');
    await expect(problemOf(local, 'https://user:pw@127.0.0.1/hook')).resolves.toBe('credentials');
  });
});

describe('WebhookUrlGuard.lookup (connect time)', () => {
  it('fails a name that now resolves to a private address, so DNS rebinding cannot reach it', async () => {
    let answer = '93.184.216.34';
    const rebinding = new WebhookUrlGuard({ resolve: async () => [{ address: answer, family: 4 }] });
    await expect(rebinding.check('https://rebind.partner.example/hook')).resolves.toBeInstanceOf(URL);
    answer = '10.0.0.1';
    const { error } = await lookupOnce(rebinding, 'rebind.partner.example');
    expect(error).toBeInstanceOf(WebhookUrlError);
    expect((error as WebhookUrlError).code).toBe('ERR_WEBHOOK_ADDRESS_BLOCKED');
  });

  it('answers in both lookup shapes for a public name', async () => {
    const guard = new WebhookUrlGuard({ resolve: resolver });
    await expect(lookupOnce(guard, 'hooks.partner.example')).resolves.toEqual({ error: null, result: '93.184.216.34' });
    await expect(lookupOnce(guard, 'hooks.partner.example', true)).resolves.toEqual({
      error: null,
      result: [{ address: '93.184.216.34', family: 4 }],
    });
  });
});
