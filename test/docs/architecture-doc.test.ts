/**
 * docs/architecture.md and CONTRIBUTING.md held to the tree: each names every service and every package, and
 * docs/architecture.md every feature folder of the ledger (CONTRIBUTING.md points to its table rather than keeping a
 * second list, which a new folder would have to join too); every file they name exists; and every "never" they state between the parts is
 * enforced by a lint rule, proven here on planted code through ESLint with the repository's own config.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ESLint } from 'eslint';
import { root } from './shell-blocks.js';

const DOCS = ['docs/architecture.md', 'CONTRIBUTING.md'] as const;
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const foldersOf = (dir: string) =>
  readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

const services = foldersOf('services').filter((name) => existsSync(join(root, 'services', name, 'package.json')));
const packages = foldersOf('packages').filter((name) => existsSync(join(root, 'packages', name, 'package.json')));
const ledgerFolders = foldersOf('services/ledger/src');

describe.each(DOCS)('%s names the parts of the tree', (doc) => {
  const text = read(doc);

  it('names every service by its folder', () => {
    expect(services.length).toBeGreaterThanOrEqual(4);
    expect(services.filter((name) => !text.includes(`services/${name}`))).toEqual([]);
  });

  it('names every package, by its @kasa/ name or its folder', () => {
    const unnamed = packages.filter((name) => {
      const { name: packageName } = JSON.parse(read(`packages/${name}/package.json`)) as { name: string };
      return !text.includes(packageName) && !text.includes(`packages/${name}`);
    });
    expect(unnamed).toEqual([]);
  });
});

describe('docs/architecture.md', () => {
  it('names every feature folder of the ledger (services/ledger/src/*/) as `folder/`', () => {
    const text = read('docs/architecture.md');
    expect(ledgerFolders).toContain('deposits');
    expect(ledgerFolders.filter((name) => !text.includes(`\`${name}/\``))).toEqual([]);
  });
});

/** Every file of the tree (no node_modules, dist, generated or dot folders), relative to the root. */
function treeFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (entry.name.startsWith('.') || ['node_modules', 'dist', 'coverage'].includes(entry.name)) continue;
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else files.push(path);
    }
  };
  for (const top of ['services', 'packages', 'docs', 'scripts', 'test', 'prisma', 'examples', 'k8s', 'bench']) walk(top);
  return files;
}

const FILE = /^[\w@.\-/]+\.(ts|js|mjs|cjs|json|md|ya?ml|prisma|sql)$/;

/**
 * The file paths a doc names: backticked names with a file extension, and relative Markdown links. A name may be
 * given from the root, from a service's or package's `src/`, or (as the docs do within a folder's story) by its
 * trailing folders and name alone; `@kasa/<name>/x.ts` is `packages/<name>/src/x.ts`.
 */
