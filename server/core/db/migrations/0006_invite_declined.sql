DROP INDEX "invites_open_company_email_uq";--> statement-breakpoint
ALTER TABLE "invites" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "invites_open_company_email_uq" ON "invites" USING btree ("company_id","email") WHERE "invites"."accepted_at" IS NULL AND "invites"."revoked_at" IS NULL AND "invites"."declined_at" IS NULL;