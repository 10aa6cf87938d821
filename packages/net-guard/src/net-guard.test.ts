import { describe, expect, it } from '@jest/globals';
import type { LookupAddress } from 'node:dns';
import { checkWebhookUrl, embeddedIpv4, isBlockedAddress, WebhookUrlError, WebhookUrlGuard, type Resolver } from './index.js';

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

  it.each([
    ['64:ff9b:1::a00:1', 'NAT64 local-use'],
    ['64:ff9b:1::8.8.8.8', 'NAT64 local-use, even around a public IPv4 address'],
    ['64:ff9b:1:ffff::1', 'NAT64 local-use, anywhere in the /48'],
    ['64:ff9b::1:0:0:1', 'NAT64 space outside the well-known /96'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (a real client address)'],
  ])('refuses %s (%s)', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
    expect(isBlockedAddress(`[${address}]`)).toBe(true);
  });

  it.each([
    '0:0:0:0:0:ffff:10.0.0.1',
    '0:0:0:0:0:ffff:a00:1',
    '0000:0000::ffff:7f00:0001',
    '::FFFF:A9FE:A9FE',
    '64:ff9b:0:0:0:0:a00:1',
    '0064:ff9b::10.0.0.1',
    '::ffff:0:10.0.0.1',
  ])('judges the IPv4 address inside %s however it is spelt', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['0:0:0:0:0:ffff:8.8.8.8', '64:ff9b:0::808:808', '2001:4860:4860::8888'])('still accepts public %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });

  it('reads the embedded IPv4 address only from the mapped and NAT64 well-known forms', () => {
    expect(embeddedIpv4('64:ff9b::a00:1')).toBe('10.0.0.1');
    expect(embeddedIpv4('0:0:0:0:0:ffff:c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIpv4('64:ff9b:1::a00:1')).toBeNull();
    expect(embeddedIpv4('2001::a00:1')).toBeNull();
    expect(embeddedIpv4('10.0.0.1')).toBeNull();
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

  it.each([
    ['https://hooks.partner.example:22/kasa', 'port'],
    ['https://hooks.partner.example:25/kasa', 'port'],
    ['https://hooks.partner.example:0/kasa', 'port'],
    ['https://hooks.partner.example:1023/kasa', 'port'],
    ['https://hooks.partner.example:65536/kasa', 'invalid_url'],
    ['https://hooks.partner.example/a\r\nX-Injected: 1', 'characters'],
    ['https://hooks.partner.example/\nkasa', 'characters'],
    ['https://hooks.partner.example/kasa\t', 'characters'],
    ['https://hooks.partner.example/<script>alert(1)</script>', 'characters'],
    ['https://hooks.partner.example/my hook', 'characters'],
    ['https://hooks.partner.example\\kasa', 'characters'],
    ['https://hooks.partner.example\\@10.0.0.1/kasa', 'characters'],
    ['https://hooks.partner.example/"kasa"', 'characters'],
    ['https://hooks.partner.example/ödeme', 'characters'],
    ['https://hooks.partner.example/%zz', 'characters'],
    ['https:hooks.partner.example/kasa', 'invalid_url'],
    ['https:///hooks.partner.example/kasa', 'invalid_url'],
    ['https://:@hooks.partner.example/kasa', 'credentials'],
    ['https://[64:ff9b:1::a00:1]/hook', 'private_address'],
    ['https://[2001::1]/hook', 'private_address'],
    ['https://[0:0:0:0:0:ffff:a00:1]/hook', 'private_address'],
  ])('refuses %j (%s)', async (url, problem) => {
    await expect(problemOf(guard, url)).resolves.toBe(problem);
  });

  it('accepts port 443, said or implied, and the unprivileged ports by default', async () => {
    for (const url of [
      'https://hooks.partner.example:443/kasa',
      'https://hooks.partner.example:1024/kasa',
      'https://hooks.partner.example:65535/kasa',
    ]) {
      await expect(problemOf(guard, url)).resolves.toBeNull();
    }
    await expect(problemOf(guard, 'https://hooks.partner.example/a%20b?x=1&y=%2F#frag')).resolves.toBeNull();
  });

  it('allows only the configured ports when told, an http URL without a port counting as port 80', async () => {
    const strict = new WebhookUrlGuard({
      resolve: resolver,
      allowedPorts: [
        { from: 443, to: 443 },
        { from: 8443, to: 8443 },
      ],
    });
    await expect(problemOf(strict, 'https://hooks.partner.example/kasa')).resolves.toBeNull();
    await expect(problemOf(strict, 'https://hooks.partner.example:8443/kasa')).resolves.toBeNull();
    await expect(problemOf(strict, 'https://hooks.partner.example:6379/kasa')).resolves.toBe('port');
    await expect(problemOf(strict, 'https://hooks.partner.example:9443/kasa')).resolves.toBe('port');
    const http = new WebhookUrlGuard({ resolve: resolver, allowHttp: true });
    await expect(problemOf(http, 'http://hooks.partner.example/kasa')).resolves.toBe('port');
    await expect(problemOf(http, 'http://hooks.partner.example:8080/kasa')).resolves.toBeNull();
    const http80 = new WebhookUrlGuard({ resolve: resolver, allowHttp: true, allowedPorts: [{ from: 80, to: 80 }] });
    await expect(problemOf(http80, 'http://hooks.partner.example/kasa')).resolves.toBeNull();
  });

  it('refuses a disallowed port before anything connects, even to an allow-listed host (the delivery-time check)', () => {
    const local = new WebhookUrlGuard({ allowedHosts: ['127.0.0.1', 'localhost'] });
    expect(() => local.checkSyntax('https://127.0.0.1:6379/hook')).not.toThrow();
    for (const url of ['https://127.0.0.1:22/hook', 'https://localhost:0/hook']) {
      expect(() => local.checkSyntax(url)).toThrow(expect.objectContaining({ problem: 'port' }));
    }
  });

  it('does not resolve an allow-listed name when a URL is configured, but still resolves it to connect', async () => {
    const noDns: Resolver = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const local = new WebhookUrlGuard({ resolve: noDns, allowedHosts: ['hooks.example.com'] });
    await expect(problemOf(local, 'https://hooks.example.com:8443/x')).resolves.toBeNull();
    await expect(problemOf(local, 'https://other.example.com/x')).resolves.toBe('unresolvable');
    expect((await lookupOnce(local, 'hooks.example.com')).error).toBeInstanceOf(WebhookUrlError);
  });

  it('refuses localhost through the system resolver unless it is allow-listed', async () => {
    await expect(problemOf(new WebhookUrlGuard(), 'https://localhost:8443/hook')).resolves.toBe('private_address');
    await expect(problemOf(new WebhookUrlGuard({ allowedHosts: ['localhost'] }), 'https://localhost:8443/hook')).resolves.toBeNull();
  });

  it('exempts allow-listed host names, addresses and CIDRs, and allows http only when told to', async () => {
    const local = new WebhookUrlGuard({
      resolve: resolver,
      allowedHosts: ['127.0.0.1', '10.0.0.0/8', 'dev.local.example'],
      allowHttp: true,
    });
    await expect(problemOf(local, 'https://127.0.0.1:9443/hook')).resolves.toBeNull();
    await expect(problemOf(local, 'https://10.9.8.7/hook')).resolves.toBeNull();
    await expect(problemOf(local, 'http://dev.local.example:8080/hook')).resolves.toBeNull();
    await expect(problemOf(local, 'https://192.168.1.1/hook')).resolves.toBe('private_address');
    await expect(problemOf(local, 'https://user:pw@127.0.0.1/hook')).resolves.toBe('credentials');
  });
});

describe('checkWebhookUrl', () => {
  const guard = new WebhookUrlGuard({ resolve: resolver });

  it('answers a verdict instead of throwing: the parsed URL, or the problem and a message to show', async () => {
    const accepted = await checkWebhookUrl('https://hooks.partner.example:8443/kasa', guard);
    expect(accepted.ok && accepted.url.port).toBe('8443');
    await expect(checkWebhookUrl('https://hooks.partner.example:22/kasa', guard)).resolves.toEqual({
      ok: false,
      problem: 'port',
      message: 'must not use port 22 (allowed: 443, 1024-65535)',
    });
    await expect(checkWebhookUrl('https://internal.partner.example/kasa', guard)).resolves.toMatchObject({
      ok: false,
      problem: 'private_address',
    });
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
