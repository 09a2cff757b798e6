/**
 * Broadcast statuses as the console shows them (contract/broadcasts BROADCAST_STATUSES): a chip
 * colour, what can be done in each, and how a live event merges with a loaded record.
 */
import {
  ACTIVE_BROADCAST_STATUSES,
  BROADCAST_REPLY_WINDOW_MS,
  EMPTY_STATS,
  FINAL_BROADCAST_STATUSES,
  type BroadcastStats,
  type BroadcastStatus,
} from '../../../../contract/broadcasts';

/**
 * A live update on `page:{page_id}`. The contract's event (BROADCAST_EVENT, `id`) and the engine's
 * progress event (`broadcast_progress`, `broadcast_id`) are both understood.
 */
export interface BroadcastLiveEvent {
  id?: number;
  broadcast_id?: number;
  page_id?: number;
  status: BroadcastStatus | string;
  status_reason?: string | null;
  stats?: Partial<BroadcastStats>;
  n_users?: number;
  /** 0–1 (contract), or 0–100. */
  progress?: number | null;
  deleted?: boolean;
}

export { LIVE_EVENTS } from './liveEvents';

type ChipColor = 'default' | 'primary' | 'secondary' | 'error' | 'info' | 'success' | 'warning';

export const isSending = (status: string) => status === 'sending';
export const isFinal = (status: string) => (FINAL_BROADCAST_STATUSES as readonly string[]).includes(status);
/**
 * The counters can still change: unfinished, or ended less than the reply window ago (delivered, read and
 * replied keep arriving after the last send).
 */
export function countersMayMove(broadcast: { status: string; completed_at?: string | null; cancelled_at?: string | null }, now = Date.now()): boolean {
  if (!isFinal(broadcast.status)) return true;
  const ended = Date.parse(broadcast.completed_at ?? broadcast.cancelled_at ?? '');
  return Number.isFinite(ended) && now - ended < BROADCAST_REPLY_WINDOW_MS;
}
/** Scheduled, waiting, sending or paused: deleting it cancels it first. */
export const isRunning = (status: string) => (ACTIVE_BROADCAST_STATUSES as readonly string[]).includes(status) || status === 'paused';
export const canPause = (status: string) => (ACTIVE_BROADCAST_STATUSES as readonly string[]).includes(status);
export const canResume = (status: string) => status === 'paused';
export const canCancel = (status: string) => isRunning(status);

export function statusColor(status: string): ChipColor {
  switch (status) {
    case 'sending':
      return 'info';
    case 'waiting':
    case 'paused':
      return 'warning';
    case 'scheduled':
      return 'secondary';
    case 'completed':
      return 'success';
    case 'failed':
      return 'error';
    default:
      return 'default';
  }
}

/** Progress in percent (0–100); the contract sends a fraction (0–1). */
export function progressPercent(progress: number | null | undefined, nUsers = 0, stats?: Partial<BroadcastStats>): number {
  if (typeof progress === 'number' && Number.isFinite(progress)) {
    const percent = progress <= 1 ? progress * 100 : progress;
    return Math.max(0, Math.min(100, percent));
  }
  if (!nUsers) return 0;
  return Math.max(0, Math.min(100, ((nUsers - (stats?.queued ?? nUsers)) / nUsers) * 100));
}

export interface LiveFields {
  status: string;
  status_reason: string | null;
  stats: BroadcastStats;
  n_users: number;
  progress: number;
}

interface RecordFields {
  status: string;
  status_reason?: string | null;
  stats?: Partial<BroadcastStats> | null;
  n_users?: number | null;
  progress?: number | null;
}

/**
 * A record's figures with the last live event laid over them: the live status, and for each
 * counter the larger of the two (counters only grow along the funnel). A record that reached its
 * end after the last event keeps its final status.
 */
export function mergeLive(record: RecordFields, live: BroadcastLiveEvent | undefined): LiveFields {
  const stats: BroadcastStats = { ...EMPTY_STATS, ...(record.stats ?? {}) };
  const base: LiveFields = {
    status: record.status,
    status_reason: record.status_reason ?? null,
    stats,
    n_users: record.n_users ?? 0,
    progress: progressPercent(record.progress, record.n_users ?? 0, stats),
  };
  if (!live) return base;
  const merged = { ...stats };
  for (const key of Object.keys(EMPTY_STATS) as (keyof BroadcastStats)[]) {
    if (key === 'queued') merged.queued = live.stats?.queued ?? stats.queued;
    else merged[key] = Math.max(stats[key], live.stats?.[key] ?? 0);
  }
  const keepRecord = isFinal(record.status) && !isFinal(String(live.status));
  const nUsers = live.n_users || base.n_users;
  return {
    status: keepRecord ? record.status : String(live.status),
    status_reason: keepRecord ? base.status_reason : (live.status_reason ?? null),
    stats: merged,
    n_users: nUsers,
    progress: keepRecord ? base.progress : progressPercent(live.progress, nUsers, merged),
  };
}
