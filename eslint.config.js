// One lint setup for the workspace: ESLint's and typescript-eslint's recommended rules, type-aware on src.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Architecture rules (docs/architecture.md, Arrows that must never exist; ADR 0015), proven by
// test/lint/architecture-rules.test.ts and, each against the sentence it enforces, test/docs/architecture-doc.test.ts.
// Each rule is one selector list, so a file gets every rule that applies to it
// from exactly one block below (a later block replaces, never merges, a rule's options).
const SHIPPED = ['{packages,services}/*/src/**/*.ts'];
/** Repositories: the only files that touch Prisma or SQL (ADR 0015). */
const REPOSITORIES = ['**/*.repository.ts'];
/** Composition roots: the top of each service's src wires the database, checks it for health and disconnects it. */
const COMPOSITION = ['services/*/src/{app,main,index,ledger,gateway,console,worker}.ts', 'services/*/src/*-deps.ts'];
/** The Prisma client's own package, and the test kit that drives real databases for tests. */
const DATABASE_PACKAGES = ['packages/db/src/**', 'packages/testkit/src/**'];
/** Where a transaction may begin: use cases own it, and the transition recipe opens it for reviewed changes. */
const TRANSACTION_OWNERS = ['**/*.use-case.ts', 'services/ledger/src/review/transition.ts'];
const NOT_SHIPPED = ['**/*.test.ts', 'packages/db/src/generated/**'];

const ONLY_REPOSITORIES = "only repositories (*.repository.ts) touch Prisma or SQL (ADR 0015): move the query into the folder's repository";
const PRISMA_AND_SQL = [
  {
    // tx.site.update(...), deps.db.senderReturn.findMany(...), this.db.withdrawal.findUnique(...)
    selector:
      "CallExpression[callee.type='MemberExpression'][callee.object.type='MemberExpression']:matches([callee.object.object.name=/^(tx|db|prisma)$/], [callee.object.object.property.name=/^(db|prisma)$/])",
    message: `A Prisma model call: ${ONLY_REPOSITORIES}.`,
  },
  {
    selector: 'MemberExpression[property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]',
    message: `Raw SQL: ${ONLY_REPOSITORIES}.`,
  },
  {
    // pool.query(...), deps.pool.query(...), client.query(...) on node-postgres
    selector:
      "CallExpression[callee.property.name='query']:matches([callee.object.name=/^(pool|readPool|client)$/i], [callee.object.property.name=/^(pool|readPool|client)$/i])",
    message: `SQL on a pg pool: ${ONLY_REPOSITORIES}.`,
  },
];
const TRANSACTION = {
  selector: "MemberExpression[property.name='$transaction']",
  message:
    'A transaction begins in a use case (deps.db.$transaction, or runTransition/inTransaction from review/transition.ts), never in a route or helper (ADR 0015).',
};

