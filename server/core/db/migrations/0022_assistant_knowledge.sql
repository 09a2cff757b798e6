CREATE TABLE "assistant_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"provider" text DEFAULT 'local' NOT NULL,
	"base_url" text DEFAULT '' NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"api_key_enc" text,
	"temperature" real DEFAULT 0.2 NOT NULL,
	"max_tokens" integer DEFAULT 400 NOT NULL,
	"timeout_ms" integer DEFAULT 15000 NOT NULL,
	"threshold" real DEFAULT 0.5 NOT NULL,
	"channels" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"file_name" text,
	"flow_id" integer,
	"flow_version" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_passages" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"position" integer NOT NULL,
	"heading" text NOT NULL,
	"text" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, heading || ' ' || text) || to_tsvector('french'::regconfig, heading || ' ' || text)) STORED
);
--> statement-breakpoint
ALTER TABLE "assistant_settings" ADD CONSTRAINT "assistant_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_items" ADD CONSTRAINT "knowledge_items_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_item_id_knowledge_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."knowledge_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_passages" ADD CONSTRAINT "knowledge_passages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "knowledge_items_company_idx" ON "knowledge_items" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "knowledge_items_company_flow_uq" ON "knowledge_items" USING btree ("company_id","flow_id");--> statement-breakpoint
CREATE INDEX "knowledge_passages_item_idx" ON "knowledge_passages" USING btree ("item_id","position");--> statement-breakpoint
CREATE INDEX "knowledge_passages_company_idx" ON "knowledge_passages" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "knowledge_passages_search_idx" ON "knowledge_passages" USING gin ("search");