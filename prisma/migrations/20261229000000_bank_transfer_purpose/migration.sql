-- The declared purpose of a credit line when the bank file carries one (docs/statements.md): camt.053 Purp/Cd or
-- Purp/Prtry, MT940 PURP+ or /PURP/, the CSV layout's purpose column. The desk filters on it (no index of its own: the
-- filter narrows the desk's other, indexed windows, and every index costs each imported line).
ALTER TABLE "bank_transfers" ADD COLUMN "purpose" VARCHAR(35);
