import { runCli } from '../src/index.js';

export interface KasaRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `kasa args` in this process with `env` as its environment, and answers its exit code and what it printed. */
export async function captureKasa(args: string[], env: Record<string, string>): Promise<KasaRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env,
  });
  return { code, stdout, stderr };
}
