/** The ledger's database access: the generated Prisma client, its factory and the migrate step. */
export { createPrismaClient, type DbOptions } from './client.js';
export { ensureDatabase, dropDatabase } from './database.js';
export { migrate, MIGRATIONS_DIR, type MigrationResult } from './migrate.js';
export { PrismaClient, Prisma } from './generated/prisma/client.js';
export * from './generated/prisma/enums.js';
export type * from './generated/prisma/models.js';
