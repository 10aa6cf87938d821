/** The operator console as a library: tests and the local runner start it in-process. */
export { startConsole, type ConsoleService } from './console.js';
export { createApp } from './app.js';
export { createConsoleDeps, type ConsoleDeps } from './console-deps.js';
export { SessionSealer, type ConsoleSession, type SessionOperator } from './session/session.js';
export { html, escapeHtml, SafeHtml } from './views/html.js';
