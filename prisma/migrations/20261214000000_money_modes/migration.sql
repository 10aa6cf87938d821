-- Money modes: live and sandbox money never meet (docs/sandbox.md, The boundary). A return to a sender and each house
-- journal posting carry the mode of the money they move, and triggers refuse every row that would join the two: a
-- payout batch item of sandbox money, a transfer credited to a deposit of the other mode, a return of another mode than
-- its transfer (or its deposit), a house posting of another mode than its return, a site journal posting about a
-- record of another mode's site. Each raises SQLSTATE 23514 (check_violation) with a message starting
-- `cross_mode_money:`; the journal check's invariant `cross_mode_money` finds any such row written around them.

-- AlterTable: a return's mode is its transfer's (simulated money: false), filled for the rows there are.
ALTER TABLE "sender_returns" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
UPDATE "sender_returns" r SET "livemode" = t."livemode" FROM "bank_transfers" t WHERE t."id" = r."bank_transfer_id" AND NOT t."livemode";
ALTER TABLE "sender_returns" ALTER COLUMN "livemode" DROP DEFAULT;

-- AlterTable: a house posting's mode is its return's, so the live house balances never hold simulated money.
ALTER TABLE "house_journal_entries" ADD COLUMN "livemode" BOOLEAN NOT NULL DEFAULT true;
UPDATE "house_journal_entries" h SET "livemode" = r."livemode"
  FROM "sender_returns" r WHERE h."entity_type" = 'sender_return' AND h."entity_id" = r."id" AND NOT r."livemode";
ALTER TABLE "house_journal_entries" ALTER COLUMN "livemode" DROP DEFAULT;

-- CreateIndex: the operators' returns queue and the dashboard read one mode.
CREATE INDEX "sender_returns_livemode_status_created_at_idx" ON "sender_returns"("livemode", "status", "created_at");

-- A payout batch pays real money out of the house's real account: a sandbox's withdrawal or a return of simulated money never.
CREATE FUNCTION "payout_batch_items_live_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."withdrawal_id" IS NOT NULL AND EXISTS (
    SELECT 1 FROM "withdrawals" w JOIN "sites" s ON s."id" = w."site_id" WHERE w."id" = NEW."withdrawal_id" AND NOT s."livemode"
  ) THEN
    RAISE EXCEPTION 'cross_mode_money: withdrawal % belongs to a sandbox; a payout batch takes live money only', NEW."withdrawal_id"
      USING ERRCODE = '23514';
  END IF;
  IF NEW."sender_return_id" IS NOT NULL AND EXISTS (
    SELECT 1 FROM "sender_returns" r JOIN "bank_transfers" t ON t."id" = r."bank_transfer_id"
    WHERE r."id" = NEW."sender_return_id" AND NOT (r."livemode" AND t."livemode")
  ) THEN
    RAISE EXCEPTION 'cross_mode_money: return % gives back simulated money; a payout batch takes live money only', NEW."sender_return_id"
      USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "payout_batch_items_live_only" BEFORE INSERT OR UPDATE OF "withdrawal_id", "sender_return_id" ON "payout_batch_items"
  FOR EACH ROW EXECUTE FUNCTION "payout_batch_items_live_only"();

-- Real money pays live deposits only, and the simulator's money sandbox deposits only.
CREATE FUNCTION "bank_transfers_same_mode"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."intent_id" IS NOT NULL AND EXISTS (
    SELECT 1 FROM "deposit_intents" d JOIN "sites" s ON s."id" = d."site_id" WHERE d."id" = NEW."intent_id" AND s."livemode" <> NEW."livemode"
  ) THEN
    RAISE EXCEPTION 'cross_mode_money: transfer % (livemode %) cannot be credited to deposit % of the other mode', NEW."id", NEW."livemode", NEW."intent_id"
      USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "bank_transfers_same_mode" BEFORE INSERT OR UPDATE OF "intent_id", "livemode" ON "bank_transfers"
  FOR EACH ROW EXECUTE FUNCTION "bank_transfers_same_mode"();

-- A return gives back money of its own mode: its transfer's, and its deposit's site's for a remainder.
CREATE FUNCTION "sender_returns_same_mode"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM "bank_transfers" t WHERE t."id" = NEW."bank_transfer_id" AND t."livemode" <> NEW."livemode")
    OR (NEW."intent_id" IS NOT NULL AND EXISTS (
      SELECT 1 FROM "deposit_intents" d JOIN "sites" s ON s."id" = d."site_id" WHERE d."id" = NEW."intent_id" AND s."livemode" <> NEW."livemode"
    ))
  THEN
    RAISE EXCEPTION 'cross_mode_money: return % (livemode %) is not of its transfer''s or deposit''s mode', NEW."id", NEW."livemode"
      USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "sender_returns_same_mode" BEFORE INSERT OR UPDATE OF "livemode", "bank_transfer_id", "intent_id" ON "sender_returns"
  FOR EACH ROW EXECUTE FUNCTION "sender_returns_same_mode"();

-- A house posting is of its return's mode.
CREATE FUNCTION "house_journal_entries_same_mode"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."entity_type" = 'sender_return' AND EXISTS (
    SELECT 1 FROM "sender_returns" r WHERE r."id" = NEW."entity_id" AND r."livemode" <> NEW."livemode"
  ) THEN
    RAISE EXCEPTION 'cross_mode_money: house posting of return % (livemode %) is not of its return''s mode', NEW."entity_id", NEW."livemode"
      USING ERRCODE = '23514';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER "house_journal_entries_same_mode" BEFORE INSERT OR UPDATE ON "house_journal_entries"
  FOR EACH ROW EXECUTE FUNCTION "house_journal_entries_same_mode"();

-- A site's journal posting is about a record of a site of the same mode (its own, in practice). Once per statement
-- over the rows it inserted, so a bulk posting of many deposit credits pays one join, not a lookup per row.
CREATE FUNCTION "journal_entries_same_mode"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bad RECORD;
BEGIN
  SELECT e."entity_type", e."entity_id", s."livemode" INTO bad
  FROM "inserted" e
  JOIN "sites" s ON s."id" = e."site_id"
  LEFT JOIN "deposit_intents" d ON e."entity_type" = 'deposit_intent' AND d."id" = e."entity_id"
  LEFT JOIN "withdrawals" w ON e."entity_type" = 'withdrawal' AND w."id" = e."entity_id"
  JOIN "sites" owner ON owner."id" = COALESCE(d."site_id", w."site_id")
  WHERE owner."livemode" <> s."livemode"
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'cross_mode_money: journal posting about % % on a site of livemode % belongs to a site of the other mode', bad."entity_type", bad."entity_id", bad."livemode"
      USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "journal_entries_same_mode" AFTER INSERT ON "journal_entries"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "journal_entries_same_mode"();
