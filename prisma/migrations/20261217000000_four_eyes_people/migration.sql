-- Four-eyes takes two different people (docs/operations.md, Four-eyes): an operator account never completes a
-- payout's four-eyes together with the admin who created it or last changed it (its scope, a token issued for it,
-- its second factor turned off). Who that was: an operator id, or `bootstrap` for the bootstrap token; null when
-- unknown (an account created before this migration whose creation is not in the audit log).
ALTER TABLE "operators" ADD COLUMN "created_by" VARCHAR(64);
ALTER TABLE "operators" ADD COLUMN "changed_by" VARCHAR(64);

-- The accounts that exist already: their creator and last change as the audit log recorded them.
UPDATE "operators" o SET "created_by" = a."actor_id"
FROM "audit_log" a
WHERE a."action" = 'OPERATOR.CREATED' AND a."entity_type" = 'operator' AND a."entity_id" = o."id"::text;

UPDATE "operators" o SET "changed_by" = last."actor_id"
FROM (
  SELECT DISTINCT ON (o2."id") o2."id", a."actor_id"
  FROM "operators" o2
  JOIN "audit_log" a ON
    (a."action" = 'OPERATOR.SCOPE_CHANGED' AND a."entity_type" = 'operator' AND a."entity_id" = o2."id"::text)
    OR (a."action" = 'OPERATOR.SECOND_FACTOR_DISABLED' AND a."entity_type" = 'operator' AND a."entity_id" = o2."id"::text
        AND a."actor_id" <> o2."id"::text)
    OR (a."action" = 'OPERATOR_TOKEN.ISSUED' AND a."metadata"->>'operatorId' = o2."id"::text AND a."actor_id" <> o2."id"::text)
  ORDER BY o2."id", a."created_at" DESC
) last
WHERE last."id" = o."id";
