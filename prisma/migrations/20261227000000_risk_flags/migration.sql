-- Risk flags (docs/compliance.md, Risk flags and reports): what the risk rules flagged for a compliance officer's
-- review, with its deadline and outcome. Never shown to partners.

CREATE TABLE "risk_flags" (
    "id" UUID NOT NULL,
    "site_id" UUID,
    "rule" VARCHAR(32) NOT NULL,
    "subject_type" VARCHAR(16) NOT NULL,
    "subject_id" UUID NOT NULL,
    "bank_transfer_id" UUID NOT NULL,
    "external_user_id" VARCHAR(64),
    "facts" JSONB NOT NULL DEFAULT '{}',
    "status" VARCHAR(8) NOT NULL DEFAULT 'OPEN',
    "detected_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "outcome" VARCHAR(16),
    "note" VARCHAR(2000),
    "reviewed_by_operator_id" VARCHAR(64),
    "reviewed_by_email" VARCHAR(320),
    "reviewed_at" TIMESTAMPTZ(3),

    CONSTRAINT "risk_flags_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "risk_flags_rule_check" CHECK ("rule" IN ('name_mismatch', 'just_under_limit', 'returned_and_resent', 'stranger_credit', 'velocity')),
    CONSTRAINT "risk_flags_subject_type_check" CHECK ("subject_type" IN ('deposit', 'bank_transfer')),
    CONSTRAINT "risk_flags_status_check" CHECK ("status" IN ('OPEN', 'CLOSED')),
    CONSTRAINT "risk_flags_outcome_check" CHECK (("status" = 'OPEN' AND "outcome" IS NULL AND "reviewed_at" IS NULL)
        OR ("status" = 'CLOSED' AND "outcome" IN ('no_action', 'reported') AND "reviewed_at" IS NOT NULL))
);
-- A subject is flagged once per rule, whichever ledger's worker evaluates it.
CREATE UNIQUE INDEX "risk_flags_rule_subject_type_subject_id_key" ON "risk_flags"("rule", "subject_type", "subject_id");
CREATE INDEX "risk_flags_status_due_at_idx" ON "risk_flags"("status", "due_at");
CREATE INDEX "risk_flags_reviewed_at_idx" ON "risk_flags"("reviewed_at");

-- What the risk worker has still to evaluate: a credited or recorded line leaves it NULL in the transaction that writes
-- it (and an assignment sets it NULL again), so the promise is in that commit. Lines recorded before this migration
-- count as evaluated (DEFAULT now() fills them without rewriting the table), the rest start NULL.
ALTER TABLE "bank_transfers" ADD COLUMN "risk_checked_at" TIMESTAMPTZ(3) DEFAULT now();
ALTER TABLE "bank_transfers" ALTER COLUMN "risk_checked_at" DROP DEFAULT;
CREATE INDEX "bank_transfers_risk_checked_at_idx" ON "bank_transfers"("risk_checked_at");
