-- AlterTable
ALTER TABLE "bank_transfers" ADD COLUMN     "unmatched_reason" VARCHAR(32);

-- CreateTable
CREATE TABLE "site_balances" (
    "site_id" UUID NOT NULL,
    "account" VARCHAR(64) NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "site_balances_pkey" PRIMARY KEY ("site_id","account")
);

-- AddForeignKey
ALTER TABLE "site_balances" ADD CONSTRAINT "site_balances_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

