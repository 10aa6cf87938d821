-- A bank line says whether the bank gave a time of day (docs/statements.md, Dates). An MT940 line carries its booking
-- date alone, stored as midnight UTC of that day: shown as 03:00 Istanbul time, it read as a time the bank never gave,
-- and reconciliation compared it as an instant with a camt.053's times of the same day (a false difference and gap).
-- Lines a statement of dates alone carried before this column are marked so (those at midnight UTC: a line the
-- connector posted with its time, which the statement then confirmed, keeps its time).

-- AlterTable
ALTER TABLE "bank_transfers" ADD COLUMN "received_time_known" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "bank_statement_debits" ADD COLUMN "booked_time_known" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "bank_statements" ADD COLUMN "period_time_known" BOOLEAN NOT NULL DEFAULT true;

UPDATE "bank_statements" SET "period_time_known" = false WHERE "format" = 'mt940';
UPDATE "bank_transfers" t SET "received_time_known" = false
  FROM "bank_statements" s WHERE t."statement_id" = s."id" AND s."format" = 'mt940'
  AND t."received_at" = date_trunc('day', t."received_at", 'UTC');
UPDATE "bank_statement_debits" d SET "booked_time_known" = false
  FROM "bank_statements" s WHERE d."statement_id" = s."id" AND s."format" = 'mt940'
  AND d."booked_at" = date_trunc('day', d."booked_at", 'UTC');
