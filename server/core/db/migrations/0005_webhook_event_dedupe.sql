ALTER TABLE "webhook_events" ADD COLUMN "body_hash" text;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_provider_body_uq" ON "webhook_events" USING btree ("provider","body_hash");