CREATE TABLE "contact_import_skips" (
	"import_id" integer NOT NULL,
	"row" integer NOT NULL,
	"reason" text NOT NULL,
	"field" text,
	"value" text,
	"first_row" integer,
	CONSTRAINT "contact_import_skips_import_id_row_pk" PRIMARY KEY("import_id","row")
);
--> statement-breakpoint
CREATE TABLE "contact_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"state" text NOT NULL,
	"file_name" text NOT NULL,
	"mapping" jsonb NOT NULL,
	"country" text,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"skipped_count" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "contact_import_skips" ADD CONSTRAINT "contact_import_skips_import_id_contact_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contact_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_imports" ADD CONSTRAINT "contact_imports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_imports" ADD CONSTRAINT "contact_imports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_imports_one_running_uq" ON "contact_imports" USING btree ("company_id") WHERE "contact_imports"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "contact_imports_company_idx" ON "contact_imports" USING btree ("company_id","created_at");