CREATE TABLE "auto_assign_channels" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"last_user_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_capacities" (
	"company_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"capacity" integer NOT NULL,
	CONSTRAINT "member_capacities_company_id_user_id_pk" PRIMARY KEY("company_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "bot_conversations" ADD COLUMN "pending_answer" jsonb;--> statement-breakpoint
ALTER TABLE "flow_runs" ADD COLUMN "pending_replies" jsonb;--> statement-breakpoint
ALTER TABLE "auto_assign_channels" ADD CONSTRAINT "auto_assign_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auto_assign_channels" ADD CONSTRAINT "auto_assign_channels_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_capacities" ADD CONSTRAINT "member_capacities_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "member_capacities" ADD CONSTRAINT "member_capacities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;