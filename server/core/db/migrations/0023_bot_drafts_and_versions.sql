CREATE TABLE "bot_drafts" (
	"bot_id" integer PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"content" jsonb NOT NULL,
	"restored_from" integer,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"bot_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"restored_from" integer,
	"snapshot" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_drafts" ADD CONSTRAINT "bot_drafts_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_drafts" ADD CONSTRAINT "bot_drafts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_versions" ADD CONSTRAINT "bot_versions_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_versions" ADD CONSTRAINT "bot_versions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bot_versions_bot_version_uq" ON "bot_versions" USING btree ("bot_id","version");--> statement-breakpoint
-- Every bot that predates drafts becomes its published version 1, with its live content as it is
-- (the shape of contract/botDrafts.ts normalizedContent: steps in outline order, positions from 0).
INSERT INTO "bot_versions" ("bot_id", "company_id", "version", "kind", "snapshot", "created_by", "created_at")
SELECT b."id", b."company_id", 1, 'migration',
  jsonb_build_object(
    'step', b."start_step_id",
    'fallback_step_id', b."fallback_step_id",
    'steps', COALESCE((
      SELECT jsonb_agg(jsonb_build_object(
          'id', s."id",
          'messages', s."messages",
          'options', COALESCE((
            SELECT jsonb_agg(jsonb_build_object('id', o."id", 'text', o."text", 'next_step', o."next_step", 'step', s."id") ORDER BY o."position", o."id")
            FROM "step_options" o WHERE o."bot_id" = s."bot_id" AND o."step_id" = s."id"
          ), '[]'::jsonb),
          'next_step_id', s."next_step_id",
          'layout', CASE WHEN s."layout_x" IS NOT NULL AND s."layout_y" IS NOT NULL THEN jsonb_build_object('x', s."layout_x", 'y', s."layout_y") ELSE 'null'::jsonb END,
          'actions', s."actions",
          'input', CASE WHEN NULLIF(s."input_variable", '') IS NOT NULL THEN jsonb_build_object('variable', s."input_variable") ELSE 'null'::jsonb END,
          'position', s."ordinal" - 1
        ) ORDER BY s."ordinal")
      FROM (SELECT st.*, row_number() OVER (ORDER BY st."position", st."id") AS "ordinal" FROM "bot_steps" st WHERE st."bot_id" = b."id") s
    ), '[]'::jsonb)
  ),
  'migration', b."updated_at"
FROM "bots" b;
