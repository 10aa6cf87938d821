-- The operators' search (docs/operations.md, Search) reads a name many people share newest first and stops at the
-- page's last match: thousands of rows read for a common full name, each fetched from the table only to compare its
-- name. With the names carried in the newest-first indexes (INCLUDE), PostgreSQL compares them in the index itself
-- (an index-only scan: the table is read only for rows not yet marked all-visible by VACUUM), about half the time.
-- The same keys in the same order, so every newest-first list these indexes served they still serve. INCLUDE is
-- beyond Prisma's schema: these live only here (packages/db/test/schema-diff.ts knows them by name). Built in the
-- migration's transaction (CREATE INDEX, not CONCURRENTLY): writes to these tables wait while it builds, a few
-- seconds per million rows.

DROP INDEX "deposit_intents_created_at_id_idx";
CREATE INDEX "deposit_intents_newest_names_idx" ON "deposit_intents"("created_at" DESC, "id" DESC) INCLUDE ("external_user_label");

DROP INDEX "withdrawals_created_at_id_idx";
CREATE INDEX "withdrawals_newest_names_idx" ON "withdrawals"("created_at" DESC, "id" DESC) INCLUDE ("external_user_label", "target_holder_name");

DROP INDEX "bank_transfers_created_at_id_idx";
CREATE INDEX "bank_transfers_newest_names_idx" ON "bank_transfers"("created_at" DESC, "id" DESC) INCLUDE ("sender_name");
