/** Test helpers: an in-memory hub that records broadcasts and lets a test join topics and push events as a socket would. */
import { randomUUID } from 'node:crypto';
import { defaultPermissions, type PermissionMap, type RoleId } from '../../../contract/permissions';
import type { ChannelContext, ChannelHandler, RealtimeHub, Reply, SocketIdentity } from '../../core/realtime/types';
import { checkTopicAccess, type TopicAccessRule } from '../../core/access/topics';

export interface Broadcast {
  topic: string;
  event: string;
  payload: any;
}

export interface FakeSocket extends ChannelContext {
  pushed: { event: string; payload: any }[];
  push(event: string, payload: unknown): void;
}

export class FakeHub implements RealtimeHub {
  readonly handlers = new Map<string, ChannelHandler>();
  readonly rules = new Map<string, TopicAccessRule>();
  readonly broadcasts: Broadcast[] = [];
  readonly presence: { topic: string; key: string; meta: Record<string, unknown> }[] = [];
  private readonly tracked = new Map<ChannelContext, { topic: string; key: string; meta: Record<string, unknown> }[]>();

  registerChannel(prefix: string, access: TopicAccessRule, handler: ChannelHandler): void {
    if (this.handlers.has(prefix)) throw new Error(`duplicate prefix ${prefix}`);
    this.handlers.set(prefix, handler);
    this.rules.set(prefix, access);
  }
  topicAccess(): { prefix: string; access: TopicAccessRule }[] {
    return [...this.rules].map(([prefix, access]) => ({ prefix, access }));
  }
  async broadcast(topic: string, event: string, payload: unknown): Promise<void> {
    this.broadcasts.push({ topic, event, payload: JSON.parse(JSON.stringify(payload)) });
  }
  trackPresence(ctx: ChannelContext, key: string, meta: Record<string, unknown>): void {
    const entry = { topic: ctx.topic, key, meta };
    this.presence.push(entry);
    this.tracked.set(ctx, [...(this.tracked.get(ctx) ?? []), entry]);
  }
  untrackPresence(ctx: ChannelContext): void {
    const tracked = this.tracked.get(ctx) ?? [];
    this.tracked.delete(ctx);
    for (const entry of tracked) this.presence.splice(this.presence.indexOf(entry), 1);
  }
  async listPresence(topic: string): Promise<Record<string, { metas: Record<string, unknown>[] }>> {
    const state: Record<string, { metas: Record<string, unknown>[] }> = {};
    for (const entry of this.presence) if (entry.topic === topic) (state[entry.key] ??= { metas: [] }).metas.push(entry.meta);
    return state;
  }
  socketCount(): number {
    return 0;
  }
  async disconnect(): Promise<void> {}

  private handler(topic: string): ChannelHandler {
    const handler = this.handlers.get(topic.split(':')[0]);
    if (!handler) throw new Error(`no handler for ${topic}`);
    return handler;
  }

  /** Joins a topic; returns the reply (JSON round-tripped like the wire) and the channel context. */
  async join(identity: SocketIdentity, topic: string, payload: unknown = {}): Promise<{ reply: { status: string; response: any }; ctx: FakeSocket }> {
    const pushed: FakeSocket['pushed'] = [];
    const ctx: FakeSocket = { topic, identity, assigns: {}, pushed, push: (event, p) => pushed.push({ event, payload: p }) };
    // Like the real hub: the prefix's declared rule first, then the handler.
    const verdict = await checkTopicAccess(this.rules.get(topic.split(':')[0])!, topic, identity);
    const reply = verdict.ok ? await this.handler(topic).join(topic, payload, ctx) : { status: 'error', response: { reason: verdict.reason } };
    return { reply: JSON.parse(JSON.stringify(reply)), ctx };
  }

  async push(ctx: FakeSocket, event: string, payload: unknown): Promise<{ status: string; response: any }> {
    const reply = (await this.handler(ctx.topic).handleIn!(event, payload, ctx)) as Reply;
    return JSON.parse(JSON.stringify(reply));
  }

  /** Broadcasts recorded since `from`, optionally of one topic/event. */
  since(from: number, filter: { topic?: string; event?: string } = {}): Broadcast[] {
    return this.broadcasts.slice(from).filter((b) => (!filter.topic || b.topic === filter.topic) && (!filter.event || b.event === filter.event));
  }

  clear(): void {
    this.broadcasts.length = 0;
    this.presence.length = 0;
  }
}

export function identityFor(input: { userId: number; email: string; companyId: number; role: RoleId; firstName?: string; permissions?: PermissionMap }): SocketIdentity {
  return {
    socketId: randomUUID(),
    userId: input.userId,
    email: input.email,
    firstName: input.firstName ?? 'Test',
    companyId: input.companyId,
    role: input.role,
    permissions: input.permissions ?? defaultPermissions(input.role),
  };
}
