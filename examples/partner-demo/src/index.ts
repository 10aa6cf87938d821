export { createPartnerDemoApp, type PartnerDemoOptions } from './app.js';
export { DemoStore } from './store.js';
