-- The X-Request-Id of the HTTP request whose transaction wrote the event; nullable, so existing rows and
-- events written outside a request keep NULL. Adding a nullable column without a default is instant.
-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN "request_id" VARCHAR(128);
