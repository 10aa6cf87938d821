/**
 * A service that cannot start (here: production without its required configuration, or with a published
 * development secret) says why in one JSON line on stderr, names the variable but never its value, and exits 1.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { productionEnvironment } from '@kasa/testkit';
import { ensureBuilt, ROOT } from './support.js';

beforeAll(() => ensureBuilt());

function start(service: string, env: Record<string, string>) {
  const run = spawnSync(process.execPath, [`services/${service}/dist/main.js`], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, lines: run.stderr.split('\n').filter(Boolean) };
}

describe('a service that cannot start', () => {
  it.each(['gateway', 'ledger', 'webhook-worker', 'console'])('%s: one JSON line naming the missing variable, exit 1', (service) => {
    const { status, lines, stdout } = start(service, { PATH: process.env.PATH ?? '/usr/bin:/bin', NODE_ENV: 'production' });
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 'error', service, message: `${service} could not start` });
    expect(String(line.error)).toMatch(/^[A-Z_]+: /);
  });

  it('names a published development secret without printing it', () => {
    const { env } = productionEnvironment({ INTERNAL_TOKEN: 'dev-internal-token-change-me' });
    const { status, lines } = start('gateway', env);
    expect(status).toBe(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ service: 'gateway', error: expect.stringMatching(/^INTERNAL_TOKEN: /) });
    expect(lines[0]).not.toContain('dev-internal-token-change-me');
  });
});
