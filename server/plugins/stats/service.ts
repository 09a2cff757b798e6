/**
 * Dashboard and /stats figures (issue #14; vocabulary in contract/stats.ts). Every figure is an
 * aggregate computed by PostgreSQL over indexed columns: rooms by (company_id, created_at) and
 * (company_id, last_message_at), messages by (company_id, created_at) and (room_id, id),
 * broadcasts by (company_id, created_at). Only aggregated rows (at most one per day, hour cell,
 * channel, agent or broadcast) reach the process.
 */
import { and, eq, ne } from 'drizzle-orm';
import { sql, type SQL } from 'drizzle-orm';
import type { AgentCsat, CsatFigures } from '../../../contract/csat';
import type {
  AgentFigures,
  AssistantFigures,
  BroadcastFunnel,
  ChannelFigures,
  ChannelHealth,
  DailyFigures,
  DashboardSetup,
  DashboardStats,
  Durations,
  HeatCell,
  RunningBroadcast,
  StatsReport,
  StatsScope,
} from '../../../contract/stats';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { prepared, preparedSql } from '../../core/db/prepared';
import { rowsOf } from '../../core/db/rows';
import { channels } from '../../core/db/schema';
import type { MessagingLimits } from '../broadcasts';

/** Who asks: the company, and for own scope the member whose figures these are. */
export interface StatsViewer {
  companyId: number;
  scope: StatsScope;
  userId: number;
  email: string;
}

export interface StatsRange {
  from: string;
  to: string;
  tz: string;
  channelId: number | null;
}

const CLOSED_AFTER = "interval '24 hours'";

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Math.round(Number(v) * 10) / 10);
const durations = (median: unknown, p90: unknown, count: unknown): Durations => ({ median: numOrNull(median), p90: numOrNull(p90), count: num(count) });

/**
 * Today's date (YYYY-MM-DD) in a time zone. The last answer per zone is kept with its UTC minute: a day starts on a
 * minute's boundary in every zone (offsets are whole minutes since 1972), so the dashboard's requests of the same
 * minute skip ICU, whose formatting cost 20 µs a request with cold caches (bench/data, issue #26).
 */
export function dayIn(date: Date, tz: string): string {
  let zone = dayFormats.get(tz);
  if (!zone) {
    zone = { format: new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }), minute: NaN, day: '' };
    dayFormats.set(tz, zone);
  }
  const minute = Math.floor(date.getTime() / 60_000);
  if (minute !== zone.minute) {
    zone.day = zone.format.format(date);
    zone.minute = minute;
  }
  return zone.day;
}

/** One formatter per zone and its last answer (zones are checked before they get here, so these are the runtime's few hundred at most): building one costs far more than using it. */
const dayFormats = new Map<string, { format: Intl.DateTimeFormat; minute: number; day: string }>();

/**
 * How long a /stats report is reused for the same viewer, range, time zone and channel (docs/architecture.md,
 * "Stats"): the report aggregates every message of its range (≈ 140 ms of PostgreSQL for 30 days of a busy
 * company, bench/data/README.md), and a figure this old is fine on an analytics page. After it, the old report
 * is answered while a new one is computed, up to twice this age. Measured on the service's clock; the dashboard
 * ("Today at a glance") is never cached.
 */
export const STATS_REPORT_TTL_MS = 30_000;
/** Reports kept at most (the oldest dropped first); one is a few kB. */
const STATS_REPORT_CACHE_MAX = 500;

interface ReportEntry {
  /** When its computation began (service clock, ms). */
  at: number;
  value: Promise<StatsReport>;
  /** The computation has succeeded (only a settled report is answered while a fresh one is computed). */
  settled: boolean;
  /** A fresh one is being computed in the background. */
  refreshing: boolean;
}

export class StatsService {
  /** key → the report (or its computation, shared by the requests that ask for it meanwhile), oldest first. */
  private readonly reports = new Map<string, ReportEntry>();

  /** `messagingLimits`: the broadcasts plugin's usage of a channel's messaging limit (channel health). */
  constructor(private readonly deps: { db: Database; clock: Clock; messagingLimits: MessagingLimits }) {}

  private get db(): Database {
    return this.deps.db;
  }

