CREATE TABLE "bot_channels" (
	"bot_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bot_channels_bot_id_channel_id_pk" PRIMARY KEY("bot_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "bot_conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"room_id" integer NOT NULL,
	"bot_id" integer NOT NULL,
	"current_step_id" text,
	"fallback_count" integer DEFAULT 0 NOT NULL,
	"handed_over_at" timestamp with time zone,
	"last_inbound_message_id" integer DEFAULT 0 NOT NULL,
	"last_bot_message_id" integer,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"key_enc" text NOT NULL,
	"key_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone,
	CONSTRAINT "bot_integrations_company_id_unique" UNIQUE("company_id"),
	CONSTRAINT "bot_integrations_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "bot_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"method" text NOT NULL,
	"url" text NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"body" text,
	"response_mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_opt_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"room_id" integer,
	"external_id" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"reason" text NOT NULL,
	"bot_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_steps" (
	"bot_id" integer NOT NULL,
	"id" text NOT NULL,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"next_step_id" text,
	"actions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input_variable" text,
	"layout_x" real,
	"layout_y" real,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "bot_steps_bot_id_id_pk" PRIMARY KEY("bot_id","id")
);
--> statement-breakpoint
CREATE TABLE "bots" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"start_step_id" text,
	"fallback_step_id" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "step_options" (
	"bot_id" integer NOT NULL,
	"id" text NOT NULL,
	"step_id" text NOT NULL,
	"text" text DEFAULT 'Button' NOT NULL,
	"next_step" text,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "step_options_bot_id_id_pk" PRIMARY KEY("bot_id","id")
);
--> statement-breakpoint
ALTER TABLE "bot_channels" ADD CONSTRAINT "bot_channels_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_channels" ADD CONSTRAINT "bot_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_channels" ADD CONSTRAINT "bot_channels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_conversations" ADD CONSTRAINT "bot_conversations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_conversations" ADD CONSTRAINT "bot_conversations_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_conversations" ADD CONSTRAINT "bot_conversations_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_conversations" ADD CONSTRAINT "bot_conversations_last_bot_message_id_messages_id_fk" FOREIGN KEY ("last_bot_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_integrations" ADD CONSTRAINT "bot_integrations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_operations" ADD CONSTRAINT "bot_operations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_opt_outs" ADD CONSTRAINT "bot_opt_outs_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_opt_outs" ADD CONSTRAINT "bot_opt_outs_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_opt_outs" ADD CONSTRAINT "bot_opt_outs_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_opt_outs" ADD CONSTRAINT "bot_opt_outs_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_steps" ADD CONSTRAINT "bot_steps_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "step_options" ADD CONSTRAINT "step_options_step_fk" FOREIGN KEY ("bot_id","step_id") REFERENCES "public"."bot_steps"("bot_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bot_channels_channel_uq" ON "bot_channels" USING btree ("channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bot_conversations_room_uq" ON "bot_conversations" USING btree ("room_id");--> statement-breakpoint
CREATE INDEX "bot_conversations_bot_idx" ON "bot_conversations" USING btree ("bot_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bot_operations_company_name_uq" ON "bot_operations" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "bot_opt_outs_channel_external_uq" ON "bot_opt_outs" USING btree ("channel_id","external_id");--> statement-breakpoint
CREATE INDEX "bot_opt_outs_company_idx" ON "bot_opt_outs" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "bots_company_idx" ON "bots" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bots_company_name_uq" ON "bots" USING btree ("company_id",lower("name"));--> statement-breakpoint
CREATE INDEX "step_options_step_idx" ON "step_options" USING btree ("bot_id","step_id");