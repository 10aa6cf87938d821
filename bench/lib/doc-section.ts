/**
 * One benchmark's section of docs/benchmarks.md, replaced between its own `<!-- name:start -->` markers and nowhere
 * else, and written as the repository's formatter would (so `npm run format:check` stays green after a run).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export async function writeMarkedSection(path: string, name: string, heading: string, body: string): Promise<void> {
  const prettier = await import('prettier');
  const format = async (text: string) => prettier.format(text, { ...(await prettier.resolveConfig(path)), filepath: path });
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from !== -1 && to > from) {
    writeFileSync(path, await format(text.slice(0, from) + section + text.slice(to + end.length)));
    return;
  }
  if (from !== -1 || to !== -1) throw new Error(`${path}: only one of the ${name} markers is present; fix it by hand`);
  writeFileSync(path, await format(`${text.replace(/\s*$/, '')}\n\n## ${heading}\n\n${section}\n`));
}
