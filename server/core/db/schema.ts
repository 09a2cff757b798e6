/**
 * Database schema (drizzle). Migrations are generated from this file with
 * `npx drizzle-kit generate --name <name>`; never edit the generated SQL by hand.
 * Secrets that travel in links (reset, verification, invite tokens) and refresh
 * tokens are stored only as SHA-256 hashes, so a database leak does not leak them.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  // Always stored lower-cased (the request schemas lower-case e-mails).
  email: text('email').notNull().unique(),
  firstName: text('first_name').notNull().default(''),
  lastName: text('last_name').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  /** MediaStorage key of the avatar (profile_avatar); the URL it is served at is profile_avatar_url. */
  profileAvatar: text('profile_avatar'),
  profileAvatarUrl: text('profile_avatar_url'),
  createdAt: createdAt(),
});

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo'),
  translatorDomain: text('translator_domain'),
  planName: text('plan_name'),
  /** Spec §6 "companies with an agent feature": agents see only rooms tagged with their own e-mail. */
  agentFeature: boolean('agent_feature').notNull().default(false),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('agent'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('memberships_company_user_uq').on(t.companyId, t.userId), index('memberships_user_idx').on(t.userId)],
);

/** Per-company overrides of a role's default permission flags (contract/permissions.ts). */
export const companyRolePermissions = pgTable(
  'company_role_permissions',
  {
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    permissions: jsonb('permissions').$type<Record<string, boolean>>().notNull().default({}),
  },
  (t) => [uniqueIndex('company_role_permissions_uq').on(t.companyId, t.role)],
);

