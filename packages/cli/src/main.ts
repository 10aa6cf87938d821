// Process entry of `kasa`: real streams and environment, exit with the command's code.
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
