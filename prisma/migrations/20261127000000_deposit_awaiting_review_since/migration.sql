-- When a deposit entered the review queue (PENDING_REVIEW or LATE_ARRIVAL, as its money arrived): the waiting
-- time operators see and the dashboard's oldest item. Intents waiting now get their last change as the best
-- known start; the index serves the dashboard's count and oldest per status.
-- AlterTable
ALTER TABLE "deposit_intents" ADD COLUMN "awaiting_review_since" TIMESTAMPTZ(3);

UPDATE "deposit_intents" SET "awaiting_review_since" = "updated_at" WHERE "status" IN ('PENDING_REVIEW', 'LATE_ARRIVAL');

-- CreateIndex
CREATE INDEX "deposit_intents_status_awaiting_review_since_idx" ON "deposit_intents"("status", "awaiting_review_since");
