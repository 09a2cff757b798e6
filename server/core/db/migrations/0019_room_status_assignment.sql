ALTER TABLE "rooms" ADD COLUMN "status" text DEFAULT 'open' NOT NULL;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "snoozed_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "assignee_user_id" integer;--> statement-breakpoint
ALTER TABLE "rooms" ADD CONSTRAINT "rooms_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rooms_channel_status_activity_idx" ON "rooms" USING btree ("channel_id","status",coalesce("last_message_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "rooms_company_status_activity_idx" ON "rooms" USING btree ("company_id","status",coalesce("last_message_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "rooms_company_assignee_idx" ON "rooms" USING btree ("company_id","assignee_user_id");--> statement-breakpoint
CREATE INDEX "rooms_snoozed_until_idx" ON "rooms" USING btree ("snoozed_until") WHERE "rooms"."status" = 'snoozed';--> statement-breakpoint
-- Existing rooms: open, or resolved when their last message (else their creation) is older than 7 days.
UPDATE "rooms" SET "status" = 'resolved' WHERE coalesce("last_message_at", "created_at") < now() - interval '7 days';--> statement-breakpoint
-- Existing assignments were agent tags (spec §5): a room tagged with a member's e-mail is assigned to that member (the lowest user id if several).
UPDATE "rooms" AS r SET "assignee_user_id" = a."user_id"
FROM (
  SELECT rt."room_id", min(u."id") AS "user_id"
  FROM "room_tags" rt
  INNER JOIN "tags" t ON t."id" = rt."tag_id"
  INNER JOIN "rooms" r2 ON r2."id" = rt."room_id"
  INNER JOIN "memberships" m ON m."company_id" = r2."company_id"
  INNER JOIN "users" u ON u."id" = m."user_id" AND lower(u."email") = lower(t."name")
  GROUP BY rt."room_id"
) AS a
WHERE r."id" = a."room_id";