const SERVICES = ['gateway', 'ledger', 'webhook-worker', 'console'];
/** No service imports another: by package name, or by a relative path into services/<other>. */
const otherServices = (self) => {
  const others = SERVICES.filter((name) => name !== self);
  return [
    {
      regex: `^@kasa/(${SERVICES.join('|')})(/|$)`,
      message: 'A service never imports a service (its own package name included): shared code goes in packages/ (STYLE.md 1).',
    },
    {
      regex: `^(\\.\\./)+(services/)?(${others.join('|')})/`,
      message: 'A service never imports another service: shared code goes in packages/ (STYLE.md 1).',
    },
  ];
};
/** Clients of PostgreSQL, and of Redis or the queues on it (module names, matched whole). */
const POSTGRES_CLIENTS = '@kasa/db(/.*)?|pg|@prisma/.*';
const REDIS_CLIENTS = 'ioredis|@kasa/redis|@kasa/queue|bullmq';
/** HTTP clients; `import type` (a server's types) stays allowed where they are refused. */
const HTTP_CLIENTS = 'got|undici|axios|node:https?|https?';
const only = (names) => `^(${names})$`;
/** What a service never reaches (docs/architecture.md, Arrows that must never exist), beyond another service. */
const NEVER = {
  gateway: [
    {
      regex: only(POSTGRES_CLIENTS),
      message: 'The gateway never touches PostgreSQL: it is stateless over Redis and asks the ledger (docs/architecture.md).',
    },
  ],
  console: [
    {
      regex: only(`${POSTGRES_CLIENTS}|${REDIS_CLIENTS}`),
      message: 'The console never touches PostgreSQL or Redis: it is a UI over the ops API (docs/architecture.md).',
    },
    {
      regex: only(HTTP_CLIENTS),
      allowTypeImports: true,
      message: "The console's only upstream is the ledger's ops API, through @kasa/ops-client (docs/architecture.md).",
    },
  ],
  ledger: [
    {
      regex: only('got|undici|axios|node:https|https'),
      allowTypeImports: true,
      message:
        'The ledger never calls a partner: events reach partners through the outbox and the worker; the one test webhook goes through the WebhookSender its composition root builds (docs/architecture.md).',
    },
  ],
  'webhook-worker': [],
};
/** The ledger's one sender of HTTP to partners is built in its composition root and handed to the test-webhook use case. */
const LEDGER_SENDER = {
  name: '@kasa/webhook-sender',
  importNames: ['WebhookSender'],
  allowTypeImports: true,
  message: 'Only the composition root builds the WebhookSender; the ledger sends nothing but the test webhook (docs/architecture.md).',
};
/** No global fetch: the console and the CLI reach the network only through @kasa/ops-client, the ledger not at all. */
const noFetch = (message) => ['error', { name: 'fetch', message: `${message} (docs/architecture.md).` }];
const OPERATORS_FETCH = noFetch("Operators reach only the ledger's ops API, through @kasa/ops-client");
/** The worker writes delivery state only: SQL that writes another table is refused in its repositories. */
const WORKER_WRITES = ['delivery_attempts', 'outbox_events'].join('|');
const OTHER_TABLE_WRITE = `/(INSERT INTO|UPDATE|DELETE FROM)\\s+"?(?!(${WORKER_WRITES})\\b)[a-z_]+/`;
const WORKER_SQL = [
  {
    selector: `Literal[value=${OTHER_TABLE_WRITE}]`,
    message: 'The worker writes only delivery state (delivery_attempts, the delivery columns of outbox_events) (docs/architecture.md).',
  },
  {
    selector: `TemplateElement[value.raw=${OTHER_TABLE_WRITE}]`,
    message: 'The worker writes only delivery state (delivery_attempts, the delivery columns of outbox_events) (docs/architecture.md).',
  },
];
const DB_VALUES = {
  name: '@kasa/db',
  allowTypeImports: true,
  message:
    'Only repositories and composition roots use @kasa/db values (the client, Prisma.sql, MicroBatch); elsewhere `import type` its row types.',
};

/**
 * The ledger's folders depend one way (docs/architecture.md, The ledger's folders): `shared/` is the bottom layer,
 * infrastructure every folder may use, and imports no other ledger folder itself (type-only imports included: a
 * type is an arrow too). A rule's business belongs in the feature or in `review/`, never in `shared/`.
 */
const LEDGER_BOTTOM = {
  files: ['services/ledger/src/shared/**/*.ts'],
  ignores: NOT_SHIPPED,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '^\\.\\./',
            message:
              "shared/ is the ledger's bottom layer and imports no other ledger folder: move what it needs into shared/, or the code that needs it up into the feature (docs/architecture.md).",
          },
        ],
      },
    ],
  },
};

/**
 * A feature folder of the ledger does not import another feature's use case (type-only imports included): features talk
 * through ports, the outbox or a follow-up (docs/architecture.md, The ledger's folders). Three folders exist to run other
 * features' use cases and stand above them: `sandbox/` (the simulator plays bank and operator), `follow-ups/` (it carries
 * out the work a commit promised) and `desk/` (the operators' overview). `shared/`'s list use cases are infrastructure.
 */
