-- Partial money: an operator may choose to wait for the rest of a deposit that received less than requested; it
-- leaves the review queue until more money arrives (or the operator decides anyway).

-- AlterTable
ALTER TABLE "deposit_intents" ADD COLUMN "waiting_for_rest_since" TIMESTAMPTZ(3);
