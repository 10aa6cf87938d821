/** kasa prints times in the operator's zone (KASA_TIME_ZONE, Europe/Istanbul by default), or UTC ISO with --utc. */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../src/index.js';
import { bookedTime, localTimes, utcTimes, withTimes } from '../src/times.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();
beforeAll(async () => {
  await real.scenario.createReceivingAccount();
});

async function kasa(args: string[], extraEnv: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: real.env.config.opsBootstrapToken, ...extraEnv },
  });
  return { code, stdout, stderr };
}

/** An instant as `dd.mm.yyyy hh:mm:ss` at a fixed offset from UTC, computed without Intl. */
function atOffset(iso: string, hours: number): string {
  const d = new Date(Date.parse(iso) + hours * 3_600_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** The value of `key` in `kasa ... show` output (`key  value` lines). */
const field = (stdout: string, key: string) =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${key} `))
    ?.slice(key.length)
    .trim();

describe('times in the operator zone', () => {
  it('writes an instant day first, 24-hour, in Türkiye time (UTC+3 all year) unless told another zone', () => {
    const istanbul = localTimes('Europe/Istanbul');
    expect(istanbul('2026-11-28T11:05:03.120Z')).toBe('28.11.2026 14:05:03');
    expect(istanbul('2026-12-31T21:00:00Z')).toBe('01.01.2027 00:00:00');
    expect(istanbul('2026-07-01T09:30:00+03:00')).toBe('01.07.2026 09:30:00');
    expect(localTimes('America/New_York')('2026-07-01T12:00:00Z')).toBe('01.07.2026 08:00:00');
    // What is not an instant is shown as it came; nothing is empty.
    expect(istanbul('2026-11-28')).toBe('2026-11-28');
    expect(istanbul(null)).toBe('');
    expect(utcTimes('2026-11-28T11:05:03.120Z')).toBe('2026-11-28T11:05:03.120Z');
  });

  it('localizes the times of a record at any depth, by their field names, and leaves the rest', () => {
    const shown = withTimes(
      {
        createdAt: '2026-11-28T11:05:03Z',
        note: '2026-11-28T11:05:03Z',
        transfers: [{ receivedAt: '2026-11-28T12:00:00Z', amount: '100' }],
      },
      localTimes('Europe/Istanbul'),
    );
    expect(shown).toEqual({
      createdAt: '28.11.2026 14:05:03',
      note: '2026-11-28T11:05:03Z',
      transfers: [{ receivedAt: '28.11.2026 15:00:00', amount: '100' }],
    });
  });

  it('shows a bank line with no time of day (MT940) as its day, never as 03:00', () => {
    const istanbul = localTimes('Europe/Istanbul');
    expect(bookedTime(istanbul, '2026-11-28T00:00:00.000Z', false)).toBe('28.11.2026');
    expect(bookedTime(istanbul, '2026-11-28T00:00:00.000Z', true)).toBe('28.11.2026 03:00:00');
    expect(bookedTime(utcTimes, '2026-11-28T00:00:00.000Z', false)).toBe('2026-11-28T00:00:00.000Z');
  });

  it('prints a record and a table in Europe/Istanbul by default, in KASA_TIME_ZONE when set, and UTC ISO with --utc', async () => {
    const site = await real.scenario.createSite();
    const key = await real.scenario.issueApiKey(site.siteId);
    const deposit = await real.scenario.createDeposit(site.siteId, '25000');
    const json = await kasa(['--json', 'sites', 'show', site.siteId]);
    const createdAt = (JSON.parse(json.stdout) as { createdAt: string }).createdAt;
    expect(createdAt).toMatch(/Z$/);

    const shown = await kasa(['sites', 'show', site.siteId]);
    expect(shown.code).toBe(0);
    expect(field(shown.stdout, 'createdAt')).toBe(atOffset(createdAt, 3));
    expect(field((await kasa(['sites', 'show', site.siteId], { KASA_TIME_ZONE: 'UTC' })).stdout, 'createdAt')).toBe(atOffset(createdAt, 0));
    expect(field((await kasa(['--utc', 'sites', 'show', site.siteId])).stdout, 'createdAt')).toBe(createdAt);

    const keys = await kasa(['keys', 'list', site.siteId]);
    const issuedJson = (JSON.parse((await kasa(['--json', 'keys', 'list', site.siteId])).stdout) as Array<{ createdAt: string }>)[0];
    const keyRow = keys.stdout.split('\n').find((line) => line.startsWith(key.apiKeyId)) ?? '';
    expect(keyRow).toContain(atOffset(issuedJson?.createdAt ?? '', 3));

    const intent = JSON.parse((await kasa(['--json', 'intents', 'show', deposit.intentId])).stdout) as {
      createdAt: string;
      expiresAt: string;
    };
    const detail = await kasa(['intents', 'show', deposit.intentId]);
    expect(field(detail.stdout, 'createdAt')).toBe(atOffset(intent.createdAt, 3));
    expect(field(detail.stdout, 'expiresAt')).toBe(atOffset(intent.expiresAt, 3));
    const listed = await kasa(['intents', 'list', '--site', site.siteId]);
    expect(listed.stdout.split('\n').find((line) => line.startsWith(deposit.intentId))).toContain(atOffset(intent.createdAt, 3));
    const listedUtc = await kasa(['--utc', 'intents', 'list', '--site', site.siteId]);
    expect(listedUtc.stdout.split('\n').find((line) => line.startsWith(deposit.intentId))).toContain(intent.createdAt);
    // Scripts reading JSON keep the API's UTC text whatever the zone.
    expect(JSON.parse((await kasa(['--json', 'sites', 'show', site.siteId], { KASA_TIME_ZONE: 'Asia/Tokyo' })).stdout)).toMatchObject({
      createdAt,
    });
  });

  it('refuses an unknown KASA_TIME_ZONE before the command sends anything', async () => {
    const slug = `tz-${real.scenario.unique()}`.toLowerCase();
    const refused = await kasa(['sites', 'create', slug, '--name', 'Zone Site'], { KASA_TIME_ZONE: 'Europe/Istanbull' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('KASA_TIME_ZONE must be an IANA time zone such as Europe/Istanbul, got "Europe/Istanbull"');
    const sites = JSON.parse((await kasa(['--json', 'sites', 'list'])).stdout) as Array<{ slug: string }>;
    expect(sites.map((s) => s.slug)).not.toContain(slug);
    // --utc needs no zone, so a script is not stopped by a variable it does not use.
    expect((await kasa(['--utc', 'sites', 'list'], { KASA_TIME_ZONE: 'nowhere' })).code).toBe(0);
  });
});
