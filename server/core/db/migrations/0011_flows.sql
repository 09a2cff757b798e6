CREATE TABLE "flow_steps" (
	"flow_id" integer NOT NULL,
	"step_id" text NOT NULL,
	"position" integer NOT NULL,
	"next_step_id" text,
	"step_msg" text NOT NULL,
	"type" text DEFAULT 'text' NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	CONSTRAINT "flow_steps_flow_id_step_id_pk" PRIMARY KEY("flow_id","step_id")
);
--> statement-breakpoint
CREATE TABLE "flow_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"flow_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"restored_from" integer,
	"snapshot" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flows" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"flow_name" text NOT NULL,
	"description" text NOT NULL,
	"company_name" text NOT NULL,
	"company_domain" text NOT NULL,
	"extra_context" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"intro_msg" text DEFAULT '' NOT NULL,
	"intro_media_url" text,
	"find_out_more_msg" text DEFAULT '' NOT NULL,
	"find_out_more_media_url" text,
	"call_to_action" text,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flow_steps" ADD CONSTRAINT "flow_steps_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_versions" ADD CONSTRAINT "flow_versions_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_versions" ADD CONSTRAINT "flow_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flow_versions_flow_version_uq" ON "flow_versions" USING btree ("flow_id","version");--> statement-breakpoint
CREATE INDEX "flows_company_idx" ON "flows" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flows_company_name_uq" ON "flows" USING btree ("company_id",lower("flow_name"));