CREATE TABLE "inbound_room_leases" (
	"room_id" integer PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_waiting" (
	"message_id" integer PRIMARY KEY NOT NULL,
	"room_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "delivery_holder" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "delivery_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "inbound_room_leases" ADD CONSTRAINT "inbound_room_leases_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_waiting" ADD CONSTRAINT "inbound_waiting_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_waiting" ADD CONSTRAINT "inbound_waiting_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_waiting_room_idx" ON "inbound_waiting" USING btree ("room_id","message_id");--> statement-breakpoint
CREATE INDEX "messages_pending_idx" ON "messages" USING btree ("id") WHERE "messages"."status" = 'pending';