  private async rows<T>(query: SQL): Promise<T[]> {
    return rowsOf<T>(await this.db.execute(query));
  }

  /** Whether the channel is the company's. */
  async ownsChannel(companyId: number, channelId: number): Promise<boolean> {
    const [row] = await this.db.select({ id: channels.id }).from(channels).where(and(eq(channels.id, channelId), eq(channels.companyId, companyId)));
    return !!row;
  }

  // ---------- /stats ----------

  /**
   * The /stats report for a viewer and range: computed at most once per STATS_REPORT_TTL_MS. A report older than
   * that is still answered while a fresh one is computed in the background (so no request waits for a
   * recomputation), up to twice that age; older, or never computed, the request waits for it.
   */
  report(v: StatsViewer, range: StatsRange): Promise<StatsReport> {
    const key = JSON.stringify([v.companyId, v.scope, v.userId, v.email, range.from, range.to, range.tz, range.channelId]);
    const now = this.deps.clock.now().getTime();
    const known = this.reports.get(key);
    const age = known ? now - known.at : Infinity;
    if (known && age >= 0 && age < STATS_REPORT_TTL_MS) return known.value;
    if (known && age >= 0 && age < 2 * STATS_REPORT_TTL_MS && known.settled) {
      if (!known.refreshing) {
        known.refreshing = true;
        this.computeReport(v, range).then(
          (report) => this.remember(key, now, Promise.resolve(report), true),
          () => {
            known.refreshing = false;
          },
        );
      }
      return known.value;
    }
    const value = this.computeReport(v, range);
    const entry = this.remember(key, now, value, false);
    value.then(
      () => {
        entry.settled = true;
      },
      // A failed computation is not kept (the next request tries again).
      () => {
        if (this.reports.get(key) === entry) this.reports.delete(key);
      },
    );
    return value;
  }

  private remember(key: string, at: number, value: Promise<StatsReport>, settled: boolean): ReportEntry {
    const entry: ReportEntry = { at, value, settled, refreshing: false };
    this.reports.delete(key);
    this.reports.set(key, entry);
    if (this.reports.size > STATS_REPORT_CACHE_MAX) this.reports.delete(this.reports.keys().next().value!);
    return entry;
  }

