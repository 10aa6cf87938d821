// Read by the Prisma CLI (generate, and migrate where its native engine exists).
// The project's own migrate step (packages/db) applies prisma/migrations without that engine.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/kasa' },
});
