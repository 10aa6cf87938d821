// Kasa runs on Node 24 LTS (.nvmrc, package.json engines). On a machine whose `node` is older, `npm start` and
// `npm test` run themselves again under Node 24 from npm's `node@24` package, installed once into .kasa/node24.
// Plain Node with no dependencies: it runs before anything is installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export const NODE_MAJOR = 24;

/**
 * Returns when this process already runs on Node 24 or newer. Otherwise runs `script` with the same arguments on
 * Node 24 (installing it first), passes SIGINT and SIGTERM on, and exits with its code: it never returns.
 */
export async function onNodeLts(root, script) {
  const major = Number(process.versions.node.split('.')[0]);
  // Set for the run on Node 24 only (a guard against a loop), not for what that run starts.
  const again = process.env.KASA_NODE_LTS_REEXEC;
  delete process.env.KASA_NODE_LTS_REEXEC;
  if (major >= NODE_MAJOR || again) return;
  const prefix = join(root, '.kasa', `node${NODE_MAJOR}`);
  const node = join(prefix, 'node_modules', 'node', 'bin', 'node');
  const works = () => existsSync(node) && spawnSync(node, ['--version'], { stdio: 'ignore' }).status === 0;
  if (!works()) {
    console.error(`[kasa] this is Node ${process.version}; Kasa runs on Node ${NODE_MAJOR}: installing node@${NODE_MAJOR} into ${prefix}`);
    mkdirSync(prefix, { recursive: true });
    const install = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node@${NODE_MAJOR}`], {
      stdio: ['ignore', 2, 2],
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    if (install.status !== 0 || !works()) {
      console.error(
        `[kasa] could not install node@${NODE_MAJOR} from npm; install Node ${NODE_MAJOR} (nvm install, see .nvmrc) and run again`,
      );
      process.exit(1);
    }
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.error(`[kasa] running on Node ${version} from ${prefix} (this shell's node is ${process.version})`);
  const child = spawn(node, [script, ...process.argv.slice(2)], {
    cwd: process.cwd(),
    stdio: 'inherit',
    // First on PATH too, so what it starts by name (npx pnpm, npm) runs on Node 24 as well.
    env: { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}`, KASA_NODE_LTS_REEXEC: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const [code, signal] = await new Promise((resolve) => child.on('exit', (...args) => resolve(args)));
  process.exit(code ?? (signal ? 1 : 0));
}
