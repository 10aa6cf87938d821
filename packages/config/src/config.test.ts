import { describe, expect, it } from '@jest/globals';
import { ConfigError, PUBLISHED_DEV_SECRETS, loadConfig } from './index.js';

describe('WEBHOOK_ALLOWED_PORTS', () => {
  it('defaults to 443 and the unprivileged ports', () => {
    expect(loadConfig({}).webhookAllowedPorts).toEqual([
      { from: 443, to: 443 },
      { from: 1024, to: 65535 },
    ]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '' }).webhookAllowedPorts).toEqual(loadConfig({}).webhookAllowedPorts);
  });

  it('reads a comma list of single ports and ranges, forgiving spaces', () => {
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: ' 443, 8443 ,9000-9100,' }).webhookAllowedPorts).toEqual([
      { from: 443, to: 443 },
      { from: 8443, to: 8443 },
      { from: 9000, to: 9100 },
    ]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: '1-65535' }).webhookAllowedPorts).toEqual([{ from: 1, to: 65535 }]);
  });

  it.each(['0', '65536', '443,0', '1024-70000', '9100-9000', 'https', '443;8443', '-443', '443-', ',', '1e3', '00000443000'])(
    'refuses to start on %j, naming the variable',
    (value) => {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: value })).toThrow(/^WEBHOOK_ALLOWED_PORTS: must be a comma-separated list of ports/);
    },
  );
});

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('reads a hop count or a list of addresses, CIDRs and names', () => {
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8, 192.168.1.7' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.7',
    ]);
  });

  it.each(['0', '11', 'true', 'ingress', '10.0.0.0/8/1', '10.0.0.0/x', '300.1.1.1', ''.padEnd(3, ',')])(
    'refuses to start on %j, naming the variable',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow('TRUST_PROXY');
    },
  );
});

describe('BIND_ADDRESS', () => {
  it('is 127.0.0.1 unless set, and an IP address literal when set', () => {
    expect(loadConfig({}).bindAddress).toBe('127.0.0.1');
    expect(loadConfig({ BIND_ADDRESS: '0.0.0.0' }).bindAddress).toBe('0.0.0.0');
    expect(loadConfig({ BIND_ADDRESS: '::' }).bindAddress).toBe('::');
    expect(() => loadConfig({ BIND_ADDRESS: 'everywhere' })).toThrow('BIND_ADDRESS: must be an IP address');
  });
});

describe('DATABASE_READ_URL', () => {
  it('is optional, and a postgresql URL when given', () => {
    expect(loadConfig({}).databaseReadUrl).toBeNull();
    expect(loadConfig({ DATABASE_READ_URL: 'postgresql://kasa@replica:5432/kasa' }).databaseReadUrl).toBe(
      'postgresql://kasa@replica:5432/kasa',
    );
    expect(() => loadConfig({ DATABASE_READ_URL: 'mysql://replica/kasa' })).toThrow('DATABASE_READ_URL');
  });
});

describe('multi-host database URLs', () => {
  it("takes libpq's host list with target_session_attrs in DATABASE_URL and DATABASE_READ_URL", () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://kasa@pg-1:5432,pg-2:5432/kasa?target_session_attrs=read-write',
      DATABASE_READ_URL: 'postgresql://kasa@pg-2:5432,pg-1:5432/kasa?target_session_attrs=prefer-standby',
    });
    expect(config.databaseUrl).toBe('postgresql://kasa@pg-1:5432,pg-2:5432/kasa?target_session_attrs=read-write');
    expect(config.databaseReadUrl).toBe('postgresql://kasa@pg-2:5432,pg-1:5432/kasa?target_session_attrs=prefer-standby');
  });

  it('refuses a malformed host of the list and an unknown target_session_attrs, naming the variable', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://kasa@pg-1:5432,pg-2:99x/kasa' })).toThrow('DATABASE_URL: must be a URL');
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://kasa@pg-1,pg-2/kasa?target_session_attrs=master' })).toThrow(
      'DATABASE_URL: target_session_attrs must be one of',
    );
  });
});

