import { describe, expect, it } from '@jest/globals';
import { DatabaseUrlError, multiHostUrl, parseDatabaseUrl } from '../src/database-url.js';

describe('parseDatabaseUrl', () => {
  it("reads libpq's host list in order, with the default port for a host written without one", () => {
    const url = parseDatabaseUrl('postgresql://kasa:s3cret@pg-a:5433,pg-b,[::1]:6000/kasa?target_session_attrs=read-write&sslmode=require');
    expect(url.hosts).toEqual([
      { host: 'pg-a', port: 5433 },
      { host: 'pg-b', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(url.targetSessionAttrs).toBe('read-write');
    expect(url.database).toBe('kasa');
    expect(url.multiHost).toBe(true);
  });

  it('gives node-postgres one host per URL, keeping the user, password, database and other parameters', () => {
    const url = parseDatabaseUrl('postgresql://kasa:p%40ss@pg-a:5433,[::1]:6000/kasa?target_session_attrs=primary&application_name=ledger');
    expect(url.forHost({ host: 'pg-a', port: 5433 })).toBe('postgresql://kasa:p%40ss@pg-a:5433/kasa?application_name=ledger');
    expect(url.forHost({ host: '::1', port: 6000 })).toBe('postgresql://kasa:p%40ss@[::1]:6000/kasa?application_name=ledger');
    // node-postgres reads the single-host form as libpq would read that host of the list.
    const single = new URL(url.forHost({ host: 'pg-a', port: 5433 }));
    expect([single.username, decodeURIComponent(single.password), single.hostname, single.port]).toEqual(['kasa', 'p@ss', 'pg-a', '5433']);
  });

  it('names another database on every host, keeping target_session_attrs (so it is created on the primary)', () => {
    const url = parseDatabaseUrl('postgres://kasa@pg-a:5432,pg-b:5432/kasa_t_1?target_session_attrs=read-write');
    expect(url.withDatabase('postgres')).toBe('postgres://kasa@pg-a:5432,pg-b:5432/postgres?target_session_attrs=read-write');
  });

  it('treats a single host without target_session_attrs as a plain URL', () => {
    const url = parseDatabaseUrl('postgresql://postgres@127.0.0.1:5432/kasa');
    expect(url.multiHost).toBe(false);
    expect(url.targetSessionAttrs).toBe('any');
  });

  it('takes a single host with target_session_attrs as needing the session check', () => {
    expect(parseDatabaseUrl('postgresql://postgres@db:5432/kasa?target_session_attrs=read-write').multiHost).toBe(true);
  });

  it.each([
    ['an empty host in the list', 'postgresql://kasa@pg-a:5432,,pg-b/kasa', /host in the URL's comma list/],
    ['a port out of range', 'postgresql://kasa@pg-a:5432,pg-b:70000/kasa', /port 70000 is not within 1-65535/],
    [
      'an unknown target_session_attrs',
      'postgresql://kasa@pg-a,pg-b/kasa?target_session_attrs=writable',
      /target_session_attrs must be one of/,
    ],
    ['another scheme', 'mysql://kasa@pg-a,pg-b/kasa', /must start with postgresql/],
  ])('refuses %s', (_case, value, message) => {
    expect(() => parseDatabaseUrl(value)).toThrow(DatabaseUrlError);
    expect(() => parseDatabaseUrl(value)).toThrow(message);
  });

  it('never repeats the password in its errors', () => {
    let message = '';
    try {
      parseDatabaseUrl('postgresql://kasa:hunter2-secret@pg-a,pg-b:99999/kasa');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/port 99999/);
    expect(message).not.toContain('hunter2');
  });
});

describe('multiHostUrl', () => {
  it('leaves a plain URL to node-postgres untouched (null), whatever its form', () => {
    expect(multiHostUrl('postgresql://postgres@127.0.0.1:5432/kasa')).toBeNull();
    expect(multiHostUrl('postgresql://postgres@127.0.0.1/kasa?sslmode=require')).toBeNull();
    expect(multiHostUrl('/var/run/postgresql kasa')).toBeNull();
  });

  it('parses a host list or a session requirement', () => {
    expect(multiHostUrl('postgresql://postgres@a:1,b:2/kasa')?.hosts).toHaveLength(2);
    expect(multiHostUrl('postgresql://postgres@a:1/kasa?target_session_attrs=primary')?.targetSessionAttrs).toBe('primary');
  });
});