  private async computeReport(v: StatsViewer, range: StatsRange): Promise<StatsReport> {
    const { from, to, tz, channelId } = range;
    const { lo, hi } = boundsOf(from, to, tz);
    const now = this.deps.clock.now().toISOString();
    const scope = roomScopeOf(v.scope === 'own', v, channelId);
    const own = v.scope === 'own';
    const responderIsMe = own ? sql` and responder = ${v.userId}` : sql``;
    const outByMe = own ? sql`m.sender_user_id = ${v.userId}` : sql`m.origin in ('agent', 'bot')`;

    // Conversations started in the range, with their first customer message and first agent reply.
    const started = sql`
      select r.id, r.channel_id, (r.created_at at time zone ${tz})::date as day,
        fu.created_at as first_in, fa.created_at as first_reply, fa.sender_user_id as responder,
        exists (select 1 from messages b where b.room_id = r.id and b.origin = 'bot') as has_bot,
        exists (select 1 from messages a where a.room_id = r.id and a.origin = 'agent') as has_agent
      from rooms r
      left join lateral (select m.id, m.created_at from messages m where m.room_id = r.id and m.origin = 'user' order by m.id limit 1) fu on true
      left join lateral (select m.created_at, m.sender_user_id from messages m where m.room_id = r.id and m.origin = 'agent' and m.id > fu.id order by m.id limit 1) fa on true
      where ${scope} and r.created_at >= ${lo} and r.created_at < ${hi}`;
    // Conversations closed in the range (24 h without a message, closed at the last one), with the last agent who wrote.
    const closed = sql`
      select r.id, r.channel_id, (r.last_message_at at time zone ${tz})::date as day,
        extract(epoch from (r.last_message_at - r.created_at)) as secs,
        (select m.sender_user_id from messages m where m.room_id = r.id and m.origin = 'agent' order by m.id desc limit 1) as closer
      from rooms r
      where ${scope} and r.last_message_at >= ${lo} and r.last_message_at < ${hi}
        and r.last_message_at <= ${now}::timestamptz - ${sql.raw(CLOSED_AFTER)}`;
    // Messages of the range in the viewer's rooms.
    const msgs = sql`
      select m.origin, m.sender_user_id, m.created_at, r.channel_id from messages m join rooms r on r.id = m.room_id
      where m.company_id = ${v.companyId} and m.created_at >= ${lo} and m.created_at < ${hi} and ${scope}`;

    const broadcastSends = broadcastSendsOf(v.scope === 'own', v.companyId, lo, hi, channelId);

    // The statements are independent: they run at the same time (each on its own pooled connection).
    const totalsQuery = this.rows<Record<string, unknown>>(sql`
      with s as (${started}), c as (${closed}), mm as (${msgs}), bm as (${broadcastSends}),
      frt as (select extract(epoch from (first_reply - first_in)) as secs from s where first_reply is not null${responderIsMe})
      select
        (select count(*) from s) as started,
        (select count(*) from c) as closed,
        (select count(*) from mm m where m.origin = 'user') as messages_in,
        (select count(*) from mm m where ${outByMe}) + (select count(*) from bm) as messages_out,
        (select count(*) from s where has_bot and not has_agent) as bot_handled,
        (select count(*) from s where has_agent) as human_handled,
        (select percentile_cont(0.5) within group (order by secs) from frt) as frt_median,
        (select percentile_cont(0.9) within group (order by secs) from frt) as frt_p90,
        (select count(*) from frt) as frt_count,
        (select percentile_cont(0.5) within group (order by secs) from c) as res_median,
        (select percentile_cont(0.9) within group (order by secs) from c) as res_p90,
        (select count(*) from c) as res_count`);

    const dailyQuery = this.rows<{ day: string; kind: string; n: unknown }>(sql`
      with s as (${started}), c as (${closed}), mm as (${msgs}), bm as (${broadcastSends})
      select to_char(day, 'YYYY-MM-DD') as day, 'started' as kind, count(*) as n from s group by day
      union all select to_char(day, 'YYYY-MM-DD'), 'closed', count(*) from c group by day
      union all select to_char((m.created_at at time zone ${tz})::date, 'YYYY-MM-DD'), 'in', count(*) from mm m where m.origin = 'user' group by 1
      union all select to_char((m.created_at at time zone ${tz})::date, 'YYYY-MM-DD'), 'out', count(*) from mm m where ${outByMe} group by 1
      union all select to_char((b.created_at at time zone ${tz})::date, 'YYYY-MM-DD'), 'out', count(*) from bm b group by 1`);

    const agentQuery = this.rows<Record<string, unknown>>(sql`
      with s as (${started}), c as (${closed}), mm as (${msgs}),
      frt as (select responder as user_id, extract(epoch from (first_reply - first_in)) as secs from s where first_reply is not null and responder is not null${responderIsMe}),
      f as (select user_id, percentile_cont(0.5) within group (order by secs) as med, percentile_cont(0.9) within group (order by secs) as p90, count(*) as n from frt group by user_id),
      res as (select closer as user_id, percentile_cont(0.5) within group (order by secs) as med, percentile_cont(0.9) within group (order by secs) as p90, count(*) as n from c where closer is not null group by closer),
      o as (select m.sender_user_id as user_id, count(*) as n from mm m where m.origin = 'agent' and m.sender_user_id is not null group by m.sender_user_id),
      ids as (select user_id from f union select user_id from res union select user_id from o)
      select u.id as user_id, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name, u.email,
        f.med as f_med, f.p90 as f_p90, f.n as f_n, res.med as r_med, res.p90 as r_p90, res.n as r_n, o.n as out_n
      from ids join users u on u.id = ids.user_id
      left join f on f.user_id = ids.user_id left join res on res.user_id = ids.user_id left join o on o.user_id = ids.user_id
      ${own ? sql`where u.id = ${v.userId}` : sql``}
      order by f.med asc nulls last, u.id`);

    const channelQuery = this.rows<Record<string, unknown>>(sql`
      with s as (${started}), mm as (${msgs}), bm as (${broadcastSends}),
      st as (select channel_id, count(*) as n from s group by channel_id),
      mi as (select m.channel_id, count(*) filter (where m.origin = 'user') as n_in, count(*) filter (where ${outByMe}) as n_out from mm m group by m.channel_id),
      bo as (select channel_id, count(*) as n from bm group by channel_id)
      select ch.id, ch.name, ch.platform, coalesce(st.n, 0) as started, coalesce(mi.n_in, 0) as n_in, coalesce(mi.n_out, 0) + coalesce(bo.n, 0) as n_out
      from channels ch left join st on st.channel_id = ch.id left join mi on mi.channel_id = ch.id left join bo on bo.channel_id = ch.id
      where ch.company_id = ${v.companyId} ${channelId === null ? sql`` : sql`and ch.id = ${channelId}`}
        and (st.n is not null or mi.channel_id is not null or bo.channel_id is not null or ch.status <> 'disconnected')
      order by ch.id`);

    const heatQuery = this.rows<Record<string, unknown>>(sql`
      with mm as (${msgs})
      select extract(isodow from m.created_at at time zone ${tz}) as weekday, extract(hour from m.created_at at time zone ${tz}) as hour, count(*) as n
      from mm m where m.origin = 'user' group by 1, 2 order by 1, 2`);

    const broadcastQuery = own
      ? Promise.resolve([] as Record<string, unknown>[])
      : this.rows<Record<string, unknown>>(sql`
        select b.id, b.name, b.created_at, b.status, b.n_users, b.sent_count, b.delivered_count, b.read_count, b.replied_count, b.failed_count
        from broadcasts b
        where b.company_id = ${v.companyId} and b.created_at >= ${lo} and b.created_at < ${hi}
          ${channelId === null ? sql`` : sql`and b.channel_id = ${channelId}`}
        order by b.created_at desc, b.id desc limit 200`);

    // CSAT ratings received in the range (issue #22, csat_responses of the chats plugin): in own scope, the viewer's (the assignee when resolved).
    const csatQuery = this.rows<Record<string, unknown>>(sql`
      select cr.agent_user_id as user_id, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name, u.email,
        count(*) as n, count(*) filter (where cr.rating >= 4) as happy
      from csat_responses cr join rooms r on r.id = cr.room_id left join users u on u.id = cr.agent_user_id
      where cr.company_id = ${v.companyId} and cr.created_at >= ${lo} and cr.created_at < ${hi}
        ${channelId === null ? sql`` : sql`and r.channel_id = ${channelId}`}
        ${own ? sql`and cr.agent_user_id = ${v.userId}` : sql``}
      group by cr.agent_user_id, u.first_name, u.last_name, u.email
      order by cr.agent_user_id nulls last`);

    // The assistant's questions (issue #24, assistant_questions of the assistant plugin): company scope only.
    // Unanswered questions list gaps in the knowledge: not a request for a person, the plan's limit, or a bot's
    // ai_answer while the company's assistant is turned off ('assistant_disabled').
    const assistantScope = sql`aq.company_id = ${v.companyId} and aq.created_at >= ${lo} and aq.created_at < ${hi}
        ${channelId === null ? sql`` : sql`and r.channel_id = ${channelId}`}`;
    const assistantQuery = own
      ? Promise.resolve(null)
      : Promise.all([
          this.rows<Record<string, unknown>>(sql`
            select count(*) as n, count(*) filter (where aq.outcome = 'answer') as answered,
              count(*) filter (where aq.outcome = 'rephrase') as rephrased, count(*) filter (where aq.outcome = 'handover') as handovers
            from assistant_questions aq left join rooms r on r.id = aq.room_id
            where ${assistantScope}`),
          this.rows<Record<string, unknown>>(sql`
            select min(aq.question) as question, count(*) as n, max(aq.created_at) as last_asked
            from assistant_questions aq left join rooms r on r.id = aq.room_id
            where ${assistantScope} and aq.outcome <> 'answer' and aq.reason not in ('asked_for_person', 'plan_limit', 'assistant_disabled')
            group by lower(regexp_replace(trim(aq.question), '\\s+', ' ', 'g'))
            order by count(*) desc, max(aq.created_at) desc limit 10`),
        ]);

    const [[totals], dailyRows, agentRows, channelRows, heatRows, broadcastRows, csatRows, assistantRows] = await Promise.all([
      totalsQuery,
      dailyQuery,
      agentQuery,
      channelQuery,
      heatQuery,
      broadcastQuery,
      csatQuery,
      assistantQuery,
    ]);
    const assistant: AssistantFigures | null = assistantRows
      ? (() => {
          const [[t], unanswered] = assistantRows;
          const questions = num(t?.n);
          const answered = num(t?.answered);
          return {
            questions,
            answered,
            rephrased: num(t?.rephrased),
            handovers: num(t?.handovers),
            answer_rate: questions > 0 ? Math.round((answered / questions) * 1000) / 10 : null,
            unanswered: unanswered.map((r) => ({ question: String(r.question), count: num(r.n), last_asked: new Date(r.last_asked as string).toISOString() })),
          };
        })()
      : null;
    const csatOf = (n: number, happy: number): CsatFigures => ({ responses: n, satisfied: happy, score: n > 0 ? Math.round((happy / n) * 1000) / 10 : null });
    const csatTotal = csatOf(
      csatRows.reduce((sum, r) => sum + num(r.n), 0),
      csatRows.reduce((sum, r) => sum + num(r.happy), 0),
    );
    const csatAgents: AgentCsat[] = csatRows
      .filter((r) => r.user_id !== null && r.user_id !== undefined && r.email)
      .map((r) => ({ user_id: num(r.user_id), name: String(r.name || r.email), email: String(r.email), ...csatOf(num(r.n), num(r.happy)) }));
    const daily = fillDays(from, to, dailyRows);
    const agents: AgentFigures[] = agentRows.map((r) => ({
      user_id: num(r.user_id),
      name: String(r.name || r.email),
      email: String(r.email),
      first_response: durations(r.f_med, r.f_p90, r.f_n),
      resolution: durations(r.r_med, r.r_p90, r.r_n),
      messages_out: num(r.out_n),
    }));

    const channelFigures: ChannelFigures[] = channelRows.map((r) => ({
      channel_id: num(r.id),
      name: String(r.name),
      platform: String(r.platform),
      started: num(r.started),
      messages_in: num(r.n_in),
      messages_out: num(r.n_out),
    }));

    const heatmap: HeatCell[] = heatRows.map((r) => ({ weekday: num(r.weekday), hour: num(r.hour), messages: num(r.n) }));

    const broadcasts: BroadcastFunnel[] = broadcastRows.map((r) => ({
      id: num(r.id),
      name: String(r.name),
      created_at: new Date(r.created_at as string).toISOString(),
      status: String(r.status),
      n_users: num(r.n_users),
      sent: num(r.sent_count),
      delivered: num(r.delivered_count),
      read: num(r.read_count),
      replied: num(r.replied_count),
      failed: num(r.failed_count),
    }));

    return {
      scope: v.scope,
      from,
      to,
      tz,
      channel_id: channelId,
      totals: {
        conversations_started: num(totals.started),
        conversations_closed: num(totals.closed),
        messages_in: num(totals.messages_in),
        messages_out: num(totals.messages_out),
        bot_handled: num(totals.bot_handled),
        human_handled: num(totals.human_handled),
        first_response: durations(totals.frt_median, totals.frt_p90, totals.frt_count),
        resolution: durations(totals.res_median, totals.res_p90, totals.res_count),
      },
      daily,
      agents,
      channels: channelFigures,
      heatmap,
      broadcasts,
      csat: { ...csatTotal, agents: csatAgents },
      assistant,
    };
  }

