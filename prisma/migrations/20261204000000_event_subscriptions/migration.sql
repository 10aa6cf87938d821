-- Event subscriptions: a site chooses which opt-in webhook event types it receives (intent.received,
-- intent.auto_cancelled, intent.late_arrival, intent.topped_up). The five event types of the SPEC are always
-- sent and never stored here; an empty array (every existing site) means exactly those five.

-- AlterTable
ALTER TABLE "sites" ADD COLUMN "webhook_event_types" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
