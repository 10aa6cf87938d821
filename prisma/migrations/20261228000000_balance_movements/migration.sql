-- A site's balance movements newest first (GET /api/v1/external/balance-transactions) and one day of them (the signed
-- daily statement): one index range per page or day instead of a sort of every entry the site has.
CREATE INDEX "journal_entries_site_id_created_at_id_idx" ON "journal_entries"("site_id", "created_at" DESC, "id" DESC);
