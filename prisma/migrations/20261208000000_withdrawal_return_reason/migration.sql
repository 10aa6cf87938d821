-- A returned withdrawal's reason as a code a partner's program can read (ISO 20022 return reasons such as AC04),
-- beside the free text an operator gives.

-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN "returned_reason_code" VARCHAR(8);
