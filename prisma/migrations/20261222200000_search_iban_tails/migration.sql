-- The operators' search (docs/operations.md, Search) finds an IBAN by its last digits. Through a trigram index that
-- took milliseconds: IBANs are all digits, so each trigram of a tail is in a large share of them and every candidate
-- must be re-checked. Read backwards, an IBAN's last digits are its first: a btree on the reversed IBAN finds a tail
-- as a prefix, in a few index pages (search.repository.ts compares `reverse(iban) LIKE '<reversed tail>%'`, exactly
-- this expression). The trigram indexes served only that search and go. text_pattern_ops, so the prefix match uses
-- the index whatever the database's collation. Expression indexes, which Prisma's schema cannot express: they live
-- only here (packages/db/test/schema-diff.ts knows them by name). Built in the migration's transaction (CREATE INDEX,
-- not CONCURRENTLY): writes to these tables wait while it builds, a few seconds per million rows.

DROP INDEX "withdrawals_target_iban_idx";
DROP INDEX "bank_transfers_sender_iban_idx";

CREATE INDEX "withdrawals_target_iban_tail_idx" ON "withdrawals" (reverse("target_iban") text_pattern_ops);
CREATE INDEX "bank_transfers_sender_iban_tail_idx" ON "bank_transfers" (reverse("sender_iban") text_pattern_ops);

-- The planner knows an expression's values only from ANALYZE: until then it takes a tail for a common one and reads
-- the table newest first instead.
ANALYZE "withdrawals";
ANALYZE "bank_transfers";
