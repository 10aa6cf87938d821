-- Money in by machine: bank statements imported per receiving account. A bank's reference identifies a line
-- only on its own account, so a transfer's bank_tx_id is unique per receiving account. Hand-recorded transfers
-- have no account (NULL); NULLS NOT DISTINCT (PostgreSQL 15) keeps their ids unique among themselves, as before.

-- Straight-through approval, per site and off by default: a deposit paid by one on-time transfer with its exact
-- reference and exactly its amount, at most auto_approve_max_amount, is approved by the service.
-- AlterTable
ALTER TABLE "sites" ADD COLUMN "auto_approve_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "auto_approve_max_amount" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN "auto_approve_require_sender_match" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "bank_statements" (
    "id" UUID NOT NULL,
    "receiving_account_id" UUID NOT NULL,
    "statement_ref" VARCHAR(140) NOT NULL,
    "format" VARCHAR(16) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "opening_balance" BIGINT NOT NULL,
    "closing_balance" BIGINT NOT NULL,
    "period_from" TIMESTAMPTZ(3),
    "period_to" TIMESTAMPTZ(3),
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bank_statements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bank_statement_debits" (
    "id" UUID NOT NULL,
    "receiving_account_id" UUID NOT NULL,
    "statement_id" UUID NOT NULL,
    "bank_tx_id" VARCHAR(128) NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "counterparty_name" VARCHAR(140),
    "counterparty_iban" VARCHAR(34),
    "description" VARCHAR(500) NOT NULL,
    "end_to_end_id" VARCHAR(128),
    "return_reason" VARCHAR(8),
    "reversal" BOOLEAN NOT NULL DEFAULT false,
    "booked_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bank_statement_debits_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "bank_transfers" ADD COLUMN "receiving_account_id" UUID,
ADD COLUMN "statement_id" UUID,
ADD COLUMN "match_reasons" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN "suggestions" JSONB NOT NULL DEFAULT '[]';

-- DropIndex
DROP INDEX "bank_transfers_bank_tx_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "bank_transfers_receiving_account_id_bank_tx_id_key" ON "bank_transfers"("receiving_account_id", "bank_tx_id") NULLS NOT DISTINCT;

-- CreateIndex
CREATE INDEX "bank_transfers_statement_id_idx" ON "bank_transfers"("statement_id");

-- CreateIndex
CREATE UNIQUE INDEX "bank_statements_receiving_account_id_statement_ref_key" ON "bank_statements"("receiving_account_id", "statement_ref");

-- CreateIndex
CREATE UNIQUE INDEX "bank_statement_debits_receiving_account_id_bank_tx_id_key" ON "bank_statement_debits"("receiving_account_id", "bank_tx_id");

-- CreateIndex
CREATE INDEX "bank_statement_debits_statement_id_idx" ON "bank_statement_debits"("statement_id");

-- AddForeignKey
ALTER TABLE "bank_statements" ADD CONSTRAINT "bank_statements_receiving_account_id_fkey" FOREIGN KEY ("receiving_account_id") REFERENCES "receiving_bank_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank_statement_debits" ADD CONSTRAINT "bank_statement_debits_receiving_account_id_fkey" FOREIGN KEY ("receiving_account_id") REFERENCES "receiving_bank_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank_statement_debits" ADD CONSTRAINT "bank_statement_debits_statement_id_fkey" FOREIGN KEY ("statement_id") REFERENCES "bank_statements"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_receiving_account_id_fkey" FOREIGN KEY ("receiving_account_id") REFERENCES "receiving_bank_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_statement_id_fkey" FOREIGN KEY ("statement_id") REFERENCES "bank_statements"("id") ON DELETE SET NULL ON UPDATE CASCADE;
