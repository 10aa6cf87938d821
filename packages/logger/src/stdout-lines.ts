import winston from 'winston';

// winston exports its transport base class as `Transport`; its typings name the same class `transport`.
const Transport = (winston as unknown as { Transport: new () => winston.transport }).Transport;

/** Where winston's formats leave the finished line (triple-beam's MESSAGE). */
const MESSAGE = Symbol.for('message');

let pending: string[] = [];
let scheduled = false;
let exitHooked = false;

function flush(): void {
  scheduled = false;
  if (pending.length === 0) return;
  const text = pending.join('');
  pending = [];
  process.stdout.write(text);
}

/**
 * The JSON lines on stdout, the lines of one event-loop turn in one write. winston's Console transport writes
 * each line on its own, and stdout to a file or a pipe (what a container runtime gives) is synchronous: one
 * system call per line, two per request in the ledger at `info`. Here the lines wait for the end of the
 * turn (`setImmediate`), in order, and whatever is still waiting is written when the process exits, so a
 * line is lost only to a SIGKILL in the same turn. All instances share one buffer, so lines of several
 * loggers in one process keep their order too.
 */
export class StdoutLines extends Transport {
  override log(info: unknown, next: () => void): void {
    pending.push(`${(info as Record<symbol, string>)[MESSAGE]}\n`);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', flush);
    }
    next();
  }
}