  // ---------- /dashboard ----------

  async dashboard(v: StatsViewer, tz: string): Promise<DashboardStats> {
    const nowDate = this.deps.clock.now();
    const today = dayIn(nowDate, tz);
    const own = v.scope === 'own';
    // Built once per scope (its dozen nested fragments cost more CPU to build than the rest of the request,
    // bench/data, issue #26), and a named statement: PostgreSQL's generic plan (kept once it costs no more than the
    // plans made for each call's values) runs it faster than a plan made per call, for the largest company and the
    // smallest, on a quiet day and the busiest, and planning it was most of the request (1.3-5 ms of a 6-10 ms median;
    // bench/data/README.md, session 46).
    const figures = preparedSql(this.db, `stats_dashboard:${v.scope}`, () => dashboardFigures(own));
    const figuresQuery = figures.execute({ companyId: v.companyId, userId: v.userId, email: v.email, today, tz });

    // The figures, the running broadcasts and the set-up steps in one statement, the channels' health beside it.
    const [[row], channelHealth] = await Promise.all([figuresQuery, this.channelHealth(v.companyId, nowDate)]);
    const running = (typeof row.running === 'string' ? JSON.parse(row.running) : row.running) as Record<string, unknown>[];
    const setup = setupOf(row);
    const running_broadcasts: RunningBroadcast[] = running.map((r) => {
      const nUsers = num(r.n_users);
      const done = num(r.sent_count) + num(r.failed_count) + num(r.unknown_count);
      return {
        id: num(r.id),
        name: String(r.name),
        status: String(r.status),
        n_users: nUsers,
        sent: num(r.sent_count),
        delivered: num(r.delivered_count),
        read: num(r.read_count),
        failed: num(r.failed_count),
        progress: nUsers > 0 ? Math.min(100, Math.round((done / nUsers) * 100)) : 0,
      };
    });

    return {
      scope: v.scope,
      today,
      open_conversations: num(row.open),
      unassigned_conversations: num(row.unassigned),
      messages_in_today: num(row.messages_in),
      messages_out_today: num(row.messages_out),
      first_response_today: durations(row.frt_median, row.frt_p90, row.frt_count),
      bot_conversations_today: num(row.bot_conversations),
      conversations_today: num(row.conversations),
      running_broadcasts,
      channels: channelHealth,
      setup,
    };
  }

