/**
 * The company's channels (spec §2 /channels, §7 GET/POST /api/channels/): listing with the
 * company's "connected" rule (spec §4), Facebook pages and Instagram accounts connected with the
 * user's token from Facebook login, disconnection and WhatsApp message templates.
 * Provider tokens are stored sealed (server/core/crypto/secretBox.ts) and never answered.
 */
import { and, count, desc, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { Paged } from '../../../contract/api';
import { isCompanyConnected, type Channel, type ChannelsListResponse, type ConnectChannelBody, type FacebookPage, type MessageTemplate } from '../../../contract/channels';
import type { Platform } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { SecretBox } from '../../core/crypto/secretBox';
import type { Database } from '../../core/db/client';
import { prepared } from '../../core/db/prepared';
import { channels, memberships } from '../../core/db/schema';
import { ApiError, badRequest, fieldError, notFound } from '../../core/errors';
import { GraphApiError, type MetaGraph } from '../../providers/meta/types';
import { UPSTREAM_MESSAGES, describeUpstreamError, redactSecrets } from '../../providers/meta/upstreamErrors';
import { offsetOf, paged, type PageRequest } from '../../core/paging';
import { toChannel, type ChannelRow } from './views';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import type { PlanLimits } from '../../core/planLimits';

export const CHANNEL_MESSAGES = {
  alreadyConnected: 'This account is already connected to another company.',
  pageNotManaged: 'This page is not among the pages your Facebook account manages.',
  noInstagram: 'This page has no linked Instagram professional account.',
  sandbox: 'The sandbox channel cannot be disconnected.',
} as const;

/** Keys of channels.settings holding secrets or run state: removed when a channel is disconnected. */
export const SECRET_SETTINGS = ['code_enc', 'pin_enc', 'run_lease_until', 'run_id'] as const;

export interface Logger {
  debug?(obj: unknown, msg?: string): void;
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface ChannelDeps {
  db: Database;
  clock: Clock;
  box: SecretBox;
  /** Resolved when used (tests replace it through the service overrides). */
  graph: () => MetaGraph;
  log: Logger;
  /** A new or reconnected channel counts towards the plan's channels. */
  planLimits: PlanLimits;
}

export function alreadyConnectedError(): ApiError {
  return new ApiError(409, { detail: CHANNEL_MESSAGES.alreadyConnected, code: 'already_connected' });
}

/**
 * A Graph API failure as the API answers it: 503 with fixed wording when it is worth trying again
 * (outage, rate limit, network: our own error text never reaches the caller), else 400 with Meta's
 * reworded message. The token of the call never appears in the answer; the detail is logged, redacted.
 */
export function graphFailure(log: Pick<Logger, 'warn'>, secrets: readonly string[]) {
  return (err: unknown): never => {
    if (err instanceof GraphApiError) {
      log.warn({ graph: describeUpstreamError(err, secrets) }, 'Graph API call failed');
      if (err.retryable) throw new ApiError(503, { detail: UPSTREAM_MESSAGES.unavailable, code: 'provider_unavailable' });
      throw new ApiError(400, { detail: redactSecrets(err.message, secrets), code: 'provider_error' });
    }
    throw err;
  };
}

/** jsonb: the settings without the given keys. */
export function settingsWithout(keys: readonly string[]) {
  return sql`coalesce(${channels.settings}, '{}'::jsonb) - ${sql.raw(`ARRAY[${keys.map((k) => `'${k}'`).join(',')}]::text[]`)}`;
}

export class ChannelService {
  constructor(private readonly deps: ChannelDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  /** The channel's provider token, or null (none stored, or it cannot be opened with the current key). */
  tokenOf(row: Pick<ChannelRow, 'id' | 'accessTokenEnc'>): string | null {
    if (!row.accessTokenEnc) return null;
    try {
      return this.deps.box.open(row.accessTokenEnc);
    } catch (err) {
      this.deps.log.error({ err, channelId: row.id }, 'channel token cannot be decrypted');
      return null;
    }
  }

  /** A channel of the company; another company's (or an unknown) id is "not found". */
  async channelOf(companyId: number, id: number): Promise<ChannelRow> {
    // Prepared: every channel-scoped request (templates, settings, stats) starts here.
    const statement = prepared(this.db, 'channel_of_company', (db, name) =>
      db
        .select()
        .from(channels)
        .where(and(eq(channels.id, sql.placeholder('id')), eq(channels.companyId, sql.placeholder('companyId'))))
        .prepare(name),
    );
    const [row] = await statement.execute({ id, companyId });
    if (!row) throw notFound();
    return row;
  }

  /** The row holding a provider account (any company), not disconnected. */
  async holder(platform: Platform, externalId: string): Promise<ChannelRow | null> {
    const [row] = await this.db
      .select()
      .from(channels)
      .where(and(eq(channels.platform, platform), eq(channels.externalId, externalId), ne(channels.status, 'disconnected')));
    return row ?? null;
  }

  /** The company's newest row for a provider account, whatever its status (reconnecting re-activates it, keeping its rooms). */
  async companyRow(companyId: number, platform: Platform, externalId: string): Promise<ChannelRow | null> {
    const [row] = await this.db
      .select()
      .from(channels)
      .where(and(eq(channels.companyId, companyId), eq(channels.platform, platform), eq(channels.externalId, externalId)))
      .orderBy(desc(channels.id))
      .limit(1);
    return row ?? null;
  }

  /**
   * The channel a webhook event is for: active, or pending (a WhatsApp signup whose webhooks were
   * just subscribed, between its last step and its outcome). Disconnected channels get nothing.
   */
  async activeChannel(platform: Platform, externalId: string): Promise<ChannelRow | null> {
    return this.holder(platform, externalId);
  }

  // ---------- GET /api/channels/ ----------

  async list(
    requestUrl: string,
    companyId: number,
    requesterIsAdmin: boolean,
    page: PageRequest,
  ): Promise<ChannelsListResponse & Pick<Paged<Channel>, 'next' | 'previous'>> {
    // Built once per database (bench/data); the page planned on each call (its LIMIT and OFFSET are values).
    const company = eq(channels.companyId, sql.placeholder('companyId'));
    const summaryStatement = prepared(this.db, 'channel_summaries', (db, name) =>
      db.select({ platform: channels.platform, status: channels.status, signupStatus: channels.signupStatus }).from(channels).where(company).prepare(name),
    );
    const pageStatement = prepared(
      this.db,
      'channel_page',
      (db, name) =>
        db.select().from(channels).where(company).orderBy(desc(channels.createdAt), desc(channels.id)).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(name),
      { planEachCall: true },
    );
    const memberCountStatement = prepared(this.db, 'channel_company_members', (db, name) =>
      db.select({ n: count() }).from(memberships).where(eq(memberships.companyId, sql.placeholder('companyId'))).prepare(name),
    );
    const [all, rows, [members]] = await Promise.all([
      summaryStatement.execute({ companyId }),
      pageStatement.execute({ companyId, limit: page.pageSize, offset: offsetOf(page) }),
      memberCountStatement.execute({ companyId }),
    ]);
    const summaries = all.map((c) => ({
      platform: c.platform,
      status: c.status as Channel['status'],
      signup_status: c.platform === 'whatsapp' ? (c.signupStatus ?? null) : null,
    }));
    return {
      ...paged(requestUrl, page, all.length, rows.map(toChannel)),
      company_connected: isCompanyConnected(summaries, Number(members?.n ?? 0), requesterIsAdmin),
    };
  }

  // ---------- Facebook pages, Instagram accounts ----------

  async facebookPages(userToken: string): Promise<FacebookPage[]> {
    const pages = await this.deps.graph().managedPages(userToken).catch(graphFailure(this.deps.log, [userToken]));
    if (pages.length === 0) return [];
    const pageIds = pages.map((p) => p.id);
    const instagramIds = pages.flatMap((p) => (p.instagram ? [p.instagram.id] : []));
    const taken = await this.db
      .select({ platform: channels.platform, externalId: channels.externalId })
      .from(channels)
      .where(
        and(
          ne(channels.status, 'disconnected'),
          or(
            and(eq(channels.platform, 'messenger'), inArray(channels.externalId, pageIds)),
            instagramIds.length ? and(eq(channels.platform, 'instagram'), inArray(channels.externalId, instagramIds)) : sql`false`,
          ),
        ),
      );
    const connected = new Set(taken.map((t) => `${t.platform}:${t.externalId}`));
    return pages.map((p) => ({
      id: p.id,
      name: p.name,
      instagram: p.instagram ? { id: p.instagram.id, username: p.instagram.username, connected: connected.has(`instagram:${p.instagram.id}`) } : null,
      connected: connected.has(`messenger:${p.id}`),
    }));
  }

  /**
   * POST /api/channels/: the page must be one the user's token manages; Instagram needs the page's
   * linked account. The app is subscribed to the page and the page token stored sealed.
   * `created` is false when the company's channel was already active (its token is refreshed).
   */
  async connect(companyId: number, input: ConnectChannelBody): Promise<{ channel: Channel; created: boolean }> {
    const graph = this.deps.graph();
    const pages = await graph.managedPages(input.access_token).catch(graphFailure(this.deps.log, [input.access_token]));
    const page = pages.find((p) => p.id === input.page_id);
    if (!page) throw fieldError('page_id', CHANNEL_MESSAGES.pageNotManaged);
    let externalId = page.id;
    let name = page.name;
    const settings: Record<string, unknown> = { page_id: page.id, page_name: page.name };
    if (input.platform === 'instagram') {
      if (!page.instagram) throw fieldError('page_id', CHANNEL_MESSAGES.noInstagram);
      externalId = page.instagram.id;
      name = page.instagram.username ? `@${page.instagram.username}` : page.name;
      settings.instagram_username = page.instagram.username;
    }

    const holder = await this.holder(input.platform, externalId);
    if (holder && holder.companyId !== companyId) throw alreadyConnectedError();
    await graph.subscribePage(page.id, page.access_token).catch(graphFailure(this.deps.log, [input.access_token, page.access_token]));

    const values = {
      status: 'active',
      name,
      accessTokenEnc: this.deps.box.seal(page.access_token),
      settings: sql`${settingsWithout(SECRET_SETTINGS)} || ${JSON.stringify(settings)}::jsonb`,
    };
    const existing = holder ?? (await this.companyRow(companyId, input.platform, externalId));
    // The plan's channel limit (issue #14): a new channel, or a disconnected one connected again.
    if (!existing || existing.status === 'disconnected') await this.deps.planLimits.check(companyId, 'channels');
    try {
      if (existing) {
        const [row] = await this.db.update(channels).set(values).where(eq(channels.id, existing.id)).returning();
        return { channel: toChannel(row), created: existing.status !== 'active' };
      }
      const [row] = await this.db
        .insert(channels)
        .values({ ...values, settings, companyId, platform: input.platform, externalId, createdAt: this.deps.clock.now() })
        .returning();
      return { channel: toChannel(row), created: true };
    } catch (err) {
      // Another company connected it between the check and the write.
      if (isUniqueViolation(err)) throw alreadyConnectedError();
      throw err;
    }
  }

  /** DELETE /api/channels/{id}/: unsubscribed at Meta (best effort), disconnected, tokens and secrets wiped. Rooms stay. */
  async disconnect(companyId: number, id: number): Promise<void> {
    const row = await this.channelOf(companyId, id);
    if (row.platform === 'sandbox') throw badRequest(CHANNEL_MESSAGES.sandbox, 'sandbox_channel');
    if (row.status === 'disconnected' && !row.accessTokenEnc) return;
    const token = this.tokenOf(row);
    if (token) {
      try {
        const graph = this.deps.graph();
        if (row.platform === 'whatsapp') {
          if (row.wabaId) await graph.unsubscribeWaba(row.wabaId, token);
        } else {
          await graph.unsubscribePage(pageIdOf(row), token);
        }
      } catch (err) {
        this.deps.log.warn({ err, channelId: row.id }, 'unsubscribing a disconnected channel failed');
      }
    }
    await this.db
      .update(channels)
      .set({
        status: 'disconnected',
        accessTokenEnc: null,
        settings: settingsWithout(SECRET_SETTINGS),
        ...(row.signupStatus === 'in_progress' ? { signupStatus: 'failed' as const, signupError: 'The channel was disconnected during the signup.' } : {}),
      })
      .where(eq(channels.id, row.id));
  }

  /** GET /api/channels/{id}/templates/: the WhatsApp Business Account's templates; other channels have none. */
  async templates(companyId: number, id: number): Promise<MessageTemplate[]> {
    const row = await this.channelOf(companyId, id);
    if (row.platform !== 'whatsapp' || row.status === 'disconnected' || !row.wabaId) return [];
    const token = this.tokenOf(row);
    if (!token) return [];
    return this.deps.graph().messageTemplates(row.wabaId, token).catch(graphFailure(this.deps.log, [token]));
  }
}

/** The Facebook page a Messenger or Instagram channel sends through. */
export function pageIdOf(row: Pick<ChannelRow, 'platform' | 'externalId' | 'settings'>): string {
  if (row.platform === 'instagram') {
    const pageId = row.settings?.page_id;
    if (typeof pageId !== 'string' || !pageId) throw new Error('The Instagram channel has no linked page.');
    return pageId;
  }
  return row.externalId;
}