describe('OPERATOR_2FA_REQUIRED and STEP_UP_ABOVE_KURUS', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgresql://kasa:own-database-password@db.internal:5432/kasa',
    REDIS_URL: 'redis://redis.internal:6379',
    INTERNAL_TOKEN: 'own-internal-token-0123456789',
    OPS_BOOTSTRAP_TOKEN: 'own-ops-bootstrap-token-0123456789',
    CURSOR_SIGNING_KEY: 'own-cursor-signing-key-0123456789',
    SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
    STATEMENT_SIGNING_KEY: Buffer.alloc(32, 43).toString('base64'),
    HISTORY_SEAL_KEY: Buffer.alloc(32, 43).toString('base64'),
  };

  it('requires a second factor of admins in production and of no one elsewhere, by default', () => {
    expect(loadConfig(production).operator2faRequired).toEqual(['ADMIN']);
    expect(loadConfig({}).operator2faRequired).toEqual([]);
  });

  it('reads a comma list of roles or none, and refuses a bank connector or an unknown role', () => {
    expect(loadConfig({ OPERATOR_2FA_REQUIRED: 'admin, reviewer' }).operator2faRequired).toEqual(['ADMIN', 'REVIEWER']);
    expect(loadConfig({ ...production, OPERATOR_2FA_REQUIRED: 'none' }).operator2faRequired).toEqual([]);
    expect(() => loadConfig({ OPERATOR_2FA_REQUIRED: 'CONNECTOR' })).toThrow(/^OPERATOR_2FA_REQUIRED: cannot name CONNECTOR/);
    expect(() => loadConfig({ OPERATOR_2FA_REQUIRED: 'ADMIN,OWNER' })).toThrow(ConfigError);
  });

  it('asks for step-up above 50,000 TL by default, in whole kuruş', () => {
    expect(loadConfig({}).stepUpAboveKurus).toBe(5_000_000n);
    expect(loadConfig({ STEP_UP_ABOVE_KURUS: '0' }).stepUpAboveKurus).toBe(0n);
    expect(() => loadConfig({ STEP_UP_ABOVE_KURUS: '500.00' })).toThrow(/^STEP_UP_ABOVE_KURUS/);
  });
});

describe('DATABASE_POOL_MODE', () => {
  it('defaults to session and accepts transaction', () => {
    expect(loadConfig({}).databasePoolMode).toBe('session');
    expect(loadConfig({ DATABASE_POOL_MODE: 'transaction' }).databasePoolMode).toBe('transaction');
  });

  it.each(['statement', 'Transaction', 'pgbouncer'])('refuses %j, naming the variable', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_MODE: value })).toThrow(/^DATABASE_POOL_MODE: must be session or transaction/);
  });

  it.each([
    ['DATABASE_URL', 'postgresql://kasa@bouncer:6432/kasa?options=-c%20statement_timeout%3D5000', 'options'],
    ['DATABASE_URL', 'postgresql://kasa@bouncer:6432/kasa?statement_timeout=5000', 'statement_timeout'],
    ['DATABASE_READ_URL', 'postgresql://kasa@replica:5432/kasa?lock_timeout=1000', 'lock_timeout'],
  ])('under transaction, refuses a session startup parameter in %s (%s)', (variable, value, parameter) => {
    const run = () => loadConfig({ DATABASE_POOL_MODE: 'transaction', [variable]: value });
    expect(run).toThrow(new RegExp(`^${variable}: sets ${parameter}, a session setting a transaction pooler refuses`));
    expect(loadConfig({ [variable]: value }).databasePoolMode).toBe('session');
  });
});