  /** The getting-started steps the company has taken: one existence check each, on company-indexed columns. */
  async setup(companyId: number): Promise<DashboardSetup> {
    // conversation_answered: newest first along messages_company_created_idx, so bounded by the company's own
    // messages (with exists() the planner chose a sequential scan of the whole table for a busy company; bench/data).
    const [r] = await this.rows<Record<string, unknown>>(sql`select ${setupColumns(companyId)}`);
    return setupOf(r);
  }

  /** The company's channels (not disconnected by it) and what needs attention. */
  async channelHealth(companyId: number, now: Date): Promise<ChannelHealth[]> {
    const statement = prepared(this.db, 'stats_channel_health', (db, name) =>
      db
        // What the health and the messaging limit read (not the sealed token, nor the rest of the row).
        .select({
          id: channels.id,
          companyId: channels.companyId,
          externalId: channels.externalId,
          wabaId: channels.wabaId,
          settings: channels.settings,
          name: channels.name,
          platform: channels.platform,
          status: channels.status,
          signupStatus: channels.signupStatus,
        })
        .from(channels)
        .where(and(eq(channels.companyId, sql.placeholder('companyId')), ne(channels.status, 'disconnected')))
        .orderBy(channels.id)
        .limit(100)
        .prepare(name),
    );
    const rows = await statement.execute({ companyId });
    // The WhatsApp channels' messaging limit usages at the same time (one read each).
    const usages = new Map(rows.filter((ch) => ch.platform === 'whatsapp').map((ch) => [ch.id, this.deps.messagingLimits.usage(ch, now)] as const));
    await Promise.all(usages.values());
    const out: ChannelHealth[] = [];
    for (const ch of rows) {
      const reason: ChannelHealth['reason'] =
        ch.signupStatus === 'failed' ? 'signup_failed' : ch.signupStatus === 'partial_failure' ? 'signup_partial' : ch.status === 'pending' || ch.signupStatus === 'in_progress' ? 'pending' : null;
      let messaging_limit: ChannelHealth['messaging_limit'] = null;
      let near_limit = false;
      if (ch.platform === 'whatsapp') {
        const usage = await usages.get(ch.id)!;
        messaging_limit = { used: usage.used, limit: usage.limit };
        near_limit = usage.limit !== null && usage.used >= usage.limit * 0.8;
      }
      out.push({ id: ch.id, name: ch.name, platform: ch.platform, needs_attention: reason !== null, reason, messaging_limit, near_limit });
    }
    return out;
  }
}

