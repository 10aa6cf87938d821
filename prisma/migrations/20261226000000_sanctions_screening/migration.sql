-- Sanctions and asset-freeze screening (docs/compliance.md). Imported list versions and their entries, from which
-- every ledger rebuilds its screening index; and the screenings of payout beneficiaries and deposit senders, a hit
-- holding its record until two operators decide it.

CREATE TABLE "screening_list_versions" (
    "id" UUID NOT NULL,
    "source" VARCHAR(64) NOT NULL,
    "format" VARCHAR(8) NOT NULL,
    "generated" VARCHAR(64),
    "sha256" CHAR(64) NOT NULL,
    "entry_count" INTEGER NOT NULL,
    "imported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "imported_by" VARCHAR(64) NOT NULL,

    CONSTRAINT "screening_list_versions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "screening_list_versions_format_check" CHECK ("format" IN ('un', 'csv'))
);
CREATE UNIQUE INDEX "screening_list_versions_sha256_key" ON "screening_list_versions"("sha256");
CREATE INDEX "screening_list_versions_source_imported_at_idx" ON "screening_list_versions"("source", "imported_at" DESC);

CREATE TABLE "screening_list_entries" (
    "version_id" UUID NOT NULL,
    "entry_id" VARCHAR(64) NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "names" JSONB NOT NULL,
    "reference" VARCHAR(64),
    "program" VARCHAR(200),
    "listed_on" VARCHAR(10),

    CONSTRAINT "screening_list_entries_pkey" PRIMARY KEY ("version_id", "entry_id"),
    CONSTRAINT "screening_list_entries_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "screening_list_versions"("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

CREATE TABLE "screenings" (
    "id" UUID NOT NULL,
    "subject_type" VARCHAR(16) NOT NULL,
    "subject_id" UUID NOT NULL,
    "site_id" UUID NOT NULL,
    "screened_name" VARCHAR(140) NOT NULL,
    "list_version_ids" UUID[] NOT NULL,
    "versions_key" TEXT NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "score_bp" INTEGER,
    "entry_version_id" UUID,
    "entry_source" VARCHAR(64),
    "entry_id" VARCHAR(64),
    "entry_reference" VARCHAR(64),
    "matched_name" VARCHAR(500),
    "other_hits" JSONB NOT NULL DEFAULT '[]',
    "decisions" JSONB NOT NULL DEFAULT '[]',
    "decided_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "screenings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "screenings_subject_type_check" CHECK ("subject_type" IN ('withdrawal', 'deposit')),
    CONSTRAINT "screenings_status_check" CHECK ("status" IN ('CLEAN', 'KNOWN', 'OPEN', 'CLEARED', 'CONFIRMED')),
    CONSTRAINT "screenings_hit_check" CHECK ("status" IN ('CLEAN', 'KNOWN') OR ("entry_id" IS NOT NULL AND "score_bp" IS NOT NULL))
);
CREATE INDEX "screenings_subject_id_created_at_idx" ON "screenings"("subject_id", "created_at");
CREATE INDEX "screenings_status_created_at_idx" ON "screenings"("status", "created_at");
