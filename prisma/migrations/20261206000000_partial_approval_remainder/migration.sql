-- Partial approval: money a deposit's approval did not credit stays on the books. The remainder (what arrived minus
-- what was credited) is either returned to its sender(s) by returns that name the deposit (sender_returns.intent_id:
-- part of a transfer the deposit kept the rest of) or set aside on the deposit with a reason. The journal check proves,
-- per approved deposit: received = credited + returned or in return + set aside (`unaccounted_money`).

-- AlterTable
ALTER TABLE "deposit_intents" ADD COLUMN "remainder_set_aside" BIGINT;
ALTER TABLE "deposit_intents" ADD COLUMN "remainder_set_aside_reason" VARCHAR(500);
ALTER TABLE "deposit_intents" ADD COLUMN "remainder_set_aside_at" TIMESTAMPTZ(3);
ALTER TABLE "deposit_intents" ADD CONSTRAINT "deposit_intents_remainder_set_aside_check"
  CHECK ("remainder_set_aside" IS NULL OR ("remainder_set_aside" > 0 AND "remainder_set_aside_reason" IS NOT NULL));

ALTER TABLE "sender_returns" ADD COLUMN "intent_id" UUID;
CREATE INDEX "sender_returns_intent_id_idx" ON "sender_returns"("intent_id");
ALTER TABLE "sender_returns" ADD CONSTRAINT "sender_returns_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "deposit_intents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Deposits approved for less than arrived before this change: their remainder is set aside, so it is on the books.
UPDATE "deposit_intents" d SET
  "remainder_set_aside" = r.total - d.amount,
  "remainder_set_aside_reason" = 'Approved for less than arrived before remainders were recorded; set aside by migration.',
  "remainder_set_aside_at" = now()
FROM (
  SELECT intent_id, SUM(amount) AS total FROM "bank_transfers"
  WHERE intent_id IS NOT NULL AND status IN ('MATCHED', 'ASSIGNED') GROUP BY intent_id
) r
WHERE r.intent_id = d.id AND d.status = 'APPROVED' AND r.total > d.amount;
