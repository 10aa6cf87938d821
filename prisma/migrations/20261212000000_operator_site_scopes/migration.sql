-- Operator scopes (docs/operations.md, Operator scopes): the live sites an operator may see and act on, their test
-- twins included; empty: every site, as before.

-- AlterTable
ALTER TABLE "operators" ADD COLUMN "site_ids" UUID[] NOT NULL DEFAULT '{}';
