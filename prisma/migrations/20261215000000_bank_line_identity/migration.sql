-- One identity for a bank line, whatever brings it (docs/statements.md, "Which lines are the same line").
-- A line was known by (receiving account, bank_tx_id) alone: real files repeat a reference inside one file (MT940
-- NONREF, camt batch transactions sharing the entry's AcctSvcrRef), so later lines were dropped as duplicates; and a
-- transfer recorded by hand, on no account, never met the bank's own line, so the same money was credited twice.
-- Now a line is known by its line key on its account: the reference, the direction, the amount, the booking day
-- (Istanbul) and its occurrence among the batch's lines sharing all of those, e.g. NONREF|C|15000|2026-11-20|2.

-- AlterTable
ALTER TABLE "bank_transfers"
ADD COLUMN "line_key" VARCHAR(200),
ADD COLUMN "hand_entry" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "bank_line_key" VARCHAR(200),
ADD COLUMN "bank_confirmed_at" TIMESTAMPTZ(3),
ADD COLUMN "bank_line_difference" JSONB;

-- Every existing transfer was unique by (account, bank_tx_id), so occurrence 1 keeps its key unique. The day is the
-- Istanbul calendar day (UTC+03:00 all year, as the statement parsers read a time without an offset).
UPDATE "bank_transfers" SET "line_key" = "bank_tx_id" || '|C|' || "amount"::text || '|'
  || to_char(("received_at" AT TIME ZONE 'UTC') + interval '3 hours', 'YYYY-MM-DD') || '|1';
-- Recorded by hand before accounts were named: no account, and real money (the sandbox simulator's has livemode false).
-- They stay on no account: with several accounts nobody can say which one the money reached.
UPDATE "bank_transfers" SET "hand_entry" = true WHERE "receiving_account_id" IS NULL AND "livemode";
ALTER TABLE "bank_transfers" ALTER COLUMN "line_key" SET NOT NULL;

-- DropIndex
DROP INDEX "bank_transfers_receiving_account_id_bank_tx_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "bank_transfers_receiving_account_id_line_key_key" ON "bank_transfers"("receiving_account_id", "line_key") NULLS NOT DISTINCT;

-- CreateIndex
CREATE UNIQUE INDEX "bank_transfers_receiving_account_id_bank_line_key_key" ON "bank_transfers"("receiving_account_id", "bank_line_key");

-- CreateIndex
CREATE INDEX "bank_transfers_receiving_account_id_bank_tx_id_idx" ON "bank_transfers"("receiving_account_id", "bank_tx_id");

-- AlterTable
ALTER TABLE "bank_statement_debits" ADD COLUMN "line_key" VARCHAR(200);

UPDATE "bank_statement_debits" SET "line_key" = "bank_tx_id" || '|D|' || "amount"::text || '|'
  || to_char(("booked_at" AT TIME ZONE 'UTC') + interval '3 hours', 'YYYY-MM-DD') || '|1';
ALTER TABLE "bank_statement_debits" ALTER COLUMN "line_key" SET NOT NULL;

-- DropIndex
DROP INDEX "bank_statement_debits_receiving_account_id_bank_tx_id_key";

-- CreateIndex
CREATE UNIQUE INDEX "bank_statement_debits_receiving_account_id_line_key_key" ON "bank_statement_debits"("receiving_account_id", "line_key");

-- CreateIndex
CREATE INDEX "bank_statement_debits_receiving_account_id_bank_tx_id_idx" ON "bank_statement_debits"("receiving_account_id", "bank_tx_id");
