CREATE TABLE "contact_attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_rooms" (
	"room_id" integer PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_tags" (
	"contact_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "contact_tags_contact_id_tag_id_pk" PRIMARY KEY("contact_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"phone" text,
	"email" text,
	"external_id" text,
	"page_id" integer,
	"platform" text,
	"attributes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "contact_attributes" ADD CONSTRAINT "contact_attributes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_rooms" ADD CONSTRAINT "contact_rooms_room_id_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_rooms" ADD CONSTRAINT "contact_rooms_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_page_id_channels_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_attributes_company_key_uq" ON "contact_attributes" USING btree ("company_id","key");--> statement-breakpoint
CREATE INDEX "contact_rooms_contact_idx" ON "contact_rooms" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "contact_tags_tag_idx" ON "contact_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_phone_uq" ON "contacts" USING btree ("company_id","phone") WHERE "contacts"."phone" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_page_external_uq" ON "contacts" USING btree ("company_id","page_id","external_id") WHERE "contacts"."external_id" is not null and "contacts"."page_id" is not null;--> statement-breakpoint
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "contacts_company_name_idx" ON "contacts" USING btree ("company_id",lower("name"));--> statement-breakpoint
-- Backfill (issue #23): every existing room gets its contact, the statements of server/plugins/contacts/linking.ts over every room.
INSERT INTO contacts (company_id, name, phone, external_id, page_id, platform, created_at)
SELECT DISTINCT ON (u.company_id, coalesce(u.phone, u.channel_id::text || ':' || u.external_id))
  u.company_id, u.name, u.phone, u.external_id, u.channel_id, u.platform, u.created_at
FROM (
  SELECT r.id AS room_id, r.company_id, r.channel_id, r.external_id, r.name, r.created_at, c.platform, CASE WHEN (c.platform = 'whatsapp' AND r.external_id ~ '^\+?[0-9]{7,15}$') OR (c.platform = 'sandbox' AND r.external_id ~ '^\+[0-9]{7,15}$') THEN '+' || ltrim(r.external_id, '+') END AS phone
  FROM rooms r JOIN channels c ON c.id = r.channel_id
  WHERE NOT EXISTS (SELECT 1 FROM contact_rooms cr WHERE cr.room_id = r.id) AND true
) u
WHERE NOT EXISTS (SELECT 1 FROM contacts k WHERE k.company_id = u.company_id AND ((u.phone IS NOT NULL AND k.phone = u.phone) OR (k.page_id = u.channel_id AND k.external_id = u.external_id)))
ORDER BY u.company_id, coalesce(u.phone, u.channel_id::text || ':' || u.external_id), u.created_at, u.room_id
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO contact_rooms (room_id, contact_id)
SELECT u.room_id, m.id
FROM (
  SELECT r.id AS room_id, r.company_id, r.channel_id, r.external_id, r.name, r.created_at, c.platform, CASE WHEN (c.platform = 'whatsapp' AND r.external_id ~ '^\+?[0-9]{7,15}$') OR (c.platform = 'sandbox' AND r.external_id ~ '^\+[0-9]{7,15}$') THEN '+' || ltrim(r.external_id, '+') END AS phone
  FROM rooms r JOIN channels c ON c.id = r.channel_id
  WHERE NOT EXISTS (SELECT 1 FROM contact_rooms cr WHERE cr.room_id = r.id) AND true
) u
JOIN LATERAL (
  SELECT k.id FROM contacts k WHERE k.company_id = u.company_id AND ((u.phone IS NOT NULL AND k.phone = u.phone) OR (k.page_id = u.channel_id AND k.external_id = u.external_id))
  ORDER BY coalesce(k.page_id = u.channel_id AND k.external_id = u.external_id, false) DESC, k.id LIMIT 1
) m ON true
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE contacts k SET last_message_at = latest.at
FROM (
  SELECT cr.contact_id, max(r.last_message_at) AS at
  FROM contact_rooms cr JOIN rooms r ON r.id = cr.room_id
  GROUP BY cr.contact_id
) latest
WHERE k.id = latest.contact_id AND latest.at IS NOT NULL AND (k.last_message_at IS NULL OR k.last_message_at < latest.at);
