-- A site's own way back from the hosted deposit page (used when an intent has no returnUrl of its own), and the
-- reason an operator chose to show the end user when rejecting a deposit (one of the page's catalogue codes;
-- the free-text rejected_reason stays internal). Nullable columns without defaults: instant.
-- AlterTable
ALTER TABLE "sites" ADD COLUMN "return_url" VARCHAR(2048);

-- AlterTable
ALTER TABLE "deposit_intents" ADD COLUMN "rejected_user_reason" VARCHAR(32);
