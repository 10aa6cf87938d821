-- The operators' search (docs/operations.md, Search) finds a name inside a deposit's label, a withdrawal's label or
-- holder name and a transfer's sender name, newest first, in one of two ways the planner chooses between by how many
-- rows it expects to match: a name few share through its trigram index (fetch every match, sort, keep 20), a name
-- many share by reading the table newest first (created_at, id) and stopping at the 20th match. Both are fast only
-- when chosen right: fetching and sorting the 2,500 holders of a common full name costs three times the newest-first
-- read (docs/benchmarks.md, Ops search).

-- Withdrawals had no newest-first index, so a common name could only be fetched and sorted.
-- CreateIndex
CREATE INDEX "withdrawals_created_at_id_idx" ON "withdrawals"("created_at" DESC, "id" DESC);

-- The planner estimates a name's matches from the column's sample; with the default 100 most common values a
-- common full name outside them was taken for a rare one (98 rows expected, 2,500 found). A ten times larger sample
-- keeps the estimate near the truth; planning a search stays under a millisecond. Effective from this ANALYZE on.
ALTER TABLE "deposit_intents" ALTER COLUMN "external_user_label" SET STATISTICS 1000;
ALTER TABLE "withdrawals" ALTER COLUMN "external_user_label" SET STATISTICS 1000;
ALTER TABLE "withdrawals" ALTER COLUMN "target_holder_name" SET STATISTICS 1000;
ALTER TABLE "bank_transfers" ALTER COLUMN "sender_name" SET STATISTICS 1000;
ANALYZE "deposit_intents" ("external_user_label");
ANALYZE "withdrawals" ("external_user_label", "target_holder_name");
ANALYZE "bank_transfers" ("sender_name");
