-- Sandbox: a site's test mode is a site of its own (its "test twin"), so every record, balance, event and webhook
-- setting of test mode is apart from the live ones by construction. Test keys (`sk_test_<slug>_<secret>`) belong to
-- the twin; its slug is the live slug with `.test`. Simulated bank transfers are marked and only ever match test
-- deposits; real bank lines only match live ones.

-- AlterTable
ALTER TABLE "sites" ALTER COLUMN "slug" TYPE VARCHAR(40);
ALTER TABLE "sites" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "sites" ADD COLUMN "live_site_id" UUID;

-- A live site has at most one test twin, and only a test site points at a live one.
CREATE UNIQUE INDEX "sites_live_site_id_key" ON "sites"("live_site_id");
ALTER TABLE "sites" ADD CONSTRAINT "sites_live_site_id_fkey" FOREIGN KEY ("live_site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "sites" ADD CONSTRAINT "sites_test_twin_check" CHECK (("livemode" AND "live_site_id" IS NULL) OR (NOT "livemode" AND "live_site_id" IS NOT NULL));

-- AlterTable
ALTER TABLE "bank_transfers" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
