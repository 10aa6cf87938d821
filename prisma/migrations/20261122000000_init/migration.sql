-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "DepositStatus" AS ENUM ('RESERVED', 'PENDING_REVIEW', 'APPROVED', 'REJECTED', 'AUTO_CANCELLED', 'LATE_ARRIVAL');

-- CreateEnum
CREATE TYPE "WithdrawalStatus" AS ENUM ('PENDING_REVIEW', 'APPROVED', 'SENT', 'REJECTED', 'RETURNED');

-- CreateEnum
CREATE TYPE "EventStatus" AS ENUM ('PENDING', 'DELIVERED', 'DEAD');

-- CreateEnum
CREATE TYPE "OperatorRole" AS ENUM ('REVIEWER', 'ADMIN');

-- CreateEnum
CREATE TYPE "ActorType" AS ENUM ('API_KEY', 'OPERATOR', 'SYSTEM');

-- CreateEnum
CREATE TYPE "BankTransferStatus" AS ENUM ('MATCHED', 'UNMATCHED', 'ASSIGNED');

-- CreateTable
CREATE TABLE "sites" (
    "id" UUID NOT NULL,
    "slug" VARCHAR(32) NOT NULL,
    "name" VARCHAR(140) NOT NULL,
    "webhook_url" TEXT,
    "webhook_secret_enc" TEXT,
    "previous_webhook_secret_enc" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "webhook_rotated_at" TIMESTAMPTZ(3),
    "rate_limit_per_minute" INTEGER NOT NULL DEFAULT 60,
    "deposit_ttl_seconds" INTEGER NOT NULL DEFAULT 1800,
    "min_amount" BIGINT NOT NULL DEFAULT 1000,
    "max_amount" BIGINT NOT NULL DEFAULT 100000000,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "key_hash" CHAR(64) NOT NULL,
    "key_prefix" VARCHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "receiving_bank_accounts" (
    "id" UUID NOT NULL,
    "bank_name" VARCHAR(140) NOT NULL,
    "holder_name" VARCHAR(140) NOT NULL,
    "iban" VARCHAR(34) NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "receiving_bank_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deposit_intents" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "reference_no" VARCHAR(16) NOT NULL,
    "status" "DepositStatus" NOT NULL DEFAULT 'RESERVED',
    "requested_amount" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "external_user_id" VARCHAR(64) NOT NULL,
    "external_user_label" VARCHAR(128),
    "receiving_account_id" UUID NOT NULL,
    "deposit_token_hash" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "received_amount" BIGINT,
    "approved_at" TIMESTAMPTZ(3),
    "rejected_at" TIMESTAMPTZ(3),
    "rejected_reason" VARCHAR(500),
    "cancelled_at" TIMESTAMPTZ(3),
    "idempotency_key" VARCHAR(255) NOT NULL,
    "idempotency_fingerprint" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_intents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "withdrawals" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "reference_no" VARCHAR(16) NOT NULL,
    "status" "WithdrawalStatus" NOT NULL DEFAULT 'PENDING_REVIEW',
    "requested_amount" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "external_user_id" VARCHAR(64) NOT NULL,
    "external_user_label" VARCHAR(128),
    "target_iban" VARCHAR(34) NOT NULL,
    "target_holder_name" VARCHAR(140) NOT NULL,
    "approved_at" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "sent_bank_tx_id" VARCHAR(128),
    "rejected_at" TIMESTAMPTZ(3),
    "rejected_reason" VARCHAR(500),
    "returned_at" TIMESTAMPTZ(3),
    "returned_reason" VARCHAR(500),
    "idempotency_key" VARCHAR(255) NOT NULL,
    "idempotency_fingerprint" CHAR(64) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "withdrawals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "route" VARCHAR(64) NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "status_code" INTEGER NOT NULL,
    "response_body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_log" (
    "id" UUID NOT NULL,
    "site_id" UUID,
    "actor_type" "ActorType" NOT NULL,
    "actor_id" VARCHAR(64) NOT NULL,
    "action" VARCHAR(64) NOT NULL,
    "entity_type" VARCHAR(32) NOT NULL,
    "entity_id" VARCHAR(64) NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "entity_id" UUID NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "EventStatus" NOT NULL DEFAULT 'PENDING',
    "enqueued_at" TIMESTAMPTZ(3),
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "dead_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_attempts" (
    "id" UUID NOT NULL,
    "event_id" UUID NOT NULL,
    "attempt_no" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "error" VARCHAR(1000),
    "response_body" VARCHAR(4096),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bank_transfers" (
    "id" UUID NOT NULL,
    "bank_tx_id" VARCHAR(128) NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" CHAR(3) NOT NULL DEFAULT 'TRY',
    "sender_name" VARCHAR(140) NOT NULL,
    "sender_iban" VARCHAR(34) NOT NULL,
    "description" VARCHAR(500) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "status" "BankTransferStatus" NOT NULL,
    "intent_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "bank_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "journal_entries" (
    "id" UUID NOT NULL,
    "transaction_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "account" VARCHAR(64) NOT NULL,
    "amount" BIGINT NOT NULL,
    "entity_type" VARCHAR(32) NOT NULL,
    "entity_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "journal_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operators" (
    "id" UUID NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "name" VARCHAR(140) NOT NULL,
    "role" "OperatorRole" NOT NULL,
    "password_hash" VARCHAR(255),
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_tokens" (
    "id" UUID NOT NULL,
    "operator_id" UUID NOT NULL,
    "token_hash" CHAR(64) NOT NULL,
    "label" VARCHAR(140) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "operator_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sites_slug_key" ON "sites"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_site_id_idx" ON "api_keys"("site_id");

-- CreateIndex
CREATE UNIQUE INDEX "receiving_bank_accounts_iban_key" ON "receiving_bank_accounts"("iban");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_intents_reference_no_key" ON "deposit_intents"("reference_no");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_intents_deposit_token_hash_key" ON "deposit_intents"("deposit_token_hash");

-- CreateIndex
CREATE INDEX "deposit_intents_site_id_created_at_id_idx" ON "deposit_intents"("site_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "deposit_intents_status_expires_at_idx" ON "deposit_intents"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "deposit_intents_site_id_idempotency_key_key" ON "deposit_intents"("site_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_reference_no_key" ON "withdrawals"("reference_no");

-- CreateIndex
CREATE INDEX "withdrawals_site_id_created_at_id_idx" ON "withdrawals"("site_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "withdrawals_status_created_at_idx" ON "withdrawals"("status", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "withdrawals_site_id_idempotency_key_key" ON "withdrawals"("site_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "idempotency_records_site_id_route_key_key" ON "idempotency_records"("site_id", "route", "key");

-- CreateIndex
CREATE INDEX "audit_log_created_at_id_idx" ON "audit_log"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "audit_log_entity_type_entity_id_idx" ON "audit_log"("entity_type", "entity_id");

-- CreateIndex
CREATE INDEX "audit_log_site_id_created_at_idx" ON "audit_log"("site_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "outbox_events_site_id_created_at_id_idx" ON "outbox_events"("site_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbox_events_status_created_at_idx" ON "outbox_events"("status", "created_at");

-- CreateIndex
CREATE INDEX "outbox_events_enqueued_at_created_at_idx" ON "outbox_events"("enqueued_at", "created_at");

-- CreateIndex
CREATE INDEX "delivery_attempts_event_id_started_at_idx" ON "delivery_attempts"("event_id", "started_at");

-- CreateIndex
CREATE UNIQUE INDEX "bank_transfers_bank_tx_id_key" ON "bank_transfers"("bank_tx_id");

-- CreateIndex
CREATE INDEX "bank_transfers_status_created_at_idx" ON "bank_transfers"("status", "created_at");

-- CreateIndex
CREATE INDEX "bank_transfers_intent_id_idx" ON "bank_transfers"("intent_id");

-- CreateIndex
CREATE INDEX "journal_entries_site_id_account_idx" ON "journal_entries"("site_id", "account");

-- CreateIndex
CREATE INDEX "journal_entries_transaction_id_idx" ON "journal_entries"("transaction_id");

-- CreateIndex
CREATE INDEX "journal_entries_entity_type_entity_id_idx" ON "journal_entries"("entity_type", "entity_id");

-- CreateIndex
CREATE UNIQUE INDEX "operators_email_key" ON "operators"("email");

-- CreateIndex
CREATE UNIQUE INDEX "operator_tokens_token_hash_key" ON "operator_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "operator_tokens_operator_id_idx" ON "operator_tokens"("operator_id");

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deposit_intents" ADD CONSTRAINT "deposit_intents_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "deposit_intents" ADD CONSTRAINT "deposit_intents_receiving_account_id_fkey" FOREIGN KEY ("receiving_account_id") REFERENCES "receiving_bank_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "outbox_events"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bank_transfers" ADD CONSTRAINT "bank_transfers_intent_id_fkey" FOREIGN KEY ("intent_id") REFERENCES "deposit_intents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_site_id_fkey" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_tokens" ADD CONSTRAINT "operator_tokens_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

