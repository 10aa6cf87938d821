/** The ledger's database access: the generated Prisma client, its factory and the migrate step. */
export { createDatabase, createPool, createPrismaClient, type Database, type DbOptions } from './client.js';
export { ensureDatabase, dropDatabase } from './database.js';
export {
  parseDatabaseUrl,
  multiHostUrl,
  describeHosts,
  DatabaseUrlError,
  TARGET_SESSION_ATTRS,
  type DatabaseUrl,
  type HostAddress,
  type TargetSessionAttrs,
} from './database-url.js';
export { connectClient, connectFitting, NoFittingHostError } from './multi-host.js';
export { migrate, pendingMigrations, schemaReadiness, MIGRATIONS_DIR, type MigrationResult, type Queryable } from './migrate.js';
// The client, the Prisma namespace, every model's row type and every enum: a new model is exported with no edit here.
export * from './generated/prisma/client.js';
export { TABLES, type TableName } from './generated/tables.js';
export { MicroBatch } from './micro-batch.js';
export { ReplicaReads, type ReadQueryable, type ReplicaReadsOptions } from './replica-reads.js';
