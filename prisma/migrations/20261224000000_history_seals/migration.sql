-- The daily seal of the history chains (docs/compliance.md, Tamper-evident history). The chains alone show an edit made
-- by someone who did not also recompute the links and heads; someone who can write the database can recompute them
-- all. So once every Istanbul calendar day has ended and the chains have linked everything committed before its end,
-- the ledger signs each chain's head (chain, seq, link hash) and the journal's balances as those heads cover them, with
-- an ed25519 key the database does not hold (HISTORY_SEAL_KEY). A rewrite after sealing no longer ends at the sealed
-- hashes; a seal rewritten to match no longer verifies with the public key.
--
-- `payload` is the exact canonical JSON that was signed (history-seal.ts builds it): the day, the sealing time, the key
-- id, the previous seal's hash (the seals form their own chain), the heads and the balances. `payload_hash` is its
-- SHA-256, `signature` the ed25519 signature of its UTF-8 bytes (base64). Anyone with the public key verifies a seal
-- from these columns alone.
CREATE TABLE "history_seals" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "day" DATE NOT NULL,
    "payload" TEXT NOT NULL,
    "payload_hash" BYTEA NOT NULL,
    "previous_hash" BYTEA,
    "signature" TEXT NOT NULL,
    "key_id" VARCHAR(32) NOT NULL,
    "sealed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "history_seals_pkey" PRIMARY KEY ("id")
);
-- One seal per day, whoever races to write it.
CREATE UNIQUE INDEX "history_seals_day_key" ON "history_seals"("day");

-- Append-only: a seal is never changed or removed by Kasa. (Whoever owns the tables can drop this trigger; the
-- verification then finds the seal missing or its signature wrong.)
CREATE FUNCTION "history_seals_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'history_seals is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "history_seals_append_only"
  BEFORE UPDATE OR DELETE ON "history_seals"
  FOR EACH ROW EXECUTE FUNCTION "history_seals_append_only"();
CREATE TRIGGER "history_seals_no_truncate"
  BEFORE TRUNCATE ON "history_seals"
  FOR EACH STATEMENT EXECUTE FUNCTION "history_seals_append_only"();
