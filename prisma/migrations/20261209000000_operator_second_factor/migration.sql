-- Operator second factor (TOTP): the sealed secret, when it was confirmed and the last time step accepted; recovery
-- codes (hashed, each used once); and per token when a code was last entered (step-up for large approvals).

-- AlterTable
ALTER TABLE "operators" ADD COLUMN "totp_secret_enc" TEXT,
ADD COLUMN "totp_enrolled_at" TIMESTAMPTZ(3),
ADD COLUMN "totp_last_step" INTEGER;

-- AlterTable
ALTER TABLE "operator_tokens" ADD COLUMN "second_factor_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "operator_recovery_codes" (
    "id" UUID NOT NULL,
    "operator_id" UUID NOT NULL,
    "code_hash" CHAR(64) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_recovery_codes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "operator_recovery_codes_code_hash_key" ON "operator_recovery_codes"("code_hash");

-- CreateIndex
CREATE INDEX "operator_recovery_codes_operator_id_idx" ON "operator_recovery_codes"("operator_id");

-- AddForeignKey
ALTER TABLE "operator_recovery_codes" ADD CONSTRAINT "operator_recovery_codes_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
