-- An unmatched transfer an operator set aside with a reason (waiting for the sender, for compliance, for a
-- return): out of the unmatched queue, still assignable. Adding an enum value and nullable columns: instant.
-- AlterEnum
ALTER TYPE "BankTransferStatus" ADD VALUE 'SET_ASIDE';

-- AlterTable
ALTER TABLE "bank_transfers" ADD COLUMN "set_aside_reason" VARCHAR(500),
ADD COLUMN "set_aside_at" TIMESTAMPTZ(3);
