CREATE TABLE "user_identities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "waba_id" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "display_phone_number" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "access_token_enc" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "signup_status" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "signup_steps" jsonb;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "signup_error" text;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "settings" jsonb;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "last_inbound_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_identities_provider_subject_uq" ON "user_identities" USING btree ("provider","subject");--> statement-breakpoint
CREATE INDEX "user_identities_user_idx" ON "user_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "webhook_events_pending_idx" ON "webhook_events" USING btree ("id") WHERE "webhook_events"."processed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "channels_platform_external_uq" ON "channels" USING btree ("platform","external_id") WHERE "channels"."status" <> 'disconnected';