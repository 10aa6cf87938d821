-- Work a commit promises is written in that commit (docs/statements.md, "After the lines commit"): a deposit a site's
-- rule approves straight through, a batched payout a debit line showed sent, a sent withdrawal a credit line brought
-- back. It was done after the lines committed, in memory: a crash there lost it, and re-sending the lines found them
-- known and did nothing. Now each is a row, carried out by the request and, failing that, by the follow-up worker,
-- and marked DONE or SKIPPED in the transaction that does it.

-- CreateEnum
CREATE TYPE "FollowUpKind" AS ENUM ('DEPOSIT_APPROVAL', 'WITHDRAWAL_SENT', 'RETURN_SENT', 'WITHDRAWAL_RETURNED');

-- CreateEnum
CREATE TYPE "FollowUpStatus" AS ENUM ('PENDING', 'DONE', 'SKIPPED');

-- CreateTable
CREATE TABLE "follow_ups" (
    "id" UUID NOT NULL,
    "kind" "FollowUpKind" NOT NULL,
    "subject_id" UUID NOT NULL,
    "receiving_account_id" UUID,
    "line_key" VARCHAR(200) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "FollowUpStatus" NOT NULL DEFAULT 'PENDING',
    "outcome" VARCHAR(500),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "request_id" VARCHAR(128),
    "due_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "follow_ups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "follow_ups_kind_subject_id_key" ON "follow_ups"("kind", "subject_id");

-- CreateIndex
CREATE INDEX "follow_ups_status_due_at_idx" ON "follow_ups"("status", "due_at");

-- CreateIndex
CREATE INDEX "follow_ups_receiving_account_id_line_key_idx" ON "follow_ups"("receiving_account_id", "line_key");
