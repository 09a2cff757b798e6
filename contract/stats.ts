/**
 * Dashboard figures and /stats (issue #14; spec §2 /dashboard, /stats; feature keys dashboard,
 * stats, broadcast_engagement). Shared by the server (server/plugins/stats) and the console
 * (src/plugins/stats, src/plugins/dashboard).
 *
 * Vocabulary (what the figures count; every figure is computed by SQL on the server):
 * - A conversation is a room (one customer on one channel). It is *started* when the room is
 *   created (the customer's first message). It counts as *closed* once 24 hours have passed
 *   without any message (WhatsApp's customer-service window), closed at its last message; until
 *   then it is *open*. Blocked rooms are never open.
 * - *Assigned*: the room carries an agent tag (a tag named like an e-mail address, spec §5);
 *   *unassigned* otherwise.
 * - The dashboard's *open* and *unassigned* conversations are the inbox's (issue #22): rooms whose status is open,
 *   and of those the ones without an assignee (assigning keeps the agent tag in step), so a figure and the inbox
 *   it opens show the same number. The 24-hour *open* above is the reports' (/stats: started, closed, resolution).
 * - Messages *in*: the customer's (origin user); *out*: the team's and the bots' (origin agent, bot).
 * - *First response time*: from the customer's first message to the first agent (human) message
 *   after it; attributed to the agent who sent it. *Resolution time*: from the start of a closed
 *   conversation to its last message.
 * - *Bot-handled*: a conversation the bot answered and no agent did; *human-handled*: an agent answered.
 * - Scope: a member with manage access to stats (admins, managers by default) sees the company's
 *   figures; any other member (agents) sees only their own: the conversations assigned to them or
 *   that they answered, the messages they sent, their own response times, no broadcasts.
 *
 * Routes (under the `Company` header's company):
 *   GET /api/stats/dashboard/?tz=           DashboardStats (access: dashboard view)
 *   GET /api/stats/?from=&to=&tz=&channel=  StatsReport (access: stats view); from/to are days (YYYY-MM-DD) in tz, both included
 */
import { z } from 'zod';
import type { AgentCsat, CsatFigures } from './csat';

/** The widest range /stats answers, in days. */
export const MAX_RANGE_DAYS = 366;

export const STATS_MESSAGES = {
  invalidDate: 'Enter a valid date (YYYY-MM-DD).',
  invalidRange: 'The start date must be on or before the end date.',
  rangeTooLong: `Choose a range of at most ${MAX_RANGE_DAYS} days.`,
  invalidTimeZone: 'Unknown time zone.',
  invalidChannel: 'Unknown channel.',
} as const;

/** Zones already found valid: building a formatter to find out costs more than the rest of a dashboard request's checks. */
const knownTimeZones = new Set<string>();

/** Whether the runtime knows this IANA time zone. */
export function isTimeZone(value: string): boolean {
  if (knownTimeZones.has(value)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    return false;
  }
  // Bounded by what the runtime knows (a few hundred zones, and their aliases); an unknown name is never kept.
  knownTimeZones.add(value);
  return true;
}

const timeZone = z
  .string()
  .max(64)
  .refine((v) => isTimeZone(v), STATS_MESSAGES.invalidTimeZone)
  .optional()
  .default('UTC');

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, STATS_MESSAGES.invalidDate)
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, STATS_MESSAGES.invalidDate);

export const DashboardQuery = z.object({ tz: timeZone });
export type DashboardQuery = z.infer<typeof DashboardQuery>;

export const StatsQuery = z
  .object({
    from: day,
    to: day,
    tz: timeZone,
    /** A channel id of the company; absent: every channel. */
    channel: z
      .string()
      .regex(/^\d{1,9}$/, STATS_MESSAGES.invalidChannel)
      .optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: STATS_MESSAGES.invalidRange });
      return;
    }
    const days = (Date.parse(`${q.to}T00:00:00Z`) - Date.parse(`${q.from}T00:00:00Z`)) / 86_400_000 + 1;
    if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: STATS_MESSAGES.rangeTooLong });
  });
export type StatsQuery = z.infer<typeof StatsQuery>;

export type StatsScope = 'company' | 'own';

/** Median and 90th percentile, in seconds; null when nothing was measured. */
export interface Durations {
  median: number | null;
  p90: number | null;
  /** How many conversations were measured. */
  count: number;
}

