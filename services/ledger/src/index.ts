/** The ledger as a library: tests and the local runner start it in-process. */
export { startLedger, type LedgerService } from './ledger.js';
export { createApp } from './app.js';
export { createLedgerDeps, type LedgerDeps } from './ledger-deps.js';
/** How history rows and links are hashed (docs/compliance.md): for tests that rewrite a chain as an insider would. */
export { linkHash, rowHash } from './history/history-hash.js';
