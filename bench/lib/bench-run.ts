/**
 * The frame of a benchmark over compiled services: a fresh database migrated by the image's migrate step, services
 * started with the run's production environment, and everything stopped and dropped however the run ends
 * (returning, throwing, the watchdog or a signal: guardRun).
 */
import { spawnSync } from 'node:child_process';
import { productionEnvironment, type ProductionEnvironment } from '../../packages/testkit/src/index.js';
import { repoPath } from './processes.js';
import { startCompiled, waitReady, type CompiledHandle, type CompiledService } from './production-services.js';
import { guardRun } from './run-guard.js';

export interface BenchRun {
  env: Record<string, string>;
  databaseUrl: string;
  /**
   * Starts a compiled service with the run's environment (`extra` on top) and waits until it is ready; `nodeArgs`:
   * Node flags NODE_OPTIONS refuses, such as `--cpu-prof`.
   */
  start(name: CompiledService, extra?: Record<string, string>, nodeArgs?: readonly string[]): Promise<CompiledHandle>;
}

export interface BenchRunOptions {
  /** The database (and Redis prefix) name's start, e.g. `kasa_bench_search`. */
  database: string;
  watchdogMs: number;
  log: (line: string) => void;
  /** Made before the database, inside the guard: settings the services need from it (a test CA, a receiver's address). */
  prepare?: () => Promise<Record<string, string>>;
  /** Ends what `prepare` made, after the services stop. */
  cleanup?: () => Promise<void>;
}

export async function benchRun(options: BenchRunOptions, body: (run: BenchRun) => Promise<void>): Promise<void> {
  const { log } = options;
  let production: ProductionEnvironment | undefined;
  const services: CompiledHandle[] = [];
  const { cleanup, watchdog } = guardRun({
    log,
    watchdogMs: options.watchdogMs,
    cleanup: async () => {
      // The last started first: a gateway before the ledger it calls.
      for (const service of [...services].reverse())
        await service.stop().catch((error: unknown) => log(`stop ${service.name}: ${String(error)}`));
      await options.cleanup?.().catch((error: unknown) => log(`cleanup: ${String(error)}`));
      if (production) await production.cleanup().catch((error: unknown) => log(`cleanup: ${String(error)}`));
    },
  });
  try {
    const extra = (await options.prepare?.()) ?? {};
    production = productionEnvironment(extra, options.database);
    const { env, databaseUrl } = production;
    const migrate = spawnSync(process.execPath, ['packages/db/dist/migrate.js'], { cwd: repoPath(), env, encoding: 'utf8' });
    if (migrate.status !== 0) throw new Error(`migrate failed: ${migrate.stderr}`);
    await body({
      env,
      databaseUrl,
      start: async (name, more = {}, nodeArgs = []) => {
        const service = await startCompiled(name, { ...env, ...more }, nodeArgs);
        services.push(service);
        await waitReady(service.url);
        return service;
      },
    });
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}