/** The getting-started steps as columns of a select (see StatsService.setup); `companyId` a value or a placeholder. */
function setupColumns(companyId: unknown): SQL {
  // conversation_answered: newest first along messages_company_created_idx, so bounded by the company's own
  // messages (with exists() the planner chose a sequential scan of the whole table for a busy company; bench/data).
  return sql`
        exists (select 1 from channels c where c.company_id = ${companyId} and c.platform <> 'sandbox' and c.status = 'active') as channel_connected,
        coalesce((select true from messages m where m.company_id = ${companyId} and m.origin = 'agent' order by m.company_id desc, m.created_at desc limit 1), false) as conversation_answered,
        ((select count(*) from (select 1 from memberships ms where ms.company_id = ${companyId} limit 2) two) > 1
          or exists (select 1 from invites i where i.company_id = ${companyId})) as teammate_invited,
        exists (select 1 from whatsapp_templates w where w.company_id = ${companyId}) as template_created,
        exists (select 1 from broadcasts b where b.company_id = ${companyId} and b.status <> 'draft') as broadcast_sent,
        (exists (select 1 from bots bt where bt.company_id = ${companyId}) or exists (select 1 from flows f where f.company_id = ${companyId})) as bot_built`;
}

/** Who the rooms' scope is about: values, or placeholders of a prepared statement. */
interface ScopeOf {
  companyId: unknown;
  userId: unknown;
  email: unknown;
}

