/**
 * The SDK as a partner gets it: `npm pack` (which builds dist/ first), the tarball installed into a fresh npm project
 * with no registry, then used from plain `node` as an ES module and through require(), and type-checked with
 * TypeScript's `nodenext` resolution, the strictest a partner's project is likely to use. Nothing here loads the
 * workspace's source: a file the tarball lacks, a dependency it still needs or a broken declaration fails the test.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildWebhookHeaders, generateWebhookSecret, toStandardWebhooksSecret } from '@kasa/webhook-signing';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const TIMEOUT_MS = 120_000;

const work = mkdtempSync(join(tmpdir(), 'kasa-sdk-packed-'));
const project = join(work, 'partner');
const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const node = (file: string) => execFileSync(process.execPath, [file, join(project, 'webhook.json')], { cwd: project, encoding: 'utf8' });
/** tsc on files of the partner project, with no @types or settings of its own: its exit status and what it printed. */
const typeCheck = (...files: string[]) => {
  const args = [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', ...files];
  const result = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

const secret = generateWebhookSecret();
const event = { eventId: 'evt-packed-1', type: 'intent.approved', createdAt: new Date().toISOString(), data: { intentId: 'i-1' } };
const rawBody = JSON.stringify(event);
const headers = buildWebhookHeaders({ secrets: [secret], eventId: event.eventId, timestamp: Math.floor(Date.now() / 1000), rawBody });

// The same checks from an ES module and from CommonJS: a client, a webhook verified with the secret exactly as Kasa
// hands it out, the same webhook refused with another secret, and the secret in its Standard Webhooks form.
const consumer = (load: string) => `${load}
const { secret, wrongSecret, headers, rawBody } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const kasa = new KasaClient({ baseUrl: 'https://api.kasa.example', apiKey: 'sk_test_packed' });
const event = verifyWebhook({ secret, headers, rawBody });
let refusal = 'accepted';
try {
  verifyWebhook({ secret: wrongSecret, headers, rawBody });
} catch (error) {
  refusal = error instanceof WebhookVerificationError ? error.reason : 'other error: ' + String(error);
}
console.log(JSON.stringify({ create: typeof kasa.deposits.create, eventId: event.eventId, refusal, standard: toStandardWebhooksSecret(secret) }));
`;

let tarball: string;

beforeAll(() => {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], sdkDir)) as [{ filename: string }];
  tarball = join(work, packed[0].filename);
  mkdirSync(project);
  npm(['init', '-y'], project);
  npm(['install', tarball, '--offline', '--no-audit', '--no-fund'], project);
  writeFileSync(join(project, 'webhook.json'), JSON.stringify({ secret, wrongSecret: generateWebhookSecret(), headers, rawBody }));
}, TIMEOUT_MS);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed @kasa/sdk', () => {
  it('holds the built files, the README and package.json, and nothing from the workspace', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual(
      expect.arrayContaining(['package/package.json', 'package/README.md', 'package/dist/index.js', 'package/dist/index.cjs']),
    );
    expect(files).toEqual(expect.arrayContaining(['package/dist/types/index.d.ts', 'package/dist/types-cjs/index.d.ts']));
    expect(files.filter((file) => !/^package\/(package\.json|README\.md|dist\/.+)$/.test(file))).toEqual([]);
    expect(files.filter((file) => /\/(src|test|scripts)\/|(?<!\.d)\.ts$/.test(file))).toEqual([]);
  });

  it('has a package.json with no workspace: range and no dependencies, pointing at dist', () => {
    const manifest = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
    expect(manifest).not.toContain('workspace:');
    const parsed = JSON.parse(manifest) as Record<string, unknown>;
    expect(parsed).not.toHaveProperty('dependencies');
    expect(parsed).not.toHaveProperty('devDependencies');
    expect(parsed).toMatchObject({ main: './dist/index.cjs', module: './dist/index.js', engines: { node: '>=18' } });
    // The workspace's own package.json is back as it was, pointing at the source.
    expect(JSON.parse(readFileSync(join(sdkDir, 'package.json'), 'utf8'))).toMatchObject({ exports: { '.': './src/index.ts' } });
    expect(readdirSync(sdkDir)).not.toContain('package.workspace.json');
  });

  it('installs with no registry and no other package', () => {
    expect(readdirSync(join(project, 'node_modules')).filter((name) => !name.startsWith('.'))).toEqual(['@kasa']);
    expect(readdirSync(join(project, 'node_modules', '@kasa'))).toEqual(['sdk']);
  });

  it.each([
    [
      'an ES module',
      'consumer.mjs',
      "import { readFileSync } from 'node:fs';\nimport { KasaClient, toStandardWebhooksSecret, verifyWebhook, WebhookVerificationError } from '@kasa/sdk';",
    ],
    [
      'CommonJS',
      'consumer.cjs',
      "const { readFileSync } = require('node:fs');\nconst { KasaClient, toStandardWebhooksSecret, verifyWebhook, WebhookVerificationError } = require('@kasa/sdk');",
    ],
  ])('runs from %s under plain node: verifies with the Kasa secret, refuses another one', (_kind, file, load) => {
    writeFileSync(join(project, file), consumer(load));
    const result = JSON.parse(node(file)) as { create: string; eventId: string; refusal: string; standard: string };
    expect(result).toEqual({
      create: 'function',
      eventId: event.eventId,
      refusal: 'no_matching_signature',
      standard: toStandardWebhooksSecret(secret),
    });
    // What the README promises: the converted secret, not the Kasa one, verifies with the standardwebhooks library.
    const standardHeaders = {
      'webhook-id': headers['webhook-id'],
      'webhook-timestamp': headers['webhook-timestamp'],
      'webhook-signature': headers['webhook-signature'],
    };
    expect(new Webhook(result.standard).verify(rawBody, standardHeaders)).toEqual(event);
    expect(() => new Webhook(secret).verify(rawBody, standardHeaders)).toThrow();
  });

  it('type-checks from ESM and CommonJS TypeScript with nodenext resolution, and rejects a wrong call', () => {
    const typed = `import { KasaApiError, KasaClient, toStandardWebhooksSecret, verifyWebhook, type CreateDepositRequest, type WebhookEvent } from '@kasa/sdk';
const kasa = new KasaClient({ baseUrl: 'https://api.kasa.example', apiKey: 'sk_test_packed' });
const body: CreateDepositRequest = { externalUserId: 'user-42', amount: '150000' };
export const url: Promise<string> = kasa.deposits.create(body).then((deposit) => deposit.depositUrl);
export const check = (rawBody: string, headers: Headers): WebhookEvent => verifyWebhook({ secret: 'whsec_x', headers, rawBody });
export const standard: string = toStandardWebhooksSecret('whsec_x');
export const code = (error: unknown) => (error instanceof KasaApiError ? error.code : undefined);
`;
    writeFileSync(join(project, 'typed.mts'), typed);
    writeFileSync(join(project, 'typed.cts'), typed);
    expect(typeCheck('typed.mts', 'typed.cts')).toEqual({ status: 0, output: '' });

    writeFileSync(
      join(project, 'wrong.mts'),
      "import { KasaClient } from '@kasa/sdk';\nnew KasaClient({ baseUrl: 'https://api.kasa.example' });\n",
    );
    const wrong = typeCheck('wrong.mts');
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toMatch(/wrong\.mts\(2,\d+\): error TS2345:[\s\S]*'apiKey' is missing/);
  });
});
