-- A site's policy to screen the senders of the money credited to its deposits against the sanctions and asset-freeze
-- lists (docs/compliance.md, Sanctions and asset-freeze screening): off by default, set by a house-wide admin.
ALTER TABLE "sites" ADD COLUMN "screen_deposit_senders" BOOLEAN NOT NULL DEFAULT false;
