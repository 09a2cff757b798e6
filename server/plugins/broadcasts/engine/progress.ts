/**
 * Live progress to the consoles: `broadcast_progress` (what the console listens to) and the
 * contract's BROADCAST_EVENT, on the company-scoped topic `page:{channelId}`, at most once per
 * `intervalMs` per broadcast (changes in between are coalesced: the latest counters are read
 * from the database when the event goes out, so the last event always shows the final state).
 */
import { eq } from 'drizzle-orm';
import { BROADCAST_EVENT, broadcastProgress, type BroadcastEvent, type BroadcastStats } from '../../../../contract/broadcasts';
import type { Database } from '../../../core/db/client';
import type { RealtimeHub } from '../../../core/realtime/types';
import { broadcasts } from '../schema';

export const PROGRESS_EVENT = 'broadcast_progress';

export type ProgressPayload = BroadcastEvent & { broadcast_id: number };

type Row = typeof broadcasts.$inferSelect;

export function statsOf(row: Row): BroadcastStats {
  return {
    sent: row.sentCount,
    delivered: row.deliveredCount,
    read: row.readCount,
    replied: row.repliedCount,
    failed: row.failedCount,
    queued: row.queuedCount,
    unknown: row.unknownCount,
    excluded: row.excludedCount,
  };
}

export function progressPayload(row: Row): ProgressPayload {
  const stats = statsOf(row);
  return {
    broadcast_id: row.id,
    id: row.id,
    page_id: row.channelId,
    status: row.status,
    status_reason: row.statusReason,
    n_users: row.nUsers,
    stats,
    progress: broadcastProgress(row.nUsers, stats),
  };
}

export class ProgressPublisher {
  private readonly last = new Map<number, number>();
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private closed = false;
  /** Tests: events go here instead of the app's hub. */
  hubOverride: Pick<RealtimeHub, 'broadcast'> | null = null;

  constructor(
    private readonly db: Database,
    private readonly hub: () => Pick<RealtimeHub, 'broadcast'>,
    private readonly log: { warn(obj: object, msg: string): void },
    readonly intervalMs = 250,
  ) {}

  /** A broadcast changed: its event goes out now, or when its interval is over. */
  changed(broadcastId: number): void {
    if (this.closed || this.timers.has(broadcastId)) return;
    const wait = Math.max(0, (this.last.get(broadcastId) ?? 0) + this.intervalMs - Date.now());
    const timer = setTimeout(() => {
      this.timers.delete(broadcastId);
      this.last.set(broadcastId, Date.now());
      void this.publish(broadcastId).catch((err) => this.log.warn({ err, broadcastId }, 'broadcasts: progress event'));
    }, wait);
    timer.unref?.();
    this.timers.set(broadcastId, timer);
  }

  async publish(broadcastId: number): Promise<void> {
    const [row] = await this.db.select().from(broadcasts).where(eq(broadcasts.id, broadcastId));
    if (!row) return;
    const payload = progressPayload(row);
    const hub = this.hubOverride ?? this.hub();
    await hub.broadcast(`page:${row.channelId}`, PROGRESS_EVENT, payload);
    await hub.broadcast(`page:${row.channelId}`, BROADCAST_EVENT, payload);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