const ORCHESTRATORS = ['sandbox', 'follow-ups', 'desk'];
const FEATURE_USE_CASE_RULE = {
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: '^\\.\\./(?!shared/)[a-z-]+/[a-z-]+\\.use-case\\.js$',
          message:
            "A ledger feature does not import another feature's use case: reach it through a port, the outbox or a follow-up, or move the caller into sandbox/, follow-ups/ or desk/ (docs/architecture.md).",
        },
      ],
    },
  ],
};
const LEDGER_FEATURES = [
  {
    files: ['services/ledger/src/*/**/*.ts'],
    ignores: [...NOT_SHIPPED, 'services/ledger/src/shared/**', ...ORCHESTRATORS.map((folder) => `services/ledger/src/${folder}/**`)],
    rules: FEATURE_USE_CASE_RULE,
  },
];

const architectureRules = [
  {
    files: SHIPPED,
    ignores: [...NOT_SHIPPED, ...REPOSITORIES, ...COMPOSITION, ...DATABASE_PACKAGES, ...TRANSACTION_OWNERS],
    rules: { 'no-restricted-syntax': ['error', ...PRISMA_AND_SQL, TRANSACTION] },
  },
  {
    files: TRANSACTION_OWNERS.map((glob) => (glob.startsWith('**') ? `{packages,services}/*/src/${glob}` : glob)),
    ignores: NOT_SHIPPED,
    rules: { 'no-restricted-syntax': ['error', ...PRISMA_AND_SQL] },
  },
  ...SERVICES.flatMap((service) => [
    {
      files: [`services/${service}/src/**/*.ts`],
      ignores: [...NOT_SHIPPED, ...REPOSITORIES, ...COMPOSITION],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            paths: service === 'ledger' ? [DB_VALUES, LEDGER_SENDER] : [DB_VALUES],
            patterns: [...otherServices(service), ...NEVER[service]],
          },
        ],
      },
    },
    {
      files: [...REPOSITORIES, ...COMPOSITION].map((glob) =>
        glob.startsWith('**') ? `services/${service}/src/${glob}` : glob.replace('services/*/', `services/${service}/`),
      ),
      ignores: NOT_SHIPPED,
      rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...otherServices(service), ...NEVER[service]] }] },
    },
  ]),
  {
    files: [
      'services/webhook-worker/src/**/*.repository.ts',
      ...COMPOSITION.map((glob) => glob.replace('services/*/', 'services/webhook-worker/')),
    ],
    ignores: NOT_SHIPPED,
    rules: { 'no-restricted-syntax': ['error', ...WORKER_SQL] },
  },
  {
    files: ['services/console/src/**/*.ts'],
    ignores: NOT_SHIPPED,
    rules: { 'no-restricted-globals': OPERATORS_FETCH },
  },
  LEDGER_BOTTOM,
  ...LEDGER_FEATURES,
  {
    files: ['services/ledger/src/**/*.ts'],
    ignores: NOT_SHIPPED,
    rules: { 'no-restricted-globals': noFetch('The ledger never calls a partner: events go through the outbox and the worker') },
  },
  {
    files: ['packages/cli/src/**/*.ts'],
    ignores: NOT_SHIPPED,
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: only(HTTP_CLIENTS),
              allowTypeImports: true,
              message: 'The CLI reaches only the ledger, through @kasa/ops-client (docs/architecture.md).',
            },
          ],
        },
      ],
      'no-restricted-globals': OPERATORS_FETCH,
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'packages/db/src/generated/**',
      'test/contract/client/generated/**',
      'packages/sdk/src/generated/**',
      'coverage/**',
      '.kasa/**',
      '**/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URLSearchParams: 'readonly',
        document: 'readonly',
        window: 'readonly',
        navigator: 'readonly',
        location: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Type-aware rules on the shipped code: needless casts, floating promises, unsafe `any` and the like.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({
    ...config,
    files: ['{packages,services}/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/db/src/generated/**'],
  })),
  {
    files: ['{packages,services}/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/db/src/generated/**'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Tests read loosely typed JSON responses; `any` there is the honest type of a parsed body.
    files: ['**/*.test.ts', '**/test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  ...architectureRules,
);