/** The rooms a viewer may count (alias r): the company's, for own scope only those assigned to or answered by the member. */
function roomScopeOf(own: boolean, who: ScopeOf, channelId: number | null): SQL {
  const channel = channelId === null ? sql`` : sql` and r.channel_id = ${channelId}`;
  if (!own) return sql`r.company_id = ${who.companyId}${channel}`;
  return sql`r.company_id = ${who.companyId}${channel} and (
      exists (select 1 from room_tags rt join tags t on t.id = rt.tag_id where rt.room_id = r.id and lower(t.name) = lower(${who.email}))
      or exists (select 1 from messages mine where mine.room_id = r.id and mine.sender_user_id = ${who.userId}))`;
}

/** The bounds of [from, to] (days in tz, both included) as timestamps; each a value or a placeholder. */
function boundsOf(from: unknown, to: unknown, tz: unknown): { lo: SQL; hi: SQL } {
  return {
    lo: sql`((${from}::date)::timestamp at time zone ${tz})`,
    hi: sql`(((${to}::date) + 1)::timestamp at time zone ${tz})`,
  };
}

/**
 * Broadcast messages the provider accepted in [lo, hi) (issue #25: they are messages out too), as rows of
 * (created_at, channel_id). They live in broadcast_recipients, not in rooms; none in own scope (a broadcast is
 * the company's, not one person's).
 */
function broadcastSendsOf(own: boolean, companyId: unknown, lo: SQL, hi: SQL, channelId: number | null): SQL {
  if (own) return sql`select null::timestamptz as created_at, null::integer as channel_id where false`;
  return sql`
      select br.sent_at as created_at, b.channel_id from broadcasts b join broadcast_recipients br on br.broadcast_id = b.id
      where b.company_id = ${companyId} and br.sent_at >= ${lo} and br.sent_at < ${hi}
        ${channelId === null ? sql`` : sql`and b.channel_id = ${channelId}`}`;
}

/**
 * "Today at a glance" in one statement: the figures, the running broadcasts and the set-up steps. Its values are
 * placeholders (companyId, userId, email, today, tz), so it is built once per scope.
 */
