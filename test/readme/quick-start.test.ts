/**
 * The README's quick start, run as a newcomer would: `npm start` on a fresh database, then the shell blocks of
 * "Trying the partner API" and "Operators" exactly as README.md has them, read from the file at test time.
 * Only what a second copy of the suite on this machine needs is changed: the ports (8080..8084 become free
 * ones), the state directory (KASA_STATE_DIR, so a developer's own .kasa is never touched), the CLI's
 * KASA_URL, and the `<placeholders>` the README asks the reader to fill in, taken from earlier answers.
 * A command that fails, an unknown placeholder or an answer that is not what the README promises fails it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { dropDatabase, ensureDatabase } from '@kasa/db';
import { TEST_POSTGRES_BASE, deleteRedisPrefix } from '@kasa/testkit';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const README = readFileSync(join(root, 'README.md'), 'utf8');

/** The ```sh block that follows a `## heading` of README.md, as commands (continuation lines joined). */
function commandsUnder(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "${heading}"`);
  const open = README.indexOf('```sh\n', start);
  const close = README.indexOf('\n```', open + 6);
  const text = README.slice(open + 6, close).replace(/\\\n\s*/g, '');
  return text.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const id = randomBytes(5).toString('hex');
const databaseUrl = `${TEST_POSTGRES_BASE}/kasa_readme_${id}`;
const redisPrefix = `kasa_readme_${id}`;
const workDir = mkdtempSync(join(tmpdir(), 'kasa-readme-'));
const ports: Record<string, number> = {};
let suite: ChildProcess | undefined;
let suiteOutput = '';
let suiteEnv: NodeJS.ProcessEnv = {};

/** The README's text with this run's ports in place of the defaults. */
function onThisRun(command: string): string {
  return command.replace(/127\.0\.0\.1:(808[0-4])\b/g, (_, port: string) => `127.0.0.1:${ports[port]}`);
}

async function stopSuite(): Promise<void> {
  if (!suite || suite.exitCode !== null || suite.signalCode !== null) return;
  const exited = new Promise((resolve) => suite!.once('exit', resolve));
  // npm start runs in a process group of its own: the signal reaches every service, as Ctrl+C would.
  process.kill(-suite.pid!, 'SIGINT');
  const killed = setTimeout(() => process.kill(-suite!.pid!, 'SIGKILL'), 20_000);
  await exited;
  clearTimeout(killed);
}

beforeAll(async () => {
  for (const port of ['8080', '8081', '8082', '8083', '8084']) ports[port] = await freePort();
  const env: NodeJS.ProcessEnv = (suiteEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_PREFIX: redisPrefix,
    GATEWAY_PORT: String(ports['8080']),
    LEDGER_PORT: String(ports['8081']),
    WORKER_PORT: String(ports['8082']),
    CONSOLE_PORT: String(ports['8083']),
    PARTNER_DEMO_PORT: String(ports['8084']),
    KASA_STATE_DIR: join(workDir, '.kasa'),
    LOG_LEVEL: 'info',
  });
  // A developer's shell has no NODE_ENV; jest sets it to `test`.
  delete env.NODE_ENV;
  suite = spawn('npm', ['start'], { cwd: root, env, detached: true });
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      suiteOutput += chunk.toString();
      if (suiteOutput.includes('[kasa] Ctrl+C stops everything.')) resolve();
    };
    suite!.stdout!.on('data', onData);
    suite!.stderr!.on('data', onData);
    suite!.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${suiteOutput.slice(-3000)}`)));
    setTimeout(() => reject(new Error(`npm start was not ready in 120 s:\n${suiteOutput.slice(-3000)}`)), 120_000).unref();
  });
  await ready;
}, 150_000);

afterAll(async () => {
  await stopSuite();
  await deleteRedisPrefix(redisPrefix);
  await dropDatabase(databaseUrl);
  rmSync(workDir, { recursive: true, force: true });
}, 60_000);

describe("README's quick start", () => {
  const found: Record<string, string> = {};

  it('npm start prints where everything is, a demo key and a console login', () => {
    expect(suiteOutput).toContain(`partner API     http://127.0.0.1:${ports['8080']}/api/v1/external`);
    expect(suiteOutput).toMatch(/demo site "demo", test API key \(keep it secret\): sk_test_demo_/);
    expect(suiteOutput).toMatch(/demo site "demo", live API key \(keep it secret\): sk_live_demo_/);
    expect(suiteOutput).toMatch(/console login \(local admin\): admin@kasa\.local \/ \S{12,}/);
  });

  it('"Trying the partner API": the curl commands create a deposit, list it and create a withdrawal', async () => {
    const commands = commandsUnder('Trying the partner API');
    expect(commands[0]).toBe('KEY=$(cat .kasa/demo-live-api-key)');
    const marker = '@@kasa-readme@@';
    const script = commands.map((command) => `${onThisRun(command)}\necho; echo '${marker}'`).join('\n');
    const run = await bash(`set -e\n${script}`, workDir, process.env);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const answers = run.stdout
      .split(marker)
      .map((part) => part.trim())
      .filter(Boolean);
    expect(answers).toHaveLength(3);
    const [deposit, list, withdrawal] = answers.map((answer) => JSON.parse(answer));
    expect(deposit).toMatchObject({ amount: '150000', currency: 'TRY', depositUrl: expect.stringContaining('/deposit/') });
    expect(list.data.map((intent: { intentId: string }) => intent.intentId)).toContain(deposit.intentId);
    expect(withdrawal).toMatchObject({ withdrawalId: expect.stringMatching(/^[0-9a-f-]{36}$/), referenceNo: expect.any(String) });
    Object.assign(found, { intentId: deposit.intentId, referenceNo: deposit.referenceNo, withdrawalId: withdrawal.withdrawalId });
  }, 60_000);

  it('"Operators": every kasa command runs as written and does what its comment says', async () => {
    expect(found.intentId).toBeDefined();
    const [readLogin, logIn, ...commands] = commandsUnder('Operators');
    // A person logs in with the local admin's e-mail and password (`kasa login`), never with the bootstrap token.
    expect(readLogin).toMatch(/^read -r EMAIL PASSWORD < \.kasa\/demo-operator\b/);
    expect(logIn).toMatch(/kasa -- login --email "\$EMAIL"/);
    expect(README).not.toContain('export KASA_TOKEN=dev-ops-bootstrap-token');
    const env = { ...process.env, KASA_URL: `http://127.0.0.1:${ports['8081']}` };
    const prelude = `${readLogin!.replace('.kasa/', `${join(workDir, '.kasa')}/`)}\n${logIn}\necho "KASA_TOKEN=$KASA_TOKEN"`;
    const login = await bash(prelude, root, env);
    const token = /^KASA_TOKEN=(kop_\S+)$/m.exec(login.stdout)?.[1];
    expect({ code: login.code, token: typeof token, stderr: token ? '' : login.stderr }).toEqual({ code: 0, token: 'string', stderr: '' });
    const me = await bash(`export KASA_TOKEN=${token}\nnpm run -s kasa -- whoami`, root, env);
    expect(me.stdout).toMatch(/admin@kasa\.local/);
    const exportToken = `export KASA_TOKEN=${token}`;
    const outputs: Record<string, string> = {};
    for (const line of commands) {
      const command = onThisRun(line.replace(/\s+#\s.*$/, '')).replace(/<(\w+)>/g, (_, name: string) => {
        if (!found[name]) throw new Error(`README placeholder <${name}> has no value yet in: ${line}`);
        return found[name];
      });
      const run = await bash(`${exportToken}\n${command}`, root, env);
      expect({ command, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ command, code: 0, stderr: '' });
      const verb = command.split(' -- ')[1]!.split(' ').slice(0, 2).join(' ');
      outputs[verb] = run.stdout;
      const siteId = /^siteId\s+(\S+)$/m.exec(run.stdout)?.[1];
      if (verb === 'sites create' && siteId) found.siteId = siteId;
      const apiKeyId = /^API key (\S+);/m.exec(run.stdout)?.[1];
      if (verb === 'keys issue' && apiKeyId) found.apiKeyId = apiKeyId;
      // The demo's receiving account (npm start creates one): the account a hand-recorded transfer names.
      const accountId = /^([0-9a-f-]{36})\s.*\syes$/m.exec(run.stdout)?.[1];
      if (verb === 'accounts list' && accountId) found.receivingAccountId = accountId;
    }
    expect(outputs['operators create']).toContain('ayse@kasa.example');
    expect(outputs['sites create']).toMatch(/^webhookSecret\s+whsec_/m);
    expect(outputs['keys revoke']).toContain(`Revoked ${found.apiKeyId}`);
    expect(outputs['transfers record']).toContain('MATCHED');
    expect(outputs['intents list']).toContain(found.referenceNo);
    expect(outputs['dashboard']).toMatch(/^Deposits to review\s+1\s/m);
    expect(outputs[`search ${found.referenceNo}`]).toMatch(/^Deposits \(1\)$/m);
    expect(outputs['intents approve']).toContain('APPROVED');
    expect(outputs['withdrawals approve']).toContain('APPROVED');
    const demo = (JSON.parse(outputs['balances --json']!) as Array<{ available: string; reserved: string }>).find(
      (balance) => balance.available !== '0' || balance.reserved !== '0',
    );
    // 1.500,00 ₺ arrived and was approved; 500,00 ₺ of it is reserved for the approved withdrawal.
    expect(demo).toMatchObject({ available: '100000', reserved: '50000' });
  }, 180_000);

  it('logs requests to .kasa/logs/ and keeps the terminal for the banner, warnings and errors', async () => {
    const logs = join(workDir, '.kasa', 'logs');
    for (const service of ['ledger', 'gateway', 'webhook-worker', 'console']) expect(existsSync(join(logs, `${service}.log`))).toBe(true);
    expect(readFileSync(join(logs, 'gateway.log'), 'utf8')).toContain('"message":"http request"');
    expect(readFileSync(join(logs, 'ledger.log'), 'utf8')).toContain('"message":"http request"');
    expect(suiteOutput).not.toContain('"message":"http request"');
    expect(suiteOutput).toContain(`[kasa] request logs: ${logs}/<service>.log`);
  });

  it("listens on 127.0.0.1 only: the ledger is not reachable on the machine's other addresses", async () => {
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address && !address.internal && address.family === 'IPv4')
      .map((address) => address!.address);
    const reach = (host: string, port: number) =>
      new Promise<string>((resolve) => {
        const socket = connect({ host, port }, () => (socket.destroy(), resolve('connected')));
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      });
    expect(await reach('127.0.0.1', ports['8081']!)).toBe('connected');
    for (const host of others) expect([host, await reach(host, ports['8081']!)]).toEqual([host, 'ECONNREFUSED']);
  });

  it('a second npm start refuses at once, naming the port, and changes nothing', async () => {
    const otherDatabase = `${TEST_POSTGRES_BASE}/kasa_readme_${id}_second`;
    const second = await new Promise<Run>((resolve, reject) => {
      const child = spawn('npm', ['start'], {
        cwd: root,
        env: { ...suiteEnv, DATABASE_URL: otherDatabase, KASA_STATE_DIR: join(workDir, 'second') },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('error', reject);
      child.on('close', (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
    });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`[kasa] port ${ports['8080']} on 127.0.0.1 (gateway, GATEWAY_PORT) is in use`);
    expect(second.stderr).toContain('nothing was started or changed');
    expect(second.stdout).not.toContain('[kasa] running');
    // Nothing was created: no database (ensureDatabase answers whether it had to create it), no state directory.
    expect(existsSync(join(workDir, 'second'))).toBe(false);
    expect(await ensureDatabase(otherDatabase)).toBe(true);
    await dropDatabase(otherDatabase);
  }, 60_000);

  it('SIGINT to the npm process alone stops every service and prints a final line', async () => {
    const exited = new Promise<number | null>((resolve) => suite!.once('exit', resolve));
    process.kill(suite!.pid!, 'SIGINT');
    const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 30_000))]);
    expect(code).toBe(0);
    expect(suiteOutput).toMatch(/\[kasa\] stopped: every service has exited/);
    for (const port of Object.values(ports)) {
      const free = await new Promise<boolean>((resolve) => {
        const probe = createServer();
        probe.once('error', () => resolve(false));
        probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
      });
      expect([port, free]).toEqual([port, true]);
    }
  }, 60_000);
});
