-- Retention and erasure (docs/compliance.md, Retention and erasure): KVKK erasure requests, explicit legal holds, and the
-- destruction log that says what was anonymised, when and why. Money, references, statuses, ids and the journal are
-- never touched by an erasure; only the personal fields of a record are replaced by a fixed marker.

-- An erased audit entry keeps the SHA-256 of the metadata it was chained with, so its hash chain still verifies.
ALTER TABLE "audit_log" ADD COLUMN "metadata_sha256" CHAR(64);

CREATE TYPE "ErasureRequestStatus" AS ENUM ('OPEN', 'ANSWERED', 'COMPLETED');

CREATE TABLE "erasure_requests" (
    "id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "external_user_id" VARCHAR(64) NOT NULL,
    "reason" VARCHAR(500) NOT NULL,
    "status" "ErasureRequestStatus" NOT NULL DEFAULT 'OPEN',
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "filed_by" VARCHAR(64) NOT NULL,
    "answered_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),
    "waiting" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erasure_requests_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "erasure_requests_created_at_id_idx" ON "erasure_requests"("created_at" DESC, "id" DESC);
CREATE INDEX "erasure_requests_status_due_at_idx" ON "erasure_requests"("status", "due_at");
CREATE INDEX "erasure_requests_site_id_external_user_id_idx" ON "erasure_requests"("site_id", "external_user_id");

CREATE TABLE "legal_holds" (
    "id" UUID NOT NULL,
    "site_id" UUID,
    "external_user_id" VARCHAR(64),
    "record_type" VARCHAR(32),
    "record_id" UUID,
    "reason" VARCHAR(500) NOT NULL,
    "placed_by" VARCHAR(64) NOT NULL,
    "placed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "released_by" VARCHAR(64),
    "released_at" TIMESTAMPTZ(3),

    CONSTRAINT "legal_holds_pkey" PRIMARY KEY ("id"),
    -- A hold names a user of a site, or one record: never both, never neither.
    CONSTRAINT "legal_holds_target" CHECK (
      ("site_id" IS NOT NULL AND "external_user_id" IS NOT NULL AND "record_type" IS NULL AND "record_id" IS NULL)
      OR ("external_user_id" IS NULL AND "record_type" IS NOT NULL AND "record_id" IS NOT NULL))
);
CREATE INDEX "legal_holds_site_id_external_user_id_idx" ON "legal_holds"("site_id", "external_user_id");
CREATE INDEX "legal_holds_record_type_record_id_idx" ON "legal_holds"("record_type", "record_id");
CREATE INDEX "legal_holds_placed_at_id_idx" ON "legal_holds"("placed_at" DESC, "id" DESC);

CREATE TABLE "destruction_log" (
    "id" UUID NOT NULL,
    "record_type" VARCHAR(32) NOT NULL,
    "record_id" UUID NOT NULL,
    "site_id" UUID,
    "fields" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "cause" VARCHAR(32) NOT NULL,
    "erasure_request_id" UUID,
    "actor" VARCHAR(64) NOT NULL,
    "destroyed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "destruction_log_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "destruction_log_record_type_record_id_key" ON "destruction_log"("record_type", "record_id");
CREATE INDEX "destruction_log_destroyed_at_id_idx" ON "destruction_log"("destroyed_at" DESC, "id" DESC);
CREATE INDEX "destruction_log_erasure_request_id_idx" ON "destruction_log"("erasure_request_id");

-- Append-only: no row is ever changed; a row is deleted only when older than three years, and only by the destruction
-- job, which says so for its own transaction (`SET LOCAL kasa.destruction_log_prune = 'on'`).
CREATE FUNCTION "destruction_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE'
     AND current_setting('kasa.destruction_log_prune', true) = 'on'
     AND OLD.destroyed_at < now() - interval '3 years' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'destruction_log is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "destruction_log_append_only" BEFORE UPDATE OR DELETE ON "destruction_log"
  FOR EACH ROW EXECUTE FUNCTION "destruction_log_append_only"();
CREATE TRIGGER "destruction_log_no_truncate" BEFORE TRUNCATE ON "destruction_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "destruction_log_append_only"();