function dashboardFigures(own: boolean): SQL {
  const p = sql.placeholder;
  const who: ScopeOf = { companyId: p('companyId'), userId: p('userId'), email: p('email') };
  const { lo, hi } = boundsOf(p('today'), p('today'), p('tz'));
  const scope = roomScopeOf(own, who, null);
  const outByMe = own ? sql`m.sender_user_id = ${who.userId}` : sql`m.origin in ('agent', 'bot')`;
  const responderIsMe = own ? sql` and responder = ${who.userId}` : sql``;
  const companyRooms = sql`r.company_id = ${who.companyId}`;
  // The conversations the inbox counts as open (issue #22's status), so a figure and the list it opens agree: in
  // company scope both counts come from one read of the company's open rooms; in own scope, the member's open ones
  // and the company's unassigned ones.
  const openCounts = own
    ? sql`(select count(*) from rooms r where ${scope} and r.status = 'open') as open,
        (select count(*) from rooms r where ${companyRooms} and r.status = 'open' and r.assignee_user_id is null) as unassigned`
    : sql`open_rooms.open, open_rooms.unassigned`;
  const openRooms = own
    ? sql``
    : sql`, (select count(*) as open, count(*) filter (where r.assignee_user_id is null) as unassigned
          from rooms r where ${companyRooms} and r.status = 'open') open_rooms`;
  // Today's messages in the viewer's rooms: in company scope every message of the company (a message's company is its
  // room's), read without joining the company's rooms (a hash of every room, a third of the statement's time).
  const todaysMessages = own
    ? sql`select m.origin, m.sender_user_id from messages m join rooms r on r.id = m.room_id
        where m.company_id = ${who.companyId} and m.created_at >= ${lo} and m.created_at < ${hi} and ${scope}`
    : sql`select m.origin, m.sender_user_id from messages m
        where m.company_id = ${who.companyId} and m.created_at >= ${lo} and m.created_at < ${hi}`;
  return sql`
      with mm as (${todaysMessages}),
      bm as (${broadcastSendsOf(own, who.companyId, lo, hi, null)}),
      s as (
        select fu.created_at as first_in, fa.created_at as first_reply, fa.sender_user_id as responder
        from rooms r
        left join lateral (select m.id, m.created_at from messages m where m.room_id = r.id and m.origin = 'user' order by m.id limit 1) fu on true
        left join lateral (select m.created_at, m.sender_user_id from messages m where m.room_id = r.id and m.origin = 'agent' and m.id > fu.id order by m.id limit 1) fa on true
        where ${scope} and r.created_at >= ${lo} and r.created_at < ${hi}
      ),
      frt as (select extract(epoch from (first_reply - first_in)) as secs from s where first_reply is not null${responderIsMe}),
      active as (
        select exists (select 1 from messages b where b.room_id = r.id and b.origin = 'bot') as has_bot,
          exists (select 1 from messages a where a.room_id = r.id and a.origin = 'agent') as has_agent
        from rooms r where ${scope} and r.last_message_at >= ${lo} and r.last_message_at < ${hi}
      )
      select
        ${openCounts},
        (select count(*) from mm m where m.origin = 'user') as messages_in,
        (select count(*) from mm m where ${outByMe}) + (select count(*) from bm) as messages_out,
        (select percentile_cont(0.5) within group (order by secs) from frt) as frt_median,
        (select percentile_cont(0.9) within group (order by secs) from frt) as frt_p90,
        (select count(*) from frt) as frt_count,
        (select count(*) from active where has_bot and not has_agent) as bot_conversations,
        (select count(*) from active) as conversations,
        (select coalesce(json_agg(rb order by rb.started_at desc nulls last, rb.id desc), '[]'::json) from (
          select b.id, b.name, b.status, b.n_users, b.sent_count, b.delivered_count, b.read_count, b.failed_count, b.unknown_count, b.started_at
          from broadcasts b where b.company_id = ${who.companyId} and b.status in ('sending', 'waiting')
          order by b.started_at desc nulls last, b.id desc limit 20) rb) as running,
        ${setupColumns(who.companyId)}
      from (select 1) one${openRooms}`;
}

function setupOf(r: Record<string, unknown>): DashboardSetup {
  const yes = (x: unknown) => x === true || x === 't' || x === 'true';
  return {
    channel_connected: yes(r.channel_connected),
    conversation_answered: yes(r.conversation_answered),
    teammate_invited: yes(r.teammate_invited),
    template_created: yes(r.template_created),
    broadcast_sent: yes(r.broadcast_sent),
    bot_built: yes(r.bot_built),
  };
}

/** One row per day of [from, to] with the day's figures (zeros where nothing happened). */
function fillDays(from: string, to: string, rows: { day: string; kind: string; n: unknown }[]): DailyFigures[] {
  const byDay = new Map<string, DailyFigures>();
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = start; t <= end; t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    byDay.set(date, { date, started: 0, closed: 0, messages_in: 0, messages_out: 0 });
  }
  for (const r of rows) {
    const d = byDay.get(r.day);
    if (!d) continue;
    const n = num(r.n);
    if (r.kind === 'started') d.started += n;
    else if (r.kind === 'closed') d.closed += n;
    else if (r.kind === 'in') d.messages_in += n;
    else d.messages_out += n;
  }
  return [...byDay.values()];
}