describe('published development secrets in production', () => {
  /** Secrets of one's own: what a production deployment sets. */
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgresql://kasa:own-database-password@db.internal:5432/kasa',
    REDIS_URL: 'redis://redis.internal:6379',
    INTERNAL_TOKEN: 'own-internal-token-0123456789',
    OPS_BOOTSTRAP_TOKEN: 'own-ops-bootstrap-token-0123456789',
    CURSOR_SIGNING_KEY: 'own-cursor-signing-key-0123456789',
    SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
    STATEMENT_SIGNING_KEY: Buffer.alloc(32, 43).toString('base64'),
    HISTORY_SEAL_KEY: Buffer.alloc(32, 43).toString('base64'),
  };

  it('start with secrets of their own', () => {
    expect(loadConfig(production).nodeEnv).toBe('production');
  });

  it('lists the fallbacks, the docker-compose.yml defaults and both development keys', () => {
    expect(PUBLISHED_DEV_SECRETS).toEqual(
      expect.arrayContaining([
        'dev-internal-token-change-me',
        'dev-ops-bootstrap-token-change-me',
        'dev-cursor-signing-key-change-me',
        'kasa-dev-password-change-me',
        'a2FzYS1kZXYta2V5LWNoYW5nZS1tZS0zMi1ieXRlcyE=',
        Buffer.alloc(32, 7).toString('base64'),
        // HISTORY_SEAL_KEY's development seed (docker-compose.yml and the fallback)
        'a2FzYS1kZXYtc2VhbC1rZXktY2hhbmdlLW1lLTMyYiE=',
      ]),
    );
    expect(Object.isFrozen(PUBLISHED_DEV_SECRETS)).toBe(true);
  });

  const tokens = ['INTERNAL_TOKEN', 'OPS_BOOTSTRAP_TOKEN', 'CURSOR_SIGNING_KEY'] as const;
  const textSecrets = PUBLISHED_DEV_SECRETS.filter((value) => value.length >= 16);

  describe.each(tokens)('%s', (variable) => {
    it.each(textSecrets)('refuses %j, naming the variable and not the value', (value) => {
      const run = () => loadConfig({ ...production, [variable]: value });
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(new RegExp(`^${variable}: is a published development value`));
      try {
        run();
      } catch (error) {
        expect((error as ConfigError).variable).toBe(variable);
        expect((error as Error).message).not.toContain(value);
      }
    });
  });

  it.each([
    ['the compose key', 'a2FzYS1kZXYta2V5LWNoYW5nZS1tZS0zMi1ieXRlcyE='],
    ['the compose key without padding', 'a2FzYS1kZXYta2V5LWNoYW5nZS1tZS0zMi1ieXRlcyE'],
    ['the built-in development key', Buffer.alloc(32, 7).toString('base64')],
  ])('SECRET_ENCRYPTION_KEY refuses %s', (_name, value) => {
    const run = () => loadConfig({ ...production, SECRET_ENCRYPTION_KEY: value });
    expect(run).toThrow(/^SECRET_ENCRYPTION_KEY: is a published development value/);
    expect(run).not.toThrow(value);
  });

  it.each([
    'postgresql://kasa:kasa-dev-password-change-me@postgres:5432/kasa',
    'postgres://other:kasa-dev-password-change-me@db.internal/kasa',
    'postgresql://kasa:kasa%2Ddev%2Dpassword%2Dchange%2Dme@db.internal:5432/kasa',
    'postgresql://kasa:kasa-dev-password-change-me@pg-1:5432,pg-2:5432/kasa?target_session_attrs=read-write',
  ])('DATABASE_URL refuses the compose password in %s', (value) => {
    const run = () => loadConfig({ ...production, DATABASE_URL: value });
    expect(run).toThrow(/^DATABASE_URL: its password is a published development value/);
    expect(run).not.toThrow(/kasa-dev-password/);
  });

  it('STATEMENT_SIGNING_KEY is required in production, 32 bytes of base64, and never the published development key', () => {
    const { STATEMENT_SIGNING_KEY: own, ...without } = production;
    expect(loadConfig(production).statementSigningKey.equals(Buffer.from(own, 'base64'))).toBe(true);
    expect(() => loadConfig(without)).toThrow(/^STATEMENT_SIGNING_KEY: is required/);
    expect(() => loadConfig({ ...production, STATEMENT_SIGNING_KEY: Buffer.alloc(16, 1).toString('base64') })).toThrow(
      /^STATEMENT_SIGNING_KEY: must be 32 bytes, base64-encoded/,
    );
    const published = Buffer.from('kasa-statement-dev-key-change-me').toString('base64');
    expect(PUBLISHED_DEV_SECRETS).toContain(published);
    expect(() => loadConfig({ ...production, STATEMENT_SIGNING_KEY: published })).toThrow(
      /^STATEMENT_SIGNING_KEY: is a published development value/,
    );
    // Outside production the published key signs, so development statements verify against docs/api.md's key.
    const { NODE_ENV: _production, ...rest } = without;
    expect(loadConfig({ ...rest, NODE_ENV: 'development' }).statementSigningKey.equals(Buffer.from(published, 'base64'))).toBe(true);
  });

  it('refuses a published value in any of the secret variables, not only its own', () => {
    expect(() => loadConfig({ ...production, CURSOR_SIGNING_KEY: 'dev-internal-token-change-me' })).toThrow(/^CURSOR_SIGNING_KEY:/);
  });

  it('leaves development mode alone: the fallbacks and the compose defaults still work there', () => {
    const development = {
      DATABASE_URL: 'postgresql://kasa:kasa-dev-password-change-me@postgres:5432/kasa',
      INTERNAL_TOKEN: 'dev-internal-token-change-me',
      SECRET_ENCRYPTION_KEY: 'a2FzYS1kZXYta2V5LWNoYW5nZS1tZS0zMi1ieXRlcyE=',
    };
    expect(loadConfig(development).internalToken).toBe('dev-internal-token-change-me');
    expect(loadConfig({}).cursorSigningKey).toBe('dev-cursor-signing-key-change-me');
    expect(loadConfig({ ...development, NODE_ENV: 'test' }).nodeEnv).toBe('test');
  });
});

