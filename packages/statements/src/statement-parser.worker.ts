/**
 * The worker thread {@link readStatementFile} starts for a large file: decodes and parses the bytes it is given and
 * posts back the statements (bigints and dates survive the structured clone), or the StatementError's place and
 * message. Anything else is thrown, which the caller sees as the worker's `error` event.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { decodeStatementBody, parseStatements } from './parse-statements.js';
import { StatementError } from './statement.js';
import type { WorkerAnswer, WorkerInput } from './read-statement-file.js';

const { bytes, contentType } = workerData as WorkerInput;
let answer: WorkerAnswer;
try {
  answer = { parsed: parseStatements(decodeStatementBody(bytes, contentType), contentType) };
} catch (error) {
  if (!(error instanceof StatementError)) throw error;
  answer = { refused: { location: error.location, reason: error.reason } };
}
parentPort?.postMessage(answer);
