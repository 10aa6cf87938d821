/**
 * Checks for the root Dockerfile and .dockerignore (no Docker engine here, so they are read, not built): a
 * build stage that compiles the services, a production-only dependency stage, and a runtime stage with
 * compiled JavaScript, production dependencies and tini as PID 1, running `node services/<name>/dist/main.js`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  APP_SERVICES,
  IMAGE_ENTRYPOINT,
  MIGRATE_COMMAND,
  isSecretName,
  looksLikeToken,
  repoRoot,
  sameList,
  serviceCommand,
} from './common.js';

export const BASE_IMAGE = 'node:24-bookworm-slim';

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

interface Stage {
  name?: string;
  /** The image or earlier stage it starts from. */
  from: string;
  instructions: Instruction[];
}

/** The stages of a Dockerfile, in order; instructions before the first FROM (ARGs) belong to none. */
export function stagesOf(instructions: Instruction[]): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      stages.push({ name: match?.[2], from: match?.[1] ?? '', instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1]!.instructions.push(instruction);
    }
  }
  return stages;
}

/** `stage` and every stage it is built on, nearest first. */
function lineage(stages: Stage[], stage: Stage): Stage[] {
  const chain = [stage];
  for (let current = stage; ;) {
    const parent = stages.find((candidate) => candidate.name !== undefined && candidate.name === current.from);
    if (!parent || chain.includes(parent)) return chain;
    chain.push(parent);
    current = parent;
  }
}

const runs = (stage: Stage, pattern: RegExp): boolean => stage.instructions.some((i) => i.keyword === 'RUN' && pattern.test(i.args));

/** Each `pnpm install` / `pnpm deploy` command inside a RUN (a RUN may chain several commands). */
function pnpmInstalls(args: string): string[] {
  return args
    .split(/&&|;|\|\|/)
    .map((part) => part.trim())
    .filter((part) => /\bpnpm\s+(?:install|i|deploy)\b/.test(part));
}

/** The directories of the patch files pnpm-workspace.yaml's `patchedDependencies` names. */
export function patchDirectories(): string[] {
  const workspace = readFileSync(resolve(repoRoot, 'pnpm-workspace.yaml'), 'utf8');
  const section = /^patchedDependencies:\n((?:[ \t]+.*\n?)*)/m.exec(workspace)?.[1] ?? '';
  const files = [...section.matchAll(/:\s*['"]?([^'"\s]+\.patch)['"]?\s*$/gm)].map((match) => match[1]!);
  return [...new Set(files.map((file) => dirname(file)))];
}

/**
 * Whether `stage` puts `dir` in place: a COPY of it (or of the whole context) from the build context, or a COPY of
 * another stage's /manifests that a RUN of that stage filled with it.
 */
function holdsDirectory(stages: Stage[], stage: Stage, dir: string): boolean {
  return stage.instructions.some((i) => {
    if (i.keyword !== 'COPY') return false;
    const { from, sources } = copySources(i);
    if (from === undefined) return sources.some((source) => source === '.' || inApp(source) === dir);
    const giver = stages.find((candidate) => candidate.name === from);
    return (
      sources.some((source) => inApp(source).startsWith('/manifests') || source.startsWith('/manifests')) &&
      giver !== undefined &&
      runs(giver, new RegExp(`\\b${dir}\\b[^&;|]*/manifests|/manifests[^&;|]*\\b${dir}\\b`))
    );
  });
}

const isProdInstall = (command: string): boolean => /\s--prod\b|\s-P\b|\s--production\b/.test(command);

/** The COPY sources and their --from stage (undefined: the build context). */
function copySources(instruction: Instruction): { from?: string; sources: string[] } {
  const parts = instruction.args.split(/\s+/);
  const from = parts.find((part) => part.startsWith('--from='))?.slice('--from='.length);
  const paths = parts.filter((part) => !part.startsWith('--'));
  return { from, sources: paths.slice(0, -1) };
}

const inApp = (source: string): string => source.replace(/^\/app\/?/, '').replace(/\/+$/, '');

/** What the runtime stage must copy from the build: each service's dist, the migrate step and its migrations. */
export function requiredRuntimeFiles(): string[] {
  return [...APP_SERVICES.map((service) => dirname(serviceCommand(service)[1]!)), dirname(MIGRATE_COMMAND[1]!), 'prisma/migrations'];
}

