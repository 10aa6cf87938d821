/** The gateway as a library: tests and the local runner start it in-process. */
export { startGateway, type GatewayService } from './gateway.js';
export { createApp } from './app.js';
export { createGatewayDeps, type GatewayDeps } from './gateway-deps.js';
