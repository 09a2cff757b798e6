CREATE INDEX "messages_room_created_idx" ON "messages" USING btree ("room_id","created_at","id");--> statement-breakpoint
CREATE INDEX "messages_room_customer_idx" ON "messages" USING btree ("room_id","id") WHERE "messages"."origin" = 'user';--> statement-breakpoint
CREATE INDEX "messages_template_idx" ON "messages" USING btree ("company_id",("data" -> 'template' ->> 'name'),("data" -> 'template' ->> 'language')) WHERE "messages"."type" = 'template';--> statement-breakpoint
CREATE INDEX "rooms_channel_activity_idx" ON "rooms" USING btree ("channel_id",coalesce("last_message_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "rooms_company_activity_order_idx" ON "rooms" USING btree ("company_id",coalesce("last_message_at", "created_at"),"id");