import { describe, expect, it } from '@jest/globals';
import { readRepoFile } from './common.js';
import { dockerfileProblems, dockerignoreProblems, isIgnored, parseDockerfile } from './dockerfile-checks.js';

const dockerfile = readRepoFile('Dockerfile');
const dockerignore = readRepoFile('.dockerignore');

describe('Dockerfile', () => {
  it('builds one non-root image on node:20-bookworm-slim with pnpm@10, a frozen lockfile and a generated Prisma client', () => {
    expect(dockerfileProblems(dockerfile)).toEqual([]);
  });

  it('joins continued lines', () => {
    expect(parseDockerfile('FROM a\nRUN one \\\n  && two\n# note\nUSER node\n')).toEqual([
      { line: 1, keyword: 'FROM', args: 'a' },
      { line: 2, keyword: 'RUN', args: 'one    && two' },
      { line: 5, keyword: 'USER', args: 'node' },
    ]);
  });

  const cases: Array<[string, (text: string) => string, string]> = [
    ['running as root', (text) => text.replace(/^USER node$/m, 'USER root'), 'runs as root'],
    ['no USER', (text) => text.replace(/^USER node$/m, ''), 'runs as root'],
    ['another base image', (text) => text.replace('FROM node:20-bookworm-slim', 'FROM node:22-alpine'), 'FROM node:22-alpine'],
    ['an install that may rewrite the lockfile', (text) => text.replace('--frozen-lockfile', ''), 'frozen-lockfile'],
    ['pnpm from somewhere else', (text) => text.replace('npm install -g pnpm@10', 'corepack enable'), 'pnpm@10'],
    ['no Prisma client', (text) => text.replace(/^RUN PRISMA_SCHEMA_ENGINE_BINARY.*$/m, ''), 'prisma generate'],
    [
      'a baked-in secret',
      (text) => text.replace('ENV NODE_ENV=production', 'ENV INTERNAL_TOKEN=abc NODE_ENV=production'),
      'bakes a secret',
    ],
    ['a shell-form CMD', (text) => text.replace(/^CMD .*$/m, 'CMD npx tsx services/gateway/src/main.ts'), 'CMD'],
    ['copying a file that does not exist', (text) => text.replace('COPY pnpm-lock.yaml', 'COPY package-lock.json'), 'does not exist'],
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
    ['without node_modules', (text: string) => text.replace(/^.*node_modules$/gm, ''), 'does not exclude node_modules'],
    ['excluding docs', (text: string) => `${text}\ndocs\n`, 'excludes docs'],
    ['excluding the lockfile', (text: string) => `${text}\n*.yaml\n`, 'excludes pnpm-lock.yaml'],
  ])('rejects a copy %s', (_name, mutate, expected) => {
    expect(dockerignoreProblems(mutate(dockerignore))).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});
