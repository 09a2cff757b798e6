CREATE TABLE "flow_channel_defaults" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"flow_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flow_channel_defaults" ADD CONSTRAINT "flow_channel_defaults_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_channel_defaults" ADD CONSTRAINT "flow_channel_defaults_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_channel_defaults" ADD CONSTRAINT "flow_channel_defaults_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_channel_defaults_flow_idx" ON "flow_channel_defaults" USING btree ("flow_id");--> statement-breakpoint
CREATE INDEX "flow_channel_defaults_company_idx" ON "flow_channel_defaults" USING btree ("company_id");