export const onboardingRequests = pgTable('onboarding_requests', {
  id: serial('id').primaryKey(),
  email: text('email').notNull().unique(),
  needsWhatsappNumber: boolean('needs_whatsapp_number').notNull().default(true),
  tokenHash: text('token_hash').notNull().unique(),
  tokenExpiresAt: at('token_expires_at').notNull(),
  verifiedAt: at('verified_at'),
  createdAt: createdAt(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

export const invites = pgTable(
  'invites',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull().default('agent'),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    revokedAt: at('revoked_at'),
    /** The invitee said no (POST /api/invitations/{id}/decline/); the company sees it as declined. */
    declinedAt: at('declined_at'),
  },
  (t) => [
    index('invites_email_idx').on(t.email),
    index('invites_company_idx').on(t.companyId),
    // At most one open (not accepted, revoked or declined) invite per company and e-mail: inviting again
    // refreshes it; after a decline a new invite is a new row, so the decline stays on record.
    uniqueIndex('invites_open_company_email_uq')
      .on(t.companyId, t.email)
      .where(sql`${t.acceptedAt} IS NULL AND ${t.revokedAt} IS NULL AND ${t.declinedAt} IS NULL`),
  ],
);

/** One login = one session; every refresh token of that login belongs to it. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    jti: uuid('jti').primaryKey(),
    sessionId: uuid('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_session_idx').on(t.sessionId)],
);

export const outboxEmails = pgTable('outbox_emails', {
  id: serial('id').primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  createdAt: createdAt(),
});

// ---------- live inbox (server/plugins/chats, server/plugins/sandbox) ----------

/** A messaging channel of a company ("page" in the inbox protocol): sandbox, WhatsApp number, Facebook page… */
export const channels = pgTable(
  'channels',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    platform: text('platform').$type<'sandbox' | 'whatsapp' | 'messenger' | 'instagram'>().notNull(),
    name: text('name').notNull(),
    /** The provider's id of the channel (phone number id, page id); the sandbox uses `sandbox-{company}`. */
    externalId: text('external_id').notNull(),
    status: text('status').notNull().default('active'),
    /** Sandbox only: the secret in the customer simulator's link. */
    simulatorKey: text('simulator_key').unique(),
    /** WhatsApp: the WhatsApp Business Account id and the number as Meta displays it. */
    wabaId: text('waba_id'),
    displayPhoneNumber: text('display_phone_number'),
    /** The provider token (WhatsApp business token, page token), encrypted at rest (server/core/crypto/secretBox.ts). */
    accessTokenEnc: text('access_token_enc'),
    /** WhatsApp embedded signup: in_progress, completed, partial_failure, failed; null elsewhere. */
    signupStatus: text('signup_status').$type<'in_progress' | 'completed' | 'partial_failure' | 'failed'>(),
    signupSteps: jsonb('signup_steps').$type<{ name: string; status: 'pending' | 'done' | 'failed'; error: string | null; at: string | null }[]>(),
    signupError: text('signup_error'),
    /** Provider details kept for later calls (Instagram account id of a page, the signup's non-JSON data…). */
    settings: jsonb('settings').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('channels_company_idx').on(t.companyId),
    // One provider account belongs to one company at a time (else: account-already-connected).
    uniqueIndex('channels_platform_external_uq').on(t.platform, t.externalId).where(sql`${t.status} <> 'disconnected'`),
  ],
);

/** One conversation with one customer on one channel. */
export const rooms = pgTable(
  'rooms',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull().references(() => channels.id, { onDelete: 'cascade' }),
    /** The customer's id on the channel (phone number, PSID, simulator id). */
    externalId: text('external_id').notNull(),
    name: text('name').notNull(),
    pausedUntil: at('paused_until'),
    blockedAt: at('blocked_at'),
    lastMessageAt: at('last_message_at'),
    /** The customer's latest message (WhatsApp's 24-hour customer-service window). */
    lastInboundAt: at('last_inbound_at'),
    createdAt: createdAt(),
    /** Issue #22: open | pending | snoozed | resolved (contract/conversations.ts). */
    status: text('status').notNull().default('open'),
    /** When a snoozed room opens again by itself (the chats plugin's snooze job). */
    snoozedUntil: at('snoozed_until'),
    /** The one member the room is assigned to; kept in step with its agent tag (spec §5). */
    assigneeUserId: integer('assignee_user_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('rooms_channel_external_uq').on(t.channelId, t.externalId),
    // The inbox's status views (a status within a channel or the company, newest activity first) and their counts.
    index('rooms_channel_status_activity_idx').on(t.channelId, t.status, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index('rooms_company_status_activity_idx').on(t.companyId, t.status, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index('rooms_company_assignee_idx').on(t.companyId, t.assigneeUserId),
    // The snooze job's pass: only snoozed rooms, by their end.
    index('rooms_snoozed_until_idx').on(t.snoozedUntil).where(sql`${t.status} = 'snoozed'`),
    index('rooms_company_activity_idx').on(t.companyId, t.lastMessageAt.desc()),
    // Stats (server/plugins/stats): conversations started in a date range.
    index('rooms_company_created_idx').on(t.companyId, t.createdAt),
    // fetch_rooms' order (newest activity first) within a channel or a company, read backwards (bench/data).
    index('rooms_channel_activity_idx').on(t.channelId, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
    index('rooms_company_activity_order_idx').on(t.companyId, sql`coalesce(${t.lastMessageAt}, ${t.createdAt})`, t.id),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    roomId: integer('room_id').notNull().references(() => rooms.id, { onDelete: 'cascade' }),
    origin: text('origin').notNull(),
    type: text('type').notNull().default('text'),
    text: text('text'),
    mediaUrl: text('media_url'),
    mediaType: text('media_type'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    /** Outgoing messages only: pending → sent → delivered → read, or failed. */
    status: text('status'),
    error: text('error'),
    /** Idempotency key of the sender (console or simulator). */
    clientId: text('client_id'),
    /** The provider's message id. */
    externalId: text('external_id'),
    senderUserId: integer('sender_user_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: text('sender_name'),
    /**
     * An outgoing message being delivered is leased (server/plugins/chats/delivery.ts): the process
     * (`delivery_holder`) handing it to the provider, or waiting to retry, owns it until
     * `delivery_lease_until`; no other process or restart sends it before that.
     */
    deliveryHolder: text('delivery_holder'),
    deliveryLeaseUntil: at('delivery_lease_until'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('messages_room_client_uq').on(t.roomId, t.clientId),
    // The deliveries' resume pass (every process, periodically) looks at pending messages only.
    index('messages_pending_idx').on(t.id).where(sql`${t.status} = 'pending'`),
    index('messages_room_id_idx').on(t.roomId, t.id),
    index('messages_external_idx').on(t.externalId),
    // Stats (server/plugins/stats): messages in and out over a date range.
    index('messages_company_created_idx').on(t.companyId, t.createdAt),
    // fetch_messages: a room's page before a (created_at, id), newest first (bench/data).
    index('messages_room_created_idx').on(t.roomId, t.createdAt, t.id),
    // Unread counts: a room's customer messages after the read marker, index-only (bench/data).
    index('messages_room_customer_idx').on(t.roomId, t.id).where(sql`${t.origin} = 'user'`),
    // Message search (issue #22, server/plugins/chats/messageSearch.ts): full text, 'simple' (no stemming:
    // conversations mix languages). The query repeats this expression exactly (messageSearch.ts messageVector).
    index('messages_text_search_idx').using('gin', sql`to_tsvector('simple'::regconfig, coalesce(${t.text}, ''))`),
    // A WhatsApp template's stats (templates plugin): only template messages are indexed (bench/data).
    index('messages_template_idx')
      .on(t.companyId, sql`(${t.data} -> 'template' ->> 'name')`, sql`(${t.data} -> 'template' ->> 'language')`)
      .where(sql`${t.type} = 'template'`),
  ],
);

export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('tags_company_name_uq').on(t.companyId, sql`lower(${t.name})`)],
);

export const roomTags = pgTable(
  'room_tags',
  {
    roomId: integer('room_id').notNull().references(() => rooms.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id').notNull().references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.tagId] }), index('room_tags_tag_idx').on(t.tagId)],
);

/** How far each member has read each room (unread counts). */
export const roomReads = pgTable(
  'room_reads',
  {
    roomId: integer('room_id').notNull().references(() => rooms.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    lastReadMessageId: integer('last_read_message_id').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] })],
);

// ---------- channels (server/plugins/channels) ----------

/**
 * Provider webhooks as received (signature checked), kept until processed: the POST is answered
 * at once and a restart in the middle resumes the unprocessed ones. Processing is idempotent.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull(),
    receivedAt: createdAt(),
    processedAt: at('processed_at'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    /** SHA-256 (hex) of the raw signed body: a replayed delivery is recognised and not stored again (null on rows from before). */
    bodyHash: text('body_hash'),
  },
  (t) => [
    index('webhook_events_pending_idx').on(t.id).where(sql`${t.processedAt} is null`),
    uniqueIndex('webhook_events_provider_body_uq').on(t.provider, t.bodyHash),
  ],
);

/** Accounts of a user at identity providers (Facebook, Google) for social login. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<'facebook' | 'google'>().notNull(),
    /** The provider's stable user id (Facebook app-scoped id, Google `sub`). */
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('user_identities_provider_subject_uq').on(t.provider, t.subject), index('user_identities_user_idx').on(t.userId)],
);

/** Agents' canned replies (spec §3 Agent template; server/plugins/agentTemplates). Names are unique per company, case-insensitively. */
export const agentTemplates = pgTable(
  'agent_templates',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    text: text('text').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('agent_templates_company_name_uq').on(t.companyId, sql`lower(${t.name})`)],
);

