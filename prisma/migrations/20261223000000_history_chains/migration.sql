-- Records nobody can quietly change (docs/compliance.md, Tamper-evident history). Every audit entry and every journal
-- entry is linked into a hash chain: the audit log one chain, the journal one chain per site. The links are written by
-- the ledger's history worker shortly after the rows commit, never by the transaction that writes the rows, so the
-- money paths neither wait for nor serialise on a chain head.
--
-- Which rows a pass may link: those of transactions that finished before every transaction still running began. Each
-- row carries the id of the transaction that wrote it (`tx_id`, PostgreSQL's 64-bit xid8 as a number); a row whose
-- tx_id is below the snapshot's xmin is committed (or was rolled back and is gone), and no row written later can get a
-- tx_id below it. So a pass takes the rows after its last one, in (tx_id, id) order, up to that horizon, and the order
-- it links them in never changes.

ALTER TABLE "audit_log" ADD COLUMN "tx_id" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
ALTER TABLE "journal_entries" ADD COLUMN "tx_id" BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
CREATE INDEX "audit_log_tx_id_id_idx" ON "audit_log"("tx_id", "id");
CREATE INDEX "journal_entries_tx_id_id_idx" ON "journal_entries"("tx_id", "id");

-- One link per chained row: its place in its chain, the hash of the row as it was linked, and the link's hash over
-- the chain, its place, the previous link's hash and the row's hash.
CREATE TABLE "history_links" (
    "chain" VARCHAR(64) NOT NULL,
    "seq" BIGINT NOT NULL,
    "source" VARCHAR(16) NOT NULL,
    "row_id" UUID NOT NULL,
    "row_hash" BYTEA NOT NULL,
    "link_hash" BYTEA NOT NULL,
    "linked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "history_links_pkey" PRIMARY KEY ("chain", "seq")
);
CREATE UNIQUE INDEX "history_links_source_row_id_key" ON "history_links"("source", "row_id");

-- Per chain, its last link; per source table, the last row linked (where the next pass goes on).
CREATE TABLE "history_heads" (
    "chain" VARCHAR(64) NOT NULL,
    "seq" BIGINT NOT NULL,
    "link_hash" BYTEA NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "history_heads_pkey" PRIMARY KEY ("chain")
);
CREATE TABLE "history_cursors" (
    "source" VARCHAR(16) NOT NULL,
    "tx_id" BIGINT NOT NULL,
    "row_id" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "history_cursors_pkey" PRIMARY KEY ("source")
);
