/**
 * The README's quick start, run as a newcomer would: `npm start` on a fresh database, then the shell blocks of
 * "Trying the partner API" and "Operators" exactly as README.md has them, read from the file at test time.
 * Only what a second copy of the suite on this machine needs is changed: the ports (8080..8084 become free
 * ones, given to the CLI as the same LEDGER_PORT npm start was given), the state directory (KASA_STATE_DIR, so a
 * developer's own .kasa is never touched), and the `<placeholders>` the README asks the reader to fill in, taken
 * from earlier answers. A command that fails, an unknown placeholder or an answer that is not what the README
 * promises fails it. The other documentation blocks that need the whole suite run here too (RUN_BY_QUICK_START in
 * test/docs/shell-blocks.ts); test/docs/command-blocks.test.ts holds every shell block to being run or marked.
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
import { commandsOf, RUN_BY_QUICK_START, shellBlock } from '../docs/shell-blocks.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const README = readFileSync(join(root, 'README.md'), 'utf8');

/** The blocks this file has run, by id: each of RUN_BY_QUICK_START must be among them at the end. */
const ran = new Set<string>();

/** The shell block under a heading of a documented file, as commands (continuation lines joined). */
function commandsOfBlock(id: (typeof RUN_BY_QUICK_START)[number]): string[] {
  ran.add(id);
  return commandsOf(shellBlock(id));
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

/** A shell as the reader's: the LEDGER_PORT npm start was given, no KASA_URL. */
function cliEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LEDGER_PORT: String(ports['8081']) };
  delete env.KASA_URL;
  return env;
}

describe("README's quick start", () => {
  const found: Record<string, string> = {};

  it('npm start prints where everything is, a demo key and a console login', () => {
    expect(suiteOutput).toContain(`partner API     http://127.0.0.1:${ports['8080']}/api/v1/external`);
    expect(suiteOutput).toMatch(/demo site "demo", test API key \(keep it secret\): sk_test_demo_/);
    expect(suiteOutput).toMatch(/demo site "demo", live API key \(keep it secret\): sk_live_demo_/);
    expect(suiteOutput).toMatch(/console login \(local admin\): admin@kasa\.local \/ \S{12,}/);
  });

  it('"Trying the partner API": the curl commands create a deposit, list it and create a withdrawal', async () => {
    const commands = commandsOfBlock('README.md › Trying the partner API');
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
    const [readLogin, logIn, ...commands] = commandsOfBlock('README.md › Operators');
    // A person logs in with the local admin's e-mail and password (`kasa login`), never with the bootstrap token.
    expect(readLogin).toMatch(/^read -r EMAIL PASSWORD < \.kasa\/demo-operator\b/);
    expect(logIn).toMatch(/kasa -- login --email "\$EMAIL"/);
    expect(README).not.toContain('export KASA_TOKEN=dev-ops-bootstrap-token');
    // The shell that ran npm start on moved ports: LEDGER_PORT alone leads kasa to the ledger.
    const env = cliEnv();
    const prelude = `${readLogin!.replace('.kasa/', `${join(workDir, '.kasa')}/`)}\n${logIn}\necho "KASA_TOKEN=$KASA_TOKEN"`;
    const login = await bash(prelude, root, env);
    const token = /^KASA_TOKEN=(kop_\S+)$/m.exec(login.stdout)?.[1];
    expect({ code: login.code, token: typeof token, stderr: token ? '' : login.stderr }).toEqual({ code: 0, token: 'string', stderr: '' });
    const me = await bash(`export KASA_TOKEN=${token}\nnpm run -s kasa -- whoami`, root, env);
    expect(me.stdout).toMatch(/admin@kasa\.local/);
    const exportToken = `export KASA_TOKEN=${token}`;
    found.token = token!;
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
    // Each `npm run kasa` runs scripts/setup.mjs first (a build check): on a busy machine the block takes minutes.
  }, 300_000);

  it("docs/cli.md's jq pipeline approves the deposits paid exactly, and only those", async () => {
    expect(found.token).toBeDefined();
    const gateway = `http://127.0.0.1:${ports['8080']}/api/v1/external/deposits`;
    const key = readFileSync(join(workDir, '.kasa', 'demo-live-api-key'), 'utf8').trim();
    // Deposits made as the README makes them, with curl (no keep-alive socket left in this process).
    const create = async (amount: string) => {
      const made = await bash(
        `curl -s -f -X POST ${gateway} -H "Authorization: Bearer ${key}" -H "Idempotency-Key: ${randomBytes(8).toString('hex')}" ` +
          `-H "Content-Type: application/json" -d '{"externalUserId":"user-jq","amount":"${amount}"}'`,
        workDir,
        process.env,
      );
      expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: '' });
      return JSON.parse(made.stdout) as { intentId: string; referenceNo: string };
    };
    const shell = (script: string) => bash(`export KASA_TOKEN=${found.token}\n${script}`, root, cliEnv());
    // One paid exactly and one paid in part, both waiting for review.
    const exact = await create('120000');
    const part = await create('90000');
    for (const [deposit, lira] of [
      [exact, '1200.00'],
      [part, '500.00'],
    ] as const) {
      const recorded = await shell(
        `npm run -s kasa -- transfers record --account ${found.receivingAccountId} --bank-tx-id jq-${deposit.intentId} ` +
          `--amount ${lira} --sender-name "Jq Sender" --sender-iban TR330006100519786457841326 --description "${deposit.referenceNo}"`,
      );
      expect({ code: recorded.code, stderr: recorded.code === 0 ? '' : recorded.stderr }).toEqual({ code: 0, stderr: '' });
    }
    const [pipeline] = commandsOfBlock('docs/cli.md › In scripts');
    const run = await shell(pipeline!);
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const status = async (intentId: string) =>
      JSON.parse((await shell(`npm run -s kasa -- --json intents show ${intentId}`)).stdout).status;
    expect(await status(exact.intentId)).toBe('APPROVED');
    expect(await status(part.intentId)).toBe('PENDING_REVIEW');
    // Run again with nothing paid exactly left: it approves nothing and still succeeds.
    const again = await shell(pipeline!);
    expect({ code: again.code, stderr: again.code === 0 ? '' : again.stderr }).toEqual({ code: 0, stderr: '' });
    expect(await status(part.intentId)).toBe('PENDING_REVIEW');
  }, 180_000);

  it('ran every documentation block it is listed as running', () => {
    expect([...ran].sort()).toEqual([...RUN_BY_QUICK_START].sort());
  });

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
