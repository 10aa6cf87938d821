-- Balance adjustments (docs/operations.md, Balance adjustments): a correction of what the service owes a site with no
-- bank movement behind it, proposed by one operator and posted to the site's journal only when a second, independent
-- operator approves it.

CREATE TYPE "BalanceAdjustmentStatus" AS ENUM ('PENDING_REVIEW', 'APPLIED', 'REJECTED');

CREATE TYPE "BalanceAdjustmentDirection" AS ENUM ('CREDIT', 'DEBIT');

CREATE TABLE "balance_adjustments" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "reference_no" VARCHAR(16) NOT NULL,
    "direction" "BalanceAdjustmentDirection" NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "reason" VARCHAR(500) NOT NULL,
    "status" "BalanceAdjustmentStatus" NOT NULL DEFAULT 'PENDING_REVIEW',
    "proposed_by_operator_id" VARCHAR(64) NOT NULL,
    "proposed_by_email" VARCHAR(320),
    "decided_by_operator_id" VARCHAR(64),
    "decided_by_email" VARCHAR(320),
    "applied_at" TIMESTAMPTZ(3),
    "rejected_at" TIMESTAMPTZ(3),
    "rejected_reason" VARCHAR(500),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "balance_adjustments_pkey" PRIMARY KEY ("id"),
    -- A positive amount in lira, the one currency; the direction gives the sign.
    CONSTRAINT "balance_adjustments_amount_check" CHECK ("amount" > 0 AND "currency" = 'TRY'),
    -- Decided by someone other than the proposer, and each status with exactly its own trace.
    CONSTRAINT "balance_adjustments_decision_check" CHECK (
        ("status" = 'PENDING_REVIEW' AND "decided_by_operator_id" IS NULL AND "applied_at" IS NULL AND "rejected_at" IS NULL)
        OR ("status" = 'APPLIED' AND "decided_by_operator_id" IS NOT NULL AND "decided_by_operator_id" <> "proposed_by_operator_id"
            AND "applied_at" IS NOT NULL AND "rejected_at" IS NULL)
        OR ("status" = 'REJECTED' AND "decided_by_operator_id" IS NOT NULL AND "rejected_at" IS NOT NULL AND "applied_at" IS NULL))
);

CREATE UNIQUE INDEX "balance_adjustments_reference_no_key" ON "balance_adjustments"("reference_no");

CREATE INDEX "balance_adjustments_status_created_at_idx" ON "balance_adjustments"("status", "created_at");

CREATE INDEX "balance_adjustments_site_id_created_at_id_idx" ON "balance_adjustments"("site_id", "created_at" DESC, "id" DESC);

ALTER TABLE "balance_adjustments" ADD CONSTRAINT "balance_adjustments_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
