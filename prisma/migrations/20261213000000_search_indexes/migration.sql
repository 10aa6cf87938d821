-- The operators' search (docs/operations.md, Search) read every bank transfer with a regular expression. Each of
-- its conditions now has an index: btree for what is matched exactly (bank transaction id, the events of a
-- record), trigram GIN (pg_trgm) for text found inside a value (names, labels, IBAN tails, a reference inside a
-- transfer's description). Built in the migration's transaction (CREATE INDEX, not CONCURRENTLY): writes to
-- these tables wait while it builds, tens of seconds per million rows for the trigram ones.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateIndex
CREATE INDEX "deposit_intents_external_user_label_idx" ON "deposit_intents" USING GIN ("external_user_label" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "withdrawals_external_user_label_idx" ON "withdrawals" USING GIN ("external_user_label" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "withdrawals_target_holder_name_idx" ON "withdrawals" USING GIN ("target_holder_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "withdrawals_target_iban_idx" ON "withdrawals" USING GIN ("target_iban" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "bank_transfers_bank_tx_id_idx" ON "bank_transfers"("bank_tx_id");

-- CreateIndex
CREATE INDEX "bank_transfers_sender_name_idx" ON "bank_transfers" USING GIN ("sender_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "bank_transfers_sender_iban_idx" ON "bank_transfers" USING GIN ("sender_iban" gin_trgm_ops);

-- A name a twentieth of everyone shares matches tens of thousands of rows: for the newest 20 of them the planner
-- reads these in order and stops at the 20th, instead of fetching every match and sorting.
-- CreateIndex
CREATE INDEX "deposit_intents_created_at_id_idx" ON "deposit_intents"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "bank_transfers_created_at_id_idx" ON "bank_transfers"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "outbox_events_entity_id_idx" ON "outbox_events"("entity_id");

-- A reference inside a description however the sender wrote it (spaces, dashes, lower case): the index is on the
-- description in the form search compares it, which Prisma's schema cannot express, so it lives only here
-- (packages/db/test/schema-diff.ts knows it by name). search.repository.ts must use exactly this expression.
CREATE INDEX "bank_transfers_description_key_trgm_idx" ON "bank_transfers"
  USING GIN ((regexp_replace(upper("description"), '[[:space:]-]', '', 'g')) gin_trgm_ops);
