/**
 * The drill's services: the compiled gateway, ledger and webhook worker (`node services/<name>/dist/main.js`,
 * as their containers run) with a production environment, each on a fixed loopback port so that a restart
 * after kill -9 comes back where its callers expect it, as a Kubernetes Service name would.
 */
import { startCompiled, type CompiledHandle, type CompiledService } from '../../bench/lib/production-services.js';
import { sleep, until } from './wait.js';

export const SERVICES: readonly CompiledService[] = ['ledger', 'gateway', 'webhook-worker'];

const PORT_VARIABLE: Record<CompiledService, string> = {
  ledger: 'LEDGER_PORT',
  gateway: 'GATEWAY_PORT',
  'webhook-worker': 'WORKER_PORT',
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export class DrillServices {
  private readonly running = new Map<CompiledService, CompiledHandle>();
  /** Every process started, per service, for {@link DrillServices.warnings}. */
  private readonly warningsSeen = new Map<CompiledService, CompiledHandle[]>();

  /** Services that exited without the drill killing or stopping them: a crash, with why. */
  readonly crashes: string[] = [];

  constructor(
    private readonly env: Record<string, string>,
    readonly ports: Record<CompiledService, number>,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  url(name: CompiledService): string {
    return `http://127.0.0.1:${this.ports[name]}`;
  }

  async start(name: CompiledService): Promise<void> {
    const handle = await startCompiled(name, { ...this.env, [PORT_VARIABLE[name]]: String(this.ports[name]) });
    this.running.set(name, handle);
    this.warningsSeen.set(name, [...(this.warningsSeen.get(name) ?? []), handle]);
    void handle.exited.then(({ code, signal, stderr, lastErrors }) => {
      // Killed or stopped by the drill: it took the handle out first.
      if (this.running.get(name) !== handle) return;
      this.running.delete(name);
      const crash = `${name} exited by itself (code ${code}, signal ${signal}); last errors: ${lastErrors.join(' | ')}; stderr: ${stderr.slice(-3_000)}`;
      this.crashes.push(crash);
      this.log(crash);
    });
  }

  /** kill -9 (by the process's own pid), then starts it again at once, as a restart policy does; the restart's ms. */
  async killAndRestart(name: CompiledService): Promise<number> {
    const handle = this.running.get(name);
    if (!handle?.pid) throw new Error(`drill: ${name} is not running`);
    const pid = handle.pid;
    // Out of the running set first: its exit is the drill's doing, not a crash.
    this.running.delete(name);
    process.kill(pid, 'SIGKILL');
    await until(`${name} (pid ${pid}) exits`, 10_000, () => !alive(pid), 10);
    const started = Date.now();
    // A port just released by a killed process can be taken again at once; retry briefly if not.
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.start(name);
        return Date.now() - started;
      } catch (error) {
        if (attempt >= 3) throw error;
        await sleep(500);
      }
    }
  }

  /** Polls `/readyz` until it answers 200 (bounded); resolves null when ready, else the last answer seen. */
  async readiness(name: CompiledService, timeoutMs: number): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      try {
        const response = await fetch(`${this.url(name)}/readyz`, { signal: AbortSignal.timeout(2_000) });
        if (response.ok) return null;
        last = `${response.status} ${await response.text()}`;
      } catch (error) {
        last = String(error);
      }
      if (Date.now() > deadline) return last;
      await sleep(200);
    }
  }

  /** Error log lines written so far by the running processes (the ones killed are not counted). */
  errorLines(): number {
    return [...this.running.values()].reduce((sum, handle) => sum + handle.errorLines(), 0);
  }

  /**
   * The warnings and errors each service logged, by message, for a failed drill to print: every process of a
   * service counts, the killed ones included.
   */
  warnings(): string[] {
    return [...this.warningsSeen].flatMap(([name, handles]) =>
      handles.flatMap((handle) => handle.warnings().map(({ message, count, last }) => `${name}: ${count} × ${message} (last: ${last})`)),
    );
  }

  async stopAll(): Promise<void> {
    const handles = [...this.running.values()];
    this.running.clear();
    await Promise.all(handles.map((handle) => handle.stop()));
  }
}
