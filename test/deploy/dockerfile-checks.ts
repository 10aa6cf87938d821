/** Checks for the root Dockerfile and .dockerignore (no Docker engine here, so they are read, not built). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isSecretName, looksLikeToken, repoRoot } from './common.js';

export const BASE_IMAGE = 'node:20-bookworm-slim';

export interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** Instructions of a Dockerfile, continuation lines joined and comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const instructions: Instruction[] = [];
  const lines = text.split('\n');
  let buffer = '';
  let start = 0;
  lines.forEach((raw, index) => {
    const line = raw.trimEnd();
    if (buffer === '' && (line.trim() === '' || line.trim().startsWith('#'))) return;
    if (buffer !== '' && line.trim().startsWith('#')) return; // comment inside a continued instruction
    if (buffer === '') start = index + 1;
    if (line.endsWith('\\')) {
      buffer += `${line.slice(0, -1)} `;
      return;
    }
    buffer += line;
    const match = /^\s*([A-Za-z]+)\s+([\s\S]*)$/.exec(buffer);
    if (match) instructions.push({ line: start, keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
    buffer = '';
  });
  return instructions;
}

function execForm(args: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(args);
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** Every rule the Dockerfile must meet; [] when it does. */
export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const instructions = parseDockerfile(text);

  // Stages: every one starts from the Node 20 slim image, or from an earlier stage.
  const stages: Array<{ name?: string; instructions: Instruction[] }> = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      const image = match?.[1] ?? '';
      if (image !== BASE_IMAGE && !stages.some((stage) => stage.name === image)) {
        problems.push(`line ${instruction.line}: FROM ${image} is neither ${BASE_IMAGE} nor an earlier stage`);
      }
      stages.push({ name: match?.[2], instructions: [] });
    } else if (stages.length === 0) {
      if (instruction.keyword !== 'ARG') problems.push(`line ${instruction.line}: ${instruction.keyword} before FROM`);
    } else {
      stages[stages.length - 1]!.instructions.push(instruction);
    }
  }
  if (stages.length === 0) return [...problems, 'no FROM'];

  const runs = instructions.filter((i) => i.keyword === 'RUN');
  const runIndex = (pattern: RegExp): number => instructions.findIndex((i) => i.keyword === 'RUN' && pattern.test(i.args));
  if (!runs.some((run) => /\bnpm\s+(?:install|i)\s+(?:-g|--global)\s+pnpm@10\b/.test(run.args))) {
    problems.push('pnpm@10 is not installed with npm install -g');
  }
  const install = runIndex(/\bpnpm\s+install\b[^&;|]*--frozen-lockfile/);
  if (install < 0) problems.push('no pnpm install --frozen-lockfile');
  const generate = runIndex(/\bPRISMA_SCHEMA_ENGINE_BINARY=\/usr\/local\/bin\/node\s+npx\s+prisma\s+generate\b/);
  if (generate < 0) problems.push('no PRISMA_SCHEMA_ENGINE_BINARY=/usr/local/bin/node npx prisma generate');
  if (install >= 0 && generate >= 0 && generate < install) problems.push('prisma generate runs before pnpm install');

  // The image that runs: non-root user node, production mode, a service command.
  const final = stages[stages.length - 1]!.instructions;
  const users = final.filter((i) => i.keyword === 'USER');
  const user = users[users.length - 1]?.args;
  if (user !== 'node' && user !== 'node:node') problems.push(`the final stage runs as ${user ?? 'root'}, not node`);
  const lastUser = users.length === 0 ? -1 : final.lastIndexOf(users[users.length - 1]!);
  if (lastUser >= 0 && final.some((i, index) => index > lastUser && i.keyword === 'RUN')) {
    problems.push('a RUN after USER in the final stage: build steps belong before it');
  }
  if (!final.some((i) => i.keyword === 'WORKDIR')) problems.push('the final stage sets no WORKDIR');
  if (!final.some((i) => i.keyword === 'ENV' && /\bNODE_ENV=production\b/.test(i.args))) {
    problems.push('the final stage does not set NODE_ENV=production');
  }
  const cmd = final.filter((i) => i.keyword === 'CMD').pop();
  const command = cmd ? execForm(cmd.args) : undefined;
  if (!command || command[0] !== 'npx' || command[1] !== 'tsx' || !/^services\/[a-z-]+\/src\/main\.ts$/.test(command[2] ?? '')) {
    problems.push('CMD is not the exec form ["npx", "tsx", "services/<name>/src/main.ts"]');
  }
  const entrypoint = final.filter((i) => i.keyword === 'ENTRYPOINT').pop();
  if (entrypoint && !execForm(entrypoint.args)) problems.push('ENTRYPOINT is not in exec form (signals would not reach the service)');

  // Nothing secret is baked in.
  for (const instruction of instructions.filter((i) => i.keyword === 'ENV' || i.keyword === 'ARG')) {
    for (const pair of instruction.args.split(/\s+/)) {
      const [name = '', value = ''] = pair.split('=');
      if (isSecretName(name) || looksLikeToken(value))
        problems.push(`line ${instruction.line}: ${instruction.keyword} ${name} bakes a secret into the image`);
    }
  }

  // COPY from the build context names files that exist.
  for (const instruction of instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
    const parts = instruction.args.split(/\s+/).filter((part) => !part.startsWith('--'));
    if (/--from=/.test(instruction.args)) continue;
    for (const source of parts.slice(0, -1)) {
      if (source !== '.' && !existsSync(resolve(repoRoot, source)))
        problems.push(`line ${instruction.line}: COPY source ${source} does not exist`);
    }
  }
  return problems;
}

function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i]!;
    if (ch === '*' && pattern[i + 1] === '*') {
      out += '.*';
      i += 1;
      if (pattern[i + 1] === '/') i += 1;
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}(/.*)?$`);
}

/** Whether .dockerignore `text` keeps `path` (relative to the repository root) out of the build context. */
export function isIgnored(text: string, path: string): boolean {
  let ignored = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, '');
    if (globToRegExp(pattern).test(path)) ignored = !negate;
  }
  return ignored;
}

export const MUST_IGNORE = ['node_modules', 'services/gateway/node_modules', '.git', 'packages/db/src/generated', '.env'];
export const MUST_KEEP = [
  'package.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'tsconfig.base.json',
  'prisma.config.ts',
  'prisma/schema.prisma',
  'prisma/migrations',
  'packages/db/src/cli/migrate.cli.ts',
  'packages/config/src/index.ts',
  'services/gateway/package.json',
  'docs',
];

export function dockerignoreProblems(text: string): string[] {
  return [
    ...MUST_IGNORE.filter((path) => !isIgnored(text, path)).map((path) => `.dockerignore does not exclude ${path}`),
    ...MUST_KEEP.filter((path) => isIgnored(text, path)).map((path) => `.dockerignore excludes ${path}, which the image needs`),
  ];
}
