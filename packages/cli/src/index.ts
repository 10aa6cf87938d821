/** The kasa CLI as a library: `runCli(argv, io)` runs one command and returns its exit code. */
export { runCli } from './cli.js';
export { formatAmount, type Io } from './output.js';
export { parseAmount } from './context.js';