/** Every rule the Dockerfile must meet; [] when it does. */
export function dockerfileProblems(text: string): string[] {
  const problems: string[] = [];
  const instructions = parseDockerfile(text);

  // Stages: every one starts from the Node 24 LTS slim image, or from an earlier stage.
  const stages = stagesOf(instructions);
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const image = /^(?:--platform=\S+\s+)?(\S+)/.exec(instruction.args)?.[1] ?? '';
      const earlier = stagesOf(instructions.filter((i) => i.line < instruction.line)).some((stage) => stage.name === image);
      if (image !== BASE_IMAGE && !earlier)
        problems.push(`line ${instruction.line}: FROM ${image} is neither ${BASE_IMAGE} nor an earlier stage`);
    } else if (!instructions.some((i) => i.keyword === 'FROM' && i.line < instruction.line) && instruction.keyword !== 'ARG') {
      problems.push(`line ${instruction.line}: ${instruction.keyword} before FROM`);
    }
  }
  if (stages.length === 0) return [...problems, 'no FROM'];

  // Building: pnpm 10, every install from the lockfile as it is, the Prisma client, then the compiled services.
  const runIndex = (pattern: RegExp): number => instructions.findIndex((i) => i.keyword === 'RUN' && pattern.test(i.args));
  if (runIndex(/\bnpm\s+(?:install|i)\s+(?:-g|--global)\s+pnpm@10\b/) < 0) problems.push('pnpm@10 is not installed with npm install -g');
  const installs = instructions.filter((i) => i.keyword === 'RUN').flatMap((i) => pnpmInstalls(i.args).map((command) => ({ i, command })));
  for (const { i, command } of installs) {
    if (/\bpnpm\s+(?:install|i)\b/.test(command) && !/--frozen-lockfile\b/.test(command))
      problems.push(`line ${i.line}: a pnpm install without --frozen-lockfile (it may rewrite the lockfile)`);
  }
  const install = instructions.findIndex((i) =>
    pnpmInstalls(i.keyword === 'RUN' ? i.args : '').some((c) => /\bpnpm\s+(?:install|i)\b/.test(c) && !isProdInstall(c)),
  );
  if (install < 0) problems.push('no pnpm install --frozen-lockfile of the whole workspace (the build needs its dev dependencies)');
  const generate = runIndex(/\bPRISMA_SCHEMA_ENGINE_BINARY=\/usr\/local\/bin\/node\s+npx\s+prisma\s+generate\b/);
  if (generate < 0) problems.push('no PRISMA_SCHEMA_ENGINE_BINARY=/usr/local/bin/node npx prisma generate');
  if (install >= 0 && generate >= 0 && generate < install) problems.push('prisma generate runs before pnpm install');
  const build = runIndex(/\b(?:node\s+scripts\/build\.mjs|npm\s+run\s+build|pnpm\s+(?:run\s+)?build)\b/);
  if (build < 0) problems.push('the services are not compiled (node scripts/build.mjs)');
  if (build >= 0 && generate >= 0 && build < generate) problems.push('the services are compiled before the Prisma client is generated');
  // What setup writes from the tree (scripts/generate-sources.mjs: the schema's tables, the record kinds' lists) is
  // gitignored, so a fresh clone's image must write it before the bundles import it.
  const sources = runIndex(/\bnode\s+scripts\/generate-sources\.mjs\b/);
  if (sources < 0) problems.push('the derived sources are not generated (node scripts/generate-sources.mjs)');
  if (build >= 0 && sources >= 0 && build < sources) problems.push('the services are compiled before the derived sources are generated');

  // Production dependencies: installed with --prod in a stage that never held the dev dependencies.
  const prodStages = stages.filter((stage) =>
    stage.instructions.some((i) => i.keyword === 'RUN' && pnpmInstalls(i.args).some(isProdInstall)),
  );
  if (prodStages.length === 0) problems.push('no production-only install (pnpm install --prod or pnpm deploy --prod)');
  for (const stage of prodStages) {
    const devInstall = lineage(stages, stage).find((s) =>
      s.instructions.some((i) => i.keyword === 'RUN' && pnpmInstalls(i.args).some((c) => !isProdInstall(c))),
    );
    if (devInstall)
      problems.push(
        `stage ${stage.name ?? '?'} installs production dependencies over stage ${devInstall.name ?? '?'}, which has the dev ones`,
      );
  }

  // The workspace's dependency patches (pnpm-workspace.yaml, patchedDependencies) are in every stage that fetches or
  // installs: a frozen install whose patch files are missing fails, and one that skipped them would ship the unpatched code.
  for (const dir of patchDirectories()) {
    for (const stage of stages.filter((candidate) => runs(candidate, /\bpnpm\s+(?:install|i|fetch)\b/))) {
      if (!lineage(stages, stage).some((holder) => holdsDirectory(stages, holder, dir)))
        problems.push(`stage ${stage.name ?? '?'} runs pnpm without the dependency patches in ${dir}/`);
    }
  }

  // The image that runs: non-root user node, production mode, compiled code, prod dependencies, tini.
  const finalStage = stages[stages.length - 1]!;
  const final = finalStage.instructions;
  const ancestry = lineage(stages, finalStage);
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
  for (const stage of ancestry) {
    if (runs(stage, /\bpnpm\b|\bnpm\s+(?:install|i|ci)\b/))
      problems.push(
        `the final stage is built on stage ${stage.name ?? stage.from}, which installs packages (its store or dev dependencies would ship)`,
      );
  }
  if (final.some((i) => /\btsx\b/.test(i.args))) problems.push('the final stage mentions tsx: it runs compiled JavaScript only');

  const prodNames = new Set(prodStages.map((stage) => stage.name));
  const copied = new Set<string>();
  for (const instruction of final.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')) {
    const { from, sources } = copySources(instruction);
    for (const source of sources.map(inApp)) {
      copied.add(source);
      if ((source === '' || source === '.') && from !== undefined) {
        problems.push(`line ${instruction.line}: copies the whole of stage ${from} (its sources and dev dependencies)`);
      } else if (source.split('/').includes('node_modules') && !prodNames.has(from)) {
        problems.push(`line ${instruction.line}: ${source} comes from ${from ?? 'the build context'}, not the production-only install`);
      }
    }
  }
  for (const needed of requiredRuntimeFiles()) {
    if (!copied.has(needed)) problems.push(`the final stage does not copy ${needed}`);
  }

  const cmd = final.filter((i) => i.keyword === 'CMD').pop();
  const command = cmd ? execForm(cmd.args) : undefined;
  if (!command || !APP_SERVICES.some((service) => sameList(command, serviceCommand(service)))) {
    problems.push(`CMD is not the exec form ${JSON.stringify(serviceCommand('gateway'))} of a service`);
  }
  const entrypoint = final.filter((i) => i.keyword === 'ENTRYPOINT').pop();
  if (!entrypoint) problems.push(`no ENTRYPOINT ${JSON.stringify(IMAGE_ENTRYPOINT)}: node would be PID 1`);
  else if (!execForm(entrypoint.args)) problems.push('ENTRYPOINT is not in exec form (signals would not reach the service)');
  else if (!sameList(execForm(entrypoint.args), IMAGE_ENTRYPOINT)) problems.push(`ENTRYPOINT is not ${JSON.stringify(IMAGE_ENTRYPOINT)}`);
  if (!ancestry.some((stage) => runs(stage, /\bapt-get\s+install\b[^&;|]*\btini\b/))) {
    problems.push('tini is not installed (apt-get install tini) in a stage the final one is built on');
  }

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
    const { from, sources } = copySources(instruction);
    if (from !== undefined) continue;
    for (const source of sources) {
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

export const MUST_IGNORE = [
  'node_modules',
  'services/gateway/node_modules',
  '.git',
  'packages/db/src/generated',
  '.env',
  // A local build: the image compiles its own.
  'services/gateway/dist',
  'packages/db/dist',
];
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
  'scripts/build.mjs',
  'services/gateway/src/main.ts',
  'services/gateway/package.json',
  'docs',
];

export function dockerignoreProblems(text: string): string[] {
  return [
    ...MUST_IGNORE.filter((path) => !isIgnored(text, path)).map((path) => `.dockerignore does not exclude ${path}`),
    ...MUST_KEEP.filter((path) => isIgnored(text, path)).map((path) => `.dockerignore excludes ${path}, which the image needs`),
  ];
}
