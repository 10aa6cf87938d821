/**
 * Child-process entry for the benchmark: starts one server (the real ledger, the real gateway, or the bare
 * baseline) on a free port of 127.0.0.1 and reports the port over IPC. Started by processes.ts as
 * `node --import tsx bench/lib/child.ts <role>` so the load generator never shares its event loop.
 *
 * Messages: parent -> child `{ type: 'stop' }`; child -> parent `{ type: 'ready', port }` or `{ type: 'failed', error }`.
 * The child also exits when the IPC channel closes (the parent died), so nothing is left running.
 */
import { decodeConfig } from './config-codec.js';
import { startServer, type Role } from './servers.js';

const role = process.argv[2] as Role;
const configText = process.env.BENCH_KASA_CONFIG;

async function main(): Promise<void> {
  if (!configText) throw new Error('BENCH_KASA_CONFIG is not set');
  const server = await startServer(role, decodeConfig(configText));
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(code), 10_000);
    timer.unref();
    server.stop().then(
      () => process.exit(code),
      () => process.exit(1),
    );
  };
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'stop') stop(0);
  });
  process.on('disconnect', () => stop(1));
  process.on('SIGTERM', () => stop(0));
  process.send?.({ type: 'ready', port: server.port });
}

main().catch((error: unknown) => {
  process.send?.({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