export interface RunningBroadcast {
  id: number;
  name: string;
  status: string;
  n_users: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  /** Recipients done (sent, failed or unknown) out of n_users, 0–100. */
  progress: number;
}

export interface ChannelHealth {
  id: number;
  name: string;
  platform: string;
  /** The channel needs someone: disconnected, signup failed or partly failed, or still pending. */
  needs_attention: boolean;
  /** Why, in words (English; the console translates the known reasons by code). */
  reason: 'disconnected' | 'signup_failed' | 'signup_partial' | 'pending' | null;
  /** WhatsApp: unique business-initiated recipients in the last 24 h against the tier's limit (null limit: unlimited). */
  messaging_limit: { used: number; limit: number | null } | null;
  /** 80 % or more of the messaging limit used. */
  near_limit: boolean;
}

/** GET /api/stats/dashboard/: today (in tz) at a glance. */
export interface DashboardStats {
  scope: StatsScope;
  /** Today's date in tz (YYYY-MM-DD). */
  today: string;
  open_conversations: number;
  unassigned_conversations: number;
  messages_in_today: number;
  messages_out_today: number;
  /** Conversations started today, first response time median (seconds; null: none answered yet). */
  first_response_today: Durations;
  /** Conversations with a message today: handled by the bot alone / all of them. */
  bot_conversations_today: number;
  conversations_today: number;
  running_broadcasts: RunningBroadcast[];
  channels: ChannelHealth[];
  /** The company's first steps, done or not (the dashboard's getting-started card; company-wide for every viewer). */
  setup: DashboardSetup;
}

/** Whether the company has taken each getting-started step (existence checks, company-wide). */
export interface DashboardSetup {
  /** A channel other than the built-in sandbox is connected (active). */
  channel_connected: boolean;
  /** The team answered a customer (an agent message exists). */
  conversation_answered: boolean;
  /** A second member joined or someone was invited. */
  teammate_invited: boolean;
  /** A WhatsApp message template exists. */
  template_created: boolean;
  /** A broadcast left the draft stage (scheduled, sent or being sent). */
  broadcast_sent: boolean;
  /** A bot or a flow exists. */
  bot_built: boolean;
}

export interface AgentFigures {
  user_id: number;
  name: string;
  email: string;
  first_response: Durations;
  resolution: Durations;
  messages_out: number;
}

export interface DailyFigures {
  date: string;
  started: number;
  closed: number;
  messages_in: number;
  messages_out: number;
}

export interface ChannelFigures {
  channel_id: number;
  name: string;
  platform: string;
  started: number;
  messages_in: number;
  messages_out: number;
}

export interface HeatCell {
  /** ISO weekday: 1 Monday … 7 Sunday (in tz). */
  weekday: number;
  /** 0–23 (in tz). */
  hour: number;
  /** Customer messages received. */
  messages: number;
}

export interface BroadcastFunnel {
  id: number;
  name: string;
  created_at: string;
  status: string;
  n_users: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
}

/** GET /api/stats/. */
export interface StatsReport {
  scope: StatsScope;
  from: string;
  to: string;
  tz: string;
  channel_id: number | null;
  totals: {
    conversations_started: number;
    conversations_closed: number;
    messages_in: number;
    messages_out: number;
    bot_handled: number;
    human_handled: number;
    first_response: Durations;
    resolution: Durations;
  };
  daily: DailyFigures[];
  agents: AgentFigures[];
  channels: ChannelFigures[];
  heatmap: HeatCell[];
  /** Broadcasts created in the range (company scope only; [] for own scope). */
  broadcasts: BroadcastFunnel[];
  /** CSAT ratings received in the range (contract/csat.ts): the score, and per agent (assignee when resolved; own scope: the viewer's). */
  csat: CsatFigures & { agents: AgentCsat[] };
  /** The assistant on the channels in the range (issue #24; company scope only, null for own scope). */
  assistant: AssistantFigures | null;
}

/** What the assistant did with customers' questions, and the ones it most often could not answer. */
export interface AssistantFigures {
  questions: number;
  answered: number;
  /** Asked to rephrase (the model's answer cited nothing, or the model failed). */
  rephrased: number;
  handovers: number;
  /** answered / questions, as a percentage with one decimal (null without questions). */
  answer_rate: number | null;
  /** The questions left without an answer, most asked first (at most 10; the same words, case and spaces aside). */
  unanswered: { question: string; count: number; last_asked: string }[];
}

/** Seconds as a short duration: 45 s, 12 min, 1 h 40 min, 2 d 3 h. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

