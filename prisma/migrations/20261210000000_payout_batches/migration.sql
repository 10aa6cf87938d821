-- Payout batches: approved withdrawals and returns to senders gathered into one file for the bank (pain.001 or CSV).
-- An item sits in one batch only: the unique keys on withdrawal_id, sender_return_id and reference make two batch
-- creations at the same moment skip each other's items (ON CONFLICT DO NOTHING). A payout the bank sent back arrives as
-- a credit line recorded as a transfer PAYOUT_RETURNED (no queue: the withdrawal's return accounts for the money).

-- AlterEnum
ALTER TYPE "BankTransferStatus" ADD VALUE 'PAYOUT_RETURNED';

-- CreateTable
CREATE TABLE "payout_batches" (
    "id" UUID NOT NULL,
    "receiving_account_id" UUID NOT NULL,
    "count" INTEGER NOT NULL,
    "total" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "created_by" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payout_batch_items" (
    "id" UUID NOT NULL,
    "batch_id" UUID NOT NULL,
    "withdrawal_id" UUID,
    "sender_return_id" UUID,
    "reference" VARCHAR(35) NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "creditor_iban" VARCHAR(34) NOT NULL,
    "creditor_name" VARCHAR(140) NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "payout_batch_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "payout_batches_created_at_id_idx" ON "payout_batches"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "payout_batch_items_withdrawal_id_key" ON "payout_batch_items"("withdrawal_id");

-- CreateIndex
CREATE UNIQUE INDEX "payout_batch_items_sender_return_id_key" ON "payout_batch_items"("sender_return_id");

-- CreateIndex
CREATE UNIQUE INDEX "payout_batch_items_reference_key" ON "payout_batch_items"("reference");

-- CreateIndex
CREATE INDEX "payout_batch_items_batch_id_position_idx" ON "payout_batch_items"("batch_id", "position");

-- AddForeignKey
ALTER TABLE "payout_batches" ADD CONSTRAINT "payout_batches_receiving_account_id_fkey" FOREIGN KEY ("receiving_account_id") REFERENCES "receiving_bank_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payout_batch_items" ADD CONSTRAINT "payout_batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "payout_batches"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payout_batch_items" ADD CONSTRAINT "payout_batch_items_withdrawal_id_fkey" FOREIGN KEY ("withdrawal_id") REFERENCES "withdrawals"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payout_batch_items" ADD CONSTRAINT "payout_batch_items_sender_return_id_fkey" FOREIGN KEY ("sender_return_id") REFERENCES "sender_returns"("id") ON DELETE SET NULL ON UPDATE CASCADE;
