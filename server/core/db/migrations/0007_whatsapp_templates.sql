CREATE TABLE "whatsapp_template_creations" (
	"id" serial PRIMARY KEY NOT NULL,
	"waba_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_template_status_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"template_id" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whatsapp_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"waba_id" text NOT NULL,
	"meta_template_id" text,
	"name" text NOT NULL,
	"language" text NOT NULL,
	"category" text NOT NULL,
	"components" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"rejected_reason" text,
	"quality_score" text DEFAULT 'UNKNOWN' NOT NULL,
	"status_at" timestamp with time zone,
	"quality_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "whatsapp_template_status_history" ADD CONSTRAINT "whatsapp_template_status_history_template_id_whatsapp_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."whatsapp_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "whatsapp_template_creations_waba_idx" ON "whatsapp_template_creations" USING btree ("waba_id","created_at");--> statement-breakpoint
CREATE INDEX "whatsapp_template_status_history_template_idx" ON "whatsapp_template_status_history" USING btree ("template_id","at");--> statement-breakpoint
CREATE INDEX "whatsapp_templates_company_channel_idx" ON "whatsapp_templates" USING btree ("company_id","channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "whatsapp_templates_waba_name_language_uq" ON "whatsapp_templates" USING btree ("waba_id","name","language");--> statement-breakpoint
CREATE INDEX "whatsapp_templates_meta_id_idx" ON "whatsapp_templates" USING btree ("meta_template_id");