-- The operators' search and list filters find a partner's user by external_user_id across every site; without
-- these indexes each search read the whole table. Built in the migration's transaction (CREATE INDEX, not
-- CONCURRENTLY): writes to these tables wait while it builds, seconds per million rows.
-- CreateIndex
CREATE INDEX "deposit_intents_external_user_id_idx" ON "deposit_intents"("external_user_id");

-- CreateIndex
CREATE INDEX "withdrawals_external_user_id_idx" ON "withdrawals"("external_user_id");
