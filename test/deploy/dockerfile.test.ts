import { describe, expect, it } from '@jest/globals';
import { IMAGE_ENTRYPOINT, readRepoFile, serviceCommand } from './common.js';
import {
  BASE_IMAGE,
  dockerfileProblems,
  dockerignoreProblems,
  isIgnored,
  parseDockerfile,
  requiredRuntimeFiles,
  stagesOf,
} from './dockerfile-checks.js';

const dockerfile = readRepoFile('Dockerfile');
const dockerignore = readRepoFile('.dockerignore');

describe('Dockerfile', () => {
  it('builds on node:24-bookworm-slim with pnpm@10, a frozen lockfile, a generated Prisma client and compiled services', () => {
    expect(dockerfileProblems(dockerfile)).toEqual([]);
  });

  it('builds and runs on the Node of .nvmrc and package.json engines (24 LTS)', () => {
    const major = /^node:(\d+)-/.exec(BASE_IMAGE)?.[1];
    expect(major).toBe('24');
    expect(readRepoFile('.nvmrc').trim()).toBe(major);
    expect((JSON.parse(readRepoFile('package.json')) as { engines: { node: string } }).engines.node).toBe(`>=${major}`);
    const stages = stagesOf(parseDockerfile(dockerfile));
    const build = stages.find((stage) => stage.name === 'build')!;
    const runtime = stages[stages.length - 1]!;
    // Both reach the base image through their parent stages.
    const root = (stage: (typeof stages)[number]): string => {
      const parent = stages.find((candidate) => candidate.name === stage.from);
      return parent ? root(parent) : stage.from;
    };
    expect([root(build), root(runtime)]).toEqual([BASE_IMAGE, BASE_IMAGE]);
  });

  it('runs compiled JavaScript with production dependencies only, as user node, under tini', () => {
    const stages = stagesOf(parseDockerfile(dockerfile));
    const runtime = stages[stages.length - 1]!.instructions;
    const json = (keyword: string) => JSON.parse(runtime.filter((i) => i.keyword === keyword).pop()!.args) as unknown;
    expect(json('ENTRYPOINT')).toEqual(IMAGE_ENTRYPOINT);
    expect(json('CMD')).toEqual(serviceCommand('gateway'));
    expect(runtime.filter((i) => i.keyword === 'COPY').every((i) => i.args.startsWith('--from='))).toBe(true);
    expect(requiredRuntimeFiles()).toEqual([
      'services/gateway/dist',
      'services/ledger/dist',
      'services/webhook-worker/dist',
      'services/console/dist',
      'packages/db/dist',
      'prisma/migrations',
    ]);
  });

  it('joins continued lines', () => {
    expect(parseDockerfile('FROM a\nRUN one \\\n  && two\n# note\nUSER node\n')).toEqual([
      { line: 1, keyword: 'FROM', args: 'a' },
      { line: 2, keyword: 'RUN', args: 'one    && two' },
      { line: 5, keyword: 'USER', args: 'node' },
    ]);
  });

  const runtimeCopies = /^COPY --from=deps \/app\/node_modules .*$/m;
  const cases: Array<[string, (text: string) => string, string]> = [
    ['running as root', (text) => text.replace(/^USER node$/m, 'USER root'), 'runs as root'],
    ['no USER', (text) => text.replace(/^USER node$/m, ''), 'runs as root'],
    ['another base image', (text) => text.replace('FROM node:24-bookworm-slim', 'FROM node:22-alpine'), 'FROM node:22-alpine'],
    ['the previous Node', (text) => text.replace('FROM node:24-bookworm-slim', 'FROM node:20-bookworm-slim'), 'FROM node:20-bookworm-slim'],
    ['an install that may rewrite the lockfile', (text) => text.replace('--frozen-lockfile --offline\n', '--offline\n'), 'frozen-lockfile'],
    ['pnpm from somewhere else', (text) => text.replace('npm install -g pnpm@10', 'corepack enable'), 'pnpm@10'],
    ['no Prisma client', (text) => text.replace(/^RUN PRISMA_SCHEMA_ENGINE_BINARY.*$/m, ''), 'prisma generate'],
    ['no compiled services', (text) => text.replace(/^RUN node scripts\/build\.mjs.*$/m, ''), 'not compiled'],
    ['no derived sources', (text) => text.replace(/^RUN node scripts\/generate-sources\.mjs$/m, ''), 'derived sources are not generated'],
    [
      'the derived sources after the build',
      (text) =>
        text
          .replace(/^RUN node scripts\/generate-sources\.mjs\n/m, '')
          .replace(/^(RUN node scripts\/build\.mjs.*)$/m, '$1\nRUN node scripts/generate-sources.mjs'),
      'before the derived sources',
    ],
    [
      'a baked-in secret',
      (text) => text.replace('ENV NODE_ENV=production', 'ENV INTERNAL_TOKEN=abc NODE_ENV=production'),
      'bakes a secret',
    ],
    ['a shell-form CMD', (text) => text.replace(/^CMD .*$/m, 'CMD node services/gateway/dist/main.js'), 'CMD'],
    ['the service run through tsx', (text) => text.replace(/^CMD .*$/m, 'CMD ["npx", "tsx", "services/gateway/src/main.ts"]'), 'tsx'],
    ['no tini', (text) => text.replace(/^ENTRYPOINT .*$/m, ''), 'ENTRYPOINT'],
    ['node as the entrypoint', (text) => text.replace(/^ENTRYPOINT .*$/m, 'ENTRYPOINT ["node"]'), 'ENTRYPOINT'],
    ['a shell-form ENTRYPOINT', (text) => text.replace(/^ENTRYPOINT .*$/m, 'ENTRYPOINT /usr/bin/tini --'), 'exec form'],
    ['no tini installed', (text) => text.replace(/--no-install-recommends tini/, '--no-install-recommends curl'), 'tini is not installed'],
    [
      'dev dependencies shipped',
      (text) => text.replace(runtimeCopies, 'COPY --from=build /app/node_modules ./node_modules'),
      'not the production-only',
    ],
    ['the whole build stage shipped', (text) => text.replace(runtimeCopies, 'COPY --from=build /app /app'), 'the whole of stage build'],
    ['a production install that is not', (text) => text.replace('pnpm install --prod ', 'pnpm install '), 'production-only'],
    ['a production install over the dev one', (text) => text.replace('FROM pnpm AS deps', 'FROM build AS deps'), 'has the dev ones'],
    ['a runtime built on the build stage', (text) => text.replace('FROM base AS runtime', 'FROM build AS runtime'), 'installs packages'],
    ['a service left out', (text) => text.replace(/^COPY --from=build \/app\/services\/ledger\/dist .*$/m, ''), 'services/ledger/dist'],
    ['no migrations', (text) => text.replace(/^COPY --from=build \/app\/prisma\/migrations .*$/m, ''), 'prisma/migrations'],
    ['copying a file that does not exist', (text) => text.replace('COPY pnpm-lock.yaml', 'COPY package-lock.json'), 'does not exist'],
    ['pnpm fetch without the dependency patches', (text) => text.replace(/^COPY patches .*$/m, ''), 'stage pnpm runs pnpm without'],
  ];

  it.each(cases)('rejects %s', (_name, mutate, expected) => {
    const broken = mutate(dockerfile);
    expect(broken).not.toBe(dockerfile);
    expect(dockerfileProblems(broken)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});

describe('.dockerignore', () => {
  it('keeps node_modules, .git and the generated Prisma client out, and what the build needs in', () => {
    expect(dockerignoreProblems(dockerignore)).toEqual([]);
  });

  it('matches paths like Docker', () => {
    expect(isIgnored('node_modules\n', 'node_modules')).toBe(true);
    expect(isIgnored('node_modules\n', 'services/ledger/node_modules')).toBe(false);
    expect(isIgnored('**/node_modules\n', 'services/ledger/node_modules')).toBe(true);
    expect(isIgnored('*.md\n!README.md\n', 'README.md')).toBe(false);
  });

  it.each([
    ['with a local build', (text: string) => text.replace(/^\*\*\/dist$/m, ''), 'does not exclude services/gateway/dist'],
    ['without node_modules', (text: string) => text.replace(/^.*node_modules$/gm, ''), 'does not exclude node_modules'],
    ['excluding docs', (text: string) => `${text}\ndocs\n`, 'excludes docs'],
    ['excluding the lockfile', (text: string) => `${text}\n*.yaml\n`, 'excludes pnpm-lock.yaml'],
  ])('rejects a copy %s', (_name, mutate, expected) => {
    expect(dockerignoreProblems(mutate(dockerignore))).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});