function namedFiles(doc: string): string[] {
  const text = read(doc);
  const names = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!).filter((name) => FILE.test(name));
  const links = [...text.matchAll(/\]\(([^)\s#]+)(#[^)]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((link) => !/^[a-z]+:/.test(link))
    .map((link) => normalize(join(dirname(doc), link)));
  return [...new Set([...names, ...links])];
}

function exists(name: string, files: string[]): boolean {
  const path = name.replace(/^@kasa\/([\w-]+)\//, 'packages/$1/src/');
  if (existsSync(join(root, path))) return true;
  return files.some((file) => file === path || file.endsWith(`/${path}`));
}

describe.each(DOCS)('%s names only files that exist', (doc) => {
  it('every file path and relative link it names is in the tree', () => {
    const files = treeFiles();
    const named = namedFiles(doc);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !exists(name, files) && !statSync(join(root, name), { throwIfNoEntry: false }))).toEqual([]);
  });
});

/** A planted violation: ESLint must refuse `code` at `path` (a real file, for the type-aware rules) with `message`. */
interface Proof {
  path: string;
  code: string;
  message: string;
}

/** Code the same rules must let through, so a rule that refuses everything cannot pass. */
interface Allowed {
  path: string;
  code: string;
}

interface Arrow {
  /** Text of the sentence (or the table row's first cell) that states the "never". */
  says: string;
  rule: string;
  proofs: Proof[];
  allowed: Allowed[];
}

const USE_CASE = 'services/ledger/src/returns/sender-return.use-case.ts';
const ROUTE = 'services/ledger/src/returns/sender-returns-ops.routes.ts';
const GATEWAY_FILE = 'services/gateway/src/ledger-client.ts';
const GATEWAY_ROOT = 'services/gateway/src/gateway-deps.ts';
const CONSOLE_PAGE = 'services/console/src/pages/deposits.page.ts';
const CONSOLE_ROOT = 'services/console/src/console-deps.ts';
const CLI_FILE = 'packages/cli/src/commands/desk.commands.ts';
const WORKER_REPOSITORY = 'services/webhook-worker/src/deliveries/delivery.repository.ts';
const LEDGER_ROOT = 'services/ledger/src/ledger-deps.ts';
const TEST_WEBHOOK = 'services/ledger/src/sites/test-webhook.use-case.ts';

const gatewayPostgres: Proof[] = [
  {
    path: GATEWAY_FILE,
    code: `import pg from 'pg';\nexport const pool = new pg.Pool();\n`,
    message: 'The gateway never touches PostgreSQL',
  },
  {
    path: GATEWAY_ROOT,
    code: `import { createPool } from '@kasa/db';\nexport const pool = createPool;\n`,
    message: 'The gateway never touches PostgreSQL',
  },
];
const consoleStores: Proof[] = [
  {
    path: CONSOLE_PAGE,
    code: `import { Redis } from 'ioredis';\nexport const redis = new Redis();\n`,
    message: 'The console never touches PostgreSQL or Redis',
  },
  {
    path: CONSOLE_ROOT,
    code: `import type { PrismaClient } from '@kasa/db';\nexport type Db = PrismaClient;\n`,
    message: 'The console never touches PostgreSQL or Redis',
  },
];
const workerWrites: Proof[] = [
  {
    path: WORKER_REPOSITORY,
    code: `export const approve = "UPDATE deposit_intents SET status = 'APPROVED' WHERE id = $1";\n`,
    message: 'The worker writes only delivery state',
  },
  {
    path: WORKER_REPOSITORY,
    code: 'export const audit = `\n  INSERT INTO audit_log (id, action) VALUES ($1, $2)`;\n',
    message: 'The worker writes only delivery state',
  },
];
const workerDeliveryState: Allowed = {
  path: WORKER_REPOSITORY,
  code: 'export const sql = [`UPDATE outbox_events e SET status = $2 WHERE e.id = $1`, "INSERT INTO delivery_attempts (id) VALUES ($1)"];\n',
};

/**
 * The "never" arrows of the two docs and the lint rule behind each. A doc sentence with "never" that states a
 * connection between parts must be here; one that states something else is in NOT_ARROWS with the reason.
 */
const ARROWS: Arrow[] = [
  {
    says: 'a service importing another service',
    rule: '@typescript-eslint/no-restricted-imports: @kasa/<service> and relative paths into services/<other>',
    proofs: [
      {
        path: USE_CASE,
        code: `import { createApp } from '@kasa/gateway';\nexport const app = createApp;\n`,
        message: 'never imports a service',
      },
      {
        path: 'services/webhook-worker/src/worker-deps.ts',
        code: `import { createApp } from '../../ledger/src/app.js';\nexport const app = createApp;\n`,
        message: 'never imports another service',
      },
    ],
    allowed: [{ path: USE_CASE, code: `import { AppError } from '@kasa/http';\nexport const error = AppError;\n` }],
  },
  {
    says: 'a service never imports another service',
    rule: '@typescript-eslint/no-restricted-imports (as above)',
    proofs: [
      {
        path: ROUTE,
        code: `import { startWorker } from '@kasa/webhook-worker';\nexport const s = startWorker;\n`,
        message: 'never imports a service',
      },
    ],
    allowed: [],
  },
  {
    says: 'routes or use cases running queries',
    rule: 'no-restricted-syntax: Prisma model calls, raw SQL and pool queries only in repositories',
    proofs: [
      {
        path: ROUTE,
        code: `import type { PrismaClient } from '@kasa/db';\nexport const find = (deps: { db: PrismaClient }, id: string) => deps.db.senderReturn.findUnique({ where: { id } });\n`,
        message: 'A Prisma model call',
      },
      {
        path: USE_CASE,
        code: `import type pg from 'pg';\nexport const ping = (deps: { pool: pg.Pool }) => deps.pool.query('SELECT 1');\n`,
        message: 'SQL on a pg pool',
      },
    ],
    allowed: [
      {
        path: 'services/ledger/src/returns/sender-return.repository.ts',
        code: `import type { PrismaClient } from '@kasa/db';\nexport const find = (db: PrismaClient, id: string) => db.senderReturn.findUnique({ where: { id } });\n`,
      },
    ],
  },
  {
    says: 'the gateway touching PostgreSQL',
    rule: '@typescript-eslint/no-restricted-imports in services/gateway/src: no @kasa/db, pg, @prisma/*',
    proofs: gatewayPostgres,
    allowed: [
      {
        path: GATEWAY_FILE,
        code: `import { Pool } from 'undici';\nimport type { RedisClient } from '@kasa/redis';\nexport type R = RedisClient;\nexport const p = Pool;\n`,
      },
    ],
  },
  {
    says: 'the console touching PostgreSQL or Redis',
    rule: '@typescript-eslint/no-restricted-imports in services/console/src: no PostgreSQL or Redis client',
    proofs: consoleStores,
    allowed: [
      {
        path: CONSOLE_PAGE,
        code: `import { OpsApiError } from '@kasa/ops-client';\nimport { AppError } from '@kasa/http';\nexport const e = [OpsApiError, AppError];\n`,
      },
    ],
  },
  {
    says: 'the console or the CLI calling the gateway',
    rule: '@typescript-eslint/no-restricted-imports (no HTTP client) and no-restricted-globals (fetch) in the console and the CLI',
    proofs: [
      {
        path: CONSOLE_PAGE,
        code: `import { request } from 'undici';\nexport const get = request;\n`,
        message: "The console's only upstream",
      },
      {
        path: CONSOLE_PAGE,
        code: `export const balance = () => fetch('http://127.0.0.1:8080/api/v1/external/balance');\n`,
        message: "Operators reach only the ledger's ops API",
      },
      { path: CLI_FILE, code: `import got from 'got';\nexport const get = got;\n`, message: 'The CLI reaches only the ledger' },
      {
        path: CLI_FILE,
        code: `export const balance = () => fetch('http://127.0.0.1:8080/api/v1/external/balance');\n`,
        message: "Operators reach only the ledger's ops API",
      },
    ],
    allowed: [
      {
        path: CLI_FILE,
        code: `import { OpsClient } from '@kasa/ops-client';\nexport const client = new OpsClient({ baseUrl: 'http://127.0.0.1:8081' });\n`,
      },
      { path: 'services/console/src/console.ts', code: `import type { Server } from 'node:http';\nexport type S = Server;\n` },
    ],
  },
  {
    says: 'a service other than the ledger writing money tables',
    rule: 'the gateway and console rules above, and the worker rule below',
    proofs: [...gatewayPostgres, ...consoleStores, workerWrites[0]!],
    allowed: [workerDeliveryState],
  },
  {
    says: 'the worker writing anything but delivery state',
    rule: "no-restricted-syntax in the worker's repositories and composition roots: SQL writes name delivery_attempts or outbox_events",
    proofs: workerWrites,
    allowed: [workerDeliveryState],
  },
  {
    says: 'the ledger calling a partner, except the test webhook',
    rule: '@typescript-eslint/no-restricted-imports (no HTTP client; WebhookSender built only in the composition root) and no-restricted-globals (fetch) in the ledger',
    proofs: [
      { path: TEST_WEBHOOK, code: `import got from 'got';\nexport const post = got.post;\n`, message: 'The ledger never calls a partner' },
      {
        path: 'services/ledger/src/outbox/outbox.publisher.ts',
        code: `import { WebhookSender } from '@kasa/webhook-sender';\nexport const sender = WebhookSender;\n`,
        message: 'Only the composition root builds the WebhookSender',
      },
      {
        path: 'services/ledger/src/outbox/outbox.relay.ts',
        code: `export const deliver = (url: string) => fetch(url, { method: 'POST' });\n`,
        message: 'The ledger never calls a partner',
      },
      {
        path: LEDGER_ROOT,
        code: `import { request } from 'undici';\nexport const post = request;\n`,
        message: 'The ledger never calls a partner',
      },
    ],
    allowed: [
      { path: LEDGER_ROOT, code: `import { WebhookSender } from '@kasa/webhook-sender';\nexport const sender = WebhookSender;\n` },
      {
        path: TEST_WEBHOOK,
        code: `import { signedHeaders, type WebhookSender } from '@kasa/webhook-sender';\nexport const send = (sender: WebhookSender) => [sender, signedHeaders];\n`,
      },
    ],
  },
  {
    says: "never an event's delivery",
    rule: 'the ledger rule above (the arrows table says what the one ledger-to-partner arrow is for)',
    proofs: [
      { path: TEST_WEBHOOK, code: `import got from 'got';\nexport const post = got.post;\n`, message: 'The ledger never calls a partner' },
    ],
    allowed: [],
  },
];

/** Sentences with "never" that state no connection between parts, and why they need no lint rule here. */
const NOT_ARROWS: Record<string, string> = {
  'the connections that must never exist': "the page's introduction to the table",
  'Arrows that must never exist': "the table's heading",
  'never the pool': 'a rule inside one transaction (which connection to read through), not an arrow between parts',
  'never kept in memory for after the commit': 'a rule of the follow-up design, not an arrow between parts',
  'never in timed tests': 'a rule for tests, not an arrow between parts',
};

/**
 * The statements of a doc that say "never": a table row whole, else each sentence of the line (link targets left
 * out: an anchor is no statement); and every data row of the never table, which states an arrow without the word.
 */
function neverStatements(doc: string): string[] {
  const text = read(doc).replace(/\]\([^)]*\)/g, ']');
  const statements: string[] = [];
  for (const line of text.split('\n')) {
    if (!/\bnever\b/i.test(line) || /^\| never\s*\|/.test(line)) continue;
    if (line.startsWith('|')) statements.push(line);
    else statements.push(...line.split(/(?<=[.;:])\s+/).filter((sentence) => /\bnever\b/i.test(sentence)));
  }
  const table = text.split('## Arrows that must never exist')[1]?.split('\n## ')[0] ?? '';
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !/^\| (never|-+)\s*\|/.test(line));
  statements.push(...rows);
  return [...new Set(statements.map((statement) => statement.trim()))];
}