/**
 * WhatsApp message templates (issue #10): our copy of a channel's WhatsApp Business Account
 * templates, synced from Meta on demand and when the list is opened, updated by the
 * message_template_status_update / _quality_update webhooks. Components are kept in Meta's format.
 */
export const whatsappTemplates = pgTable(
  'whatsapp_templates',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull().references(() => channels.id, { onDelete: 'cascade' }),
    wabaId: text('waba_id').notNull(),
    /** Meta's id (hsm id); null only for a row that Meta has not answered for yet. */
    metaTemplateId: text('meta_template_id'),
    name: text('name').notNull(),
    language: text('language').notNull(),
    category: text('category').notNull(),
    components: jsonb('components').$type<unknown[]>().notNull(),
    status: text('status').notNull().default('PENDING'),
    rejectedReason: text('rejected_reason'),
    qualityScore: text('quality_score').notNull().default('UNKNOWN'),
    /** When Meta's latest status or quality event happened: an older event never overwrites a newer one. */
    statusAt: at('status_at'),
    qualityAt: at('quality_at'),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('whatsapp_templates_company_channel_idx').on(t.companyId, t.channelId),
    uniqueIndex('whatsapp_templates_waba_name_language_uq').on(t.wabaId, t.name, t.language),
    index('whatsapp_templates_meta_id_idx').on(t.metaTemplateId),
  ],
);

/** Every status a template went through (created, Meta's webhooks, syncs), newest last. */
export const whatsappTemplateStatusHistory = pgTable(
  'whatsapp_template_status_history',
  {
    id: serial('id').primaryKey(),
    templateId: integer('template_id').notNull().references(() => whatsappTemplates.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    reason: text('reason'),
    /** When Meta says it happened (the webhook's time), else when we learnt it. */
    at: at('at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [index('whatsapp_template_status_history_template_idx').on(t.templateId, t.at)],
);

/** Creations per WhatsApp Business Account, for Meta's hourly limit (100 per account per hour). */
export const whatsappTemplateCreations = pgTable(
  'whatsapp_template_creations',
  {
    id: serial('id').primaryKey(),
    wabaId: text('waba_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('whatsapp_template_creations_waba_idx').on(t.wabaId, t.createdAt)],
);
