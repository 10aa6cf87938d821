import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { decodeStatementBody, parseStatements } from './parse-statements.js';
import { StatementError, type ParsedStatements } from './statement.js';

/** What the worker is given, and what it answers (statement-parser.worker.ts). */
export interface WorkerInput {
  bytes: Uint8Array;
  contentType: string;
}
export type WorkerAnswer = { parsed: ParsedStatements } | { refused: { location: string; reason: string } };

/**
 * Bodies from this size are read on a worker thread. Reading costs about a quarter of a second per MiB of camt.053 on
 * one core, so a body below this is read in well under 100 ms where it is, and a larger one, up to the import's 10 MiB,
 * never holds up the process's other requests; starting a worker costs more than reading a small file.
 */
export const OFF_THREAD_FROM_BYTES = 256 * 1024;

/** A worker's heap: far above what a 10 MiB statement's tree needs, and a hostile one runs out there, not in the service. */
const WORKER_HEAP_MB = 1024;

// The bundle (scripts/build.mjs) compiles the worker to this name beside itself; from source it is not there, and the
// TypeScript beside this file is run instead.
const COMPILED_WORKER = new URL('./statement-parser.worker.js', import.meta.url);

/**
 * Decodes and reads a statement file's bytes ({@link decodeStatementBody}, {@link parseStatements}): in place when
 * small, on a worker thread from {@link OFF_THREAD_FROM_BYTES} (`offThreadFromBytes` for tests), so a large file
 * never stalls the event loop. Rejects with the same StatementError either way for a file that cannot be read.
 */
export async function readStatementFile(
  bytes: Uint8Array,
  contentType: string,
  options: { offThreadFromBytes?: number } = {},
): Promise<ParsedStatements> {
  if (bytes.length < (options.offThreadFromBytes ?? OFF_THREAD_FROM_BYTES)) {
    return parseStatements(decodeStatementBody(bytes, contentType), contentType);
  }
  const answer = await inWorker({ bytes, contentType });
  if ('refused' in answer) throw new StatementError(answer.refused.reason, answer.refused.location);
  return answer.parsed;
}

function inWorker(input: WorkerInput): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(input);
    let answered = false;
    worker.once('message', (answer: WorkerAnswer) => {
      answered = true;
      resolve(answer);
      void worker.terminate();
    });
    worker.once('error', (error: Error & { code?: string }) => {
      answered = true;
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        reject(new StatementError(`reading it needs more than ${WORKER_HEAP_MB} MiB; split the file by period`, 'line 1'));
      } else reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`the statement parser's worker exited with code ${code} without an answer`));
    });
  });
}

/** The compiled worker in a bundle; from source (tests, `tsx`), its TypeScript run through tsx's loader. */
function startWorker(workerData: WorkerInput): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (existsSync(fileURLToPath(COMPILED_WORKER))) return new Worker(COMPILED_WORKER, { workerData, resourceLimits });
  const source = new URL(COMPILED_WORKER.href.replace(/\.js$/, '.ts'));
  return new Worker(source, { workerData, resourceLimits, execArgv: ['--import', 'tsx'] });
}
