// `npm run migrate`: create the database if needed and apply pending migrations.
import { loadConfig } from '@kasa/config';
import { ensureDatabase, migrate } from '../index.js';

const config = loadConfig();
const created = await ensureDatabase(config.databaseUrl);
const result = await migrate(config.databaseUrl);
console.log(JSON.stringify({ databaseCreated: created, applied: result.applied, alreadyApplied: result.alreadyApplied.length }));
