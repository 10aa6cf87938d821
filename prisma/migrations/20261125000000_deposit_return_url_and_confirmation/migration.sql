-- The partner's optional way back from the hosted deposit page, and the moment the end user said "I have sent
-- the transfer" there (once; it changes no money and no status). Nullable columns without defaults: instant.
-- AlterTable
ALTER TABLE "deposit_intents" ADD COLUMN "return_url" VARCHAR(2048),
ADD COLUMN "user_confirmed_at" TIMESTAMPTZ(3);
