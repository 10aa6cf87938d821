/** One benchmark's section of docs/benchmarks.md, replaced between its own `<!-- name:start -->` markers and nowhere else. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeMarkedSection(path: string, name: string, heading: string, body: string): void {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from !== -1 && to > from) {
    writeFileSync(path, text.slice(0, from) + section + text.slice(to + end.length));
    return;
  }
  if (from !== -1 || to !== -1) throw new Error(`${path}: only one of the ${name} markers is present; fix it by hand`);
  writeFileSync(path, `${text.replace(/\s*$/, '')}\n\n## ${heading}\n\n${section}\n`);
}