describe('REDIS_CLUSTER_NODES', () => {
  it('is off by default: one Redis at REDIS_URL', () => {
    expect(loadConfig({}).redisClusterNodes).toBeNull();
    expect(loadConfig({ REDIS_CLUSTER_NODES: ' ' }).redisClusterNodes).toBeNull();
  });

  it('reads host:port seed nodes: names, IPv4, bracketed IPv6, forgiving spaces', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'redis-0.redis:6379, 10.0.0.7:7001 ,[fd00::7]:7002' }).redisClusterNodes).toEqual([
      { host: 'redis-0.redis', port: 6379 },
      { host: '10.0.0.7', port: 7001 },
      { host: 'fd00::7', port: 7002 },
    ]);
  });

  it('replaces REDIS_URL as the required Redis in production, which then only carries credentials', () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgresql://kasa:own-database-password@db.internal:5432/kasa',
      INTERNAL_TOKEN: 'own-internal-token-0123456789',
      OPS_BOOTSTRAP_TOKEN: 'own-ops-bootstrap-token-0123456789',
      CURSOR_SIGNING_KEY: 'own-cursor-signing-key-0123456789',
      SECRET_ENCRYPTION_KEY: Buffer.alloc(32, 42).toString('base64'),
      STATEMENT_SIGNING_KEY: Buffer.alloc(32, 43).toString('base64'),
      HISTORY_SEAL_KEY: Buffer.alloc(32, 43).toString('base64'),
    };
    expect(() => loadConfig(production)).toThrow(/^REDIS_URL: is required/);
    expect(loadConfig({ ...production, REDIS_CLUSTER_NODES: 'redis-0:6379' }).redisClusterNodes).toEqual([{ host: 'redis-0', port: 6379 }]);
  });

  it.each([
    'redis-0',
    'redis-0:',
    ':6379',
    'redis-0:0',
    'redis-0:65536',
    'redis://redis-0:6379',
    'fd00::7:7002',
    '[redis-0]:6379',
    'a_b:6379',
    'redis-0:6379,',
    '300.1.1.1:6379',
  ])('refuses to start on %j, naming the variable', (value) => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: value })).toThrow(/^REDIS_CLUSTER_NODES: must be a comma-separated list of host:port/);
  });

  it('refuses the same node twice', () => {
    expect(() => loadConfig({ REDIS_CLUSTER_NODES: 'Redis-0:6379,redis-0:6379' })).toThrow(
      /^REDIS_CLUSTER_NODES: names the same node twice/,
    );
  });
});
