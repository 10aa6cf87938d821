-- Bank connectors: a machine account (role CONNECTOR) posts a receiving account's lines as the bank delivers them,
-- with no statement file; a debit line it posts has no statement.

-- AlterEnum
ALTER TYPE "OperatorRole" ADD VALUE 'CONNECTOR';

-- AlterTable
ALTER TABLE "bank_statement_debits" ALTER COLUMN "statement_id" DROP NOT NULL;
