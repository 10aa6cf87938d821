import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export interface DbOptions {
  connectionString: string;
  /** Pool size; the ledger is the only service that talks to PostgreSQL. */
  max?: number;
}

/** A Prisma client over node-postgres, with no native engine. */
export function createPrismaClient(options: DbOptions): PrismaClient {
  const adapter = new PrismaPg({ connectionString: options.connectionString, max: options.max ?? 10 });
  return new PrismaClient({ adapter });
}
