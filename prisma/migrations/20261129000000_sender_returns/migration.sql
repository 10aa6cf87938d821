-- Money sent back to the sender of a transfer no deposit kept (unmatched, set aside, or paid for a rejected
-- deposit): an outgoing payout with its own review (PENDING_REVIEW -> APPROVED -> SENT, or REJECTED), and the
-- house journal that books it (the site journals never held this money). New tables and enum values: instant.
-- AlterEnum
ALTER TYPE "BankTransferStatus" ADD VALUE 'RETURNING';
ALTER TYPE "BankTransferStatus" ADD VALUE 'RETURNED';

-- CreateEnum
CREATE TYPE "SenderReturnStatus" AS ENUM ('PENDING_REVIEW', 'APPROVED', 'SENT', 'REJECTED');

-- CreateTable
CREATE TABLE "sender_returns" (
    "id" UUID NOT NULL,
    "bank_transfer_id" UUID NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "sender_name" VARCHAR(140) NOT NULL,
    "sender_iban" VARCHAR(34) NOT NULL,
    "reason" VARCHAR(500) NOT NULL,
    "transfer_status_before" VARCHAR(16) NOT NULL,
    "status" "SenderReturnStatus" NOT NULL DEFAULT 'PENDING_REVIEW',
    "requested_by" VARCHAR(64) NOT NULL,
    "approved_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "sent_bank_tx_id" VARCHAR(128),
    "rejected_at" TIMESTAMPTZ(3),
    "rejected_reason" VARCHAR(500),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sender_returns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "house_journal_entries" (
    "id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    "account" VARCHAR(64) NOT NULL,
    "amount" BIGINT NOT NULL,
    "entity_type" VARCHAR(32) NOT NULL,
    "entity_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "house_journal_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sender_returns_status_created_at_idx" ON "sender_returns"("status", "created_at");

-- CreateIndex
CREATE INDEX "sender_returns_bank_transfer_id_idx" ON "sender_returns"("bank_transfer_id");

-- CreateIndex
CREATE INDEX "house_journal_entries_transaction_id_idx" ON "house_journal_entries"("transaction_id");

-- CreateIndex
CREATE INDEX "house_journal_entries_entity_type_entity_id_idx" ON "house_journal_entries"("entity_type", "entity_id");

-- AddForeignKey
ALTER TABLE "sender_returns" ADD CONSTRAINT "sender_returns_bank_transfer_id_fkey" FOREIGN KEY ("bank_transfer_id") REFERENCES "bank_transfers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
