// Process entry of `kasa`: real streams and environment, exit with the command's code.
import { createInterface } from 'node:readline/promises';
import { runCli } from './cli.js';

/** Asks one question on the terminal; only offered when stdin is one, so scripts never hang on a prompt. */
async function prompt(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  ...(process.stdin.isTTY ? { prompt } : {}),
});
