CREATE TABLE "broadcast_recipients" (
	"id" serial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"phone" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"room_id" integer,
	"row_number" integer,
	"variables" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"exclusion_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"wa_message_id" text,
	"error_code" integer,
	"error_title" text,
	"error_detail" text,
	"queued_at" timestamp with time zone,
	"sending_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"read_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"name" text NOT NULL,
	"template_name" text NOT NULL,
	"template_language" text NOT NULL,
	"template_id" integer,
	"template_components" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"template_category" text,
	"variables" jsonb NOT NULL,
	"header_media_url" text,
	"audience_type" text NOT NULL,
	"audience_filter" jsonb,
	"csv_file_name" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"status_reason" text,
	"scheduled_at" timestamp with time zone,
	"time_zone" text,
	"waiting_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"paused_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"n_users" integer DEFAULT 0 NOT NULL,
	"queued_count" integer DEFAULT 0 NOT NULL,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"delivered_count" integer DEFAULT 0 NOT NULL,
	"read_count" integer DEFAULT 0 NOT NULL,
	"replied_count" integer DEFAULT 0 NOT NULL,
	"failed_count" integer DEFAULT 0 NOT NULL,
	"unknown_count" integer DEFAULT 0 NOT NULL,
	"excluded_count" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "opt_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"channel_id" integer,
	"portfolio_id" text,
	"phone" text NOT NULL,
	"reason" text NOT NULL,
	"source" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_template_id_whatsapp_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."whatsapp_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "opt_outs" ADD CONSTRAINT "opt_outs_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_recipients_broadcast_phone_uq" ON "broadcast_recipients" USING btree ("broadcast_id","phone");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_broadcast_state_idx" ON "broadcast_recipients" USING btree ("broadcast_id","state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_recipients_wa_message_uq" ON "broadcast_recipients" USING btree ("wa_message_id");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_company_phone_idx" ON "broadcast_recipients" USING btree ("company_id","phone","sent_at");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_sent_at_idx" ON "broadcast_recipients" USING btree ("sent_at") WHERE "broadcast_recipients"."sent_at" is not null;--> statement-breakpoint
CREATE INDEX "broadcasts_company_created_idx" ON "broadcasts" USING btree ("company_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "broadcasts_channel_idx" ON "broadcasts" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "broadcasts_active_idx" ON "broadcasts" USING btree ("status","scheduled_at") WHERE "broadcasts"."status" in ('scheduled', 'sending', 'waiting');--> statement-breakpoint
CREATE UNIQUE INDEX "opt_outs_company_channel_phone_uq" ON "opt_outs" USING btree ("company_id",coalesce("channel_id", 0),"phone");--> statement-breakpoint
CREATE INDEX "opt_outs_company_phone_idx" ON "opt_outs" USING btree ("company_id","phone");