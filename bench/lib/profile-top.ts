/**
 * Summarises a V8 .cpuprofile (from BENCH_CPU_PROF_DIR): self time by function and by package, and the
 * total (inclusive) time of frames whose name or URL matches an optional filter.
 *
 *   npx tsx bench/lib/profile-top.ts /tmp/prof/gateway-123.cpuprofile [topN] [filter-regexp]
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

const [file, topArg, filterArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-top.ts <file.cpuprofile> [topN] [filter]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
};
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const totalUs = profile.endTime - profile.startTime;

const pkg = (url: string): string => {
  if (!url) return '(native/vm)';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1] as string;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const repo = /\/work\/main\/(.+)$/.exec(url);
  return repo ? (repo[1] as string).split('/').slice(0, 3).join('/') : url;
};

const fnSelf = new Map<string, number>();
const pkgSelf = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\/\.pnpm\//, '').replace('file:///work/main/', '')}:${lineNumber + 1}`;
  fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
  if (functionName === '(idle)') continue;
  pkgSelf.set(pkg(url), (pkgSelf.get(pkg(url)) ?? 0) + us);
}
const idle = [...fnSelf.entries()].filter(([k]) => k.startsWith('(idle)')).reduce((a, [, v]) => a + v, 0);
const busy = totalUs - idle;
const pct = (us: number) => `${((us / busy) * 100).toFixed(1)}%`;
const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title} (share of non-idle ${Math.round(busy / 1000)} ms of ${Math.round(totalUs / 1000)} ms)\n`);
  for (const [key, us] of [...map.entries()]
    .filter(([k]) => !k.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    process.stdout.write(
      `  ${pct(us).padStart(6)}  ${Math.round(us / 1000)
        .toString()
        .padStart(6)} ms  ${key}\n`,
    );
  }
};
print('self time by package', pkgSelf);
print('self time by function', fnSelf);

if (filterArg) {
  // Inclusive time of every frame matching the filter (outermost match only, so recursion is not double counted).
  const filter = new RegExp(filterArg);
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of selfUs) {
    let current: number | undefined = id;
    let outer: string | undefined;
    while (current !== undefined) {
      const node = byId.get(current);
      if (!node) break;
      const name = `${node.callFrame.functionName || '(anonymous)'} ${pkg(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
      if (filter.test(name)) outer = name;
      current = parent.get(current);
    }
    if (outer) inclusive.set(outer, (inclusive.get(outer) ?? 0) + us);
  }
  print(`inclusive time of frames matching /${filterArg}/ (outermost)`, inclusive);
}