const eslint = new ESLint({ cwd: root });
const RULES = ['no-restricted-syntax', '@typescript-eslint/no-restricted-imports', 'no-restricted-globals'];

const linted = new Map<string, Promise<string[]>>();

/** The architecture rules' complaints about `code` at `path`; each pair is linted once (type-aware lint is slow). */
function complaints(code: string, path: string): Promise<string[]> {
  const key = `${path}\n${code}`;
  if (!linted.has(key)) {
    linted.set(
      key,
      eslint.lintText(code, { filePath: join(root, path) }).then(([result]) => {
        const messages = result?.messages ?? [];
        expect(messages.filter((m) => m.fatal)).toEqual([]);
        return messages.filter((m) => m.ruleId !== null && RULES.includes(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
      }),
    );
  }
  return linted.get(key)!;
}

describe('every "never" the docs state between the parts', () => {
  const statements = DOCS.flatMap((doc) => neverStatements(doc).map((text) => ({ doc, text })));

  it('is an arrow with a lint rule, or a listed sentence that states no arrow', () => {
    expect(statements.length).toBeGreaterThan(8);
    const unmapped = statements.filter(
      ({ text }) => !ARROWS.some((arrow) => text.includes(arrow.says)) && !Object.keys(NOT_ARROWS).some((says) => text.includes(says)),
    );
    expect(unmapped).toEqual([]);
  });

  it('has no mapping left for a sentence the docs no longer state', () => {
    const said = statements.map(({ text }) => text).join('\n');
    expect([...ARROWS.map((arrow) => arrow.says), ...Object.keys(NOT_ARROWS)].filter((says) => !said.includes(says))).toEqual([]);
  });

  it.each(ARROWS.map((arrow) => [arrow.says, arrow] as const))(
    '"%s": its rule refuses the planted violations and lets the allowed code through',
    async (_, arrow) => {
      expect(arrow.proofs.length).toBeGreaterThan(0);
      for (const proof of arrow.proofs) {
        expect({ path: proof.path, complaints: await complaints(proof.code, proof.path) }).toEqual({
          path: proof.path,
          complaints: [expect.stringContaining(proof.message)],
        });
      }
      for (const allowed of arrow.allowed) {
        expect({ path: allowed.path, complaints: await complaints(allowed.code, allowed.path) }).toEqual({
          path: allowed.path,
          complaints: [],
        });
      }
    },
    60_000,
  );
});
