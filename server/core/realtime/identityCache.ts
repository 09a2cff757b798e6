/**
 * The connect-time identity cache of one hub: which sessions are open (session id → user) and who
 * a user is in a company (user, membership, role, permissions), each kept for a short TTL, so a
 * reconnect storm (a process restart, a network blip, many tabs) does not read the session, the
 * user and the membership from the database for every socket. Only positive answers are kept: a
 * refused connect always asks the database again.
 *
 * Correctness rests on explicit invalidation (PhoenixHub.disconnect, on every process through the
 * fan-out) rather than on the TTL:
 * - `invalidateSessions` / `invalidateMember` drop the entries and remember the invalidation
 *   with a revision number;
 * - a lookup notes the revision before it reads the database (`begin`); what it read is only
 *   stored if nothing it depends on was invalidated meanwhile, and `isStale` tells the transport
 *   to refuse a socket whose admission raced an invalidation (read before the revocation was
 *   committed, registered after the hub closed that identity's sockets).
 * The TTL bounds what an invalidation that never arrives (e.g. a change made directly in the
 * database) can leave behind.
 */
import type { PermissionMap, RoleId } from '../../../contract/permissions';

/** How long a looked-up session or membership is reused by later connects. */
export const IDENTITY_CACHE_TTL_MS = 10_000;
/** Entries per map; beyond it the oldest are dropped (a cache miss only costs the lookup). */
export const IDENTITY_CACHE_MAX_ENTRIES = 20_000;
/** How long an invalidation is remembered to refuse connects admitted before it (far longer than a lookup takes). */
const INVALIDATION_MEMORY_MS = 60_000;

/** Who a user is in one company, as a socket identity needs it (without the socket id). */
export interface MemberIdentity {
  userId: number;
  email: string;
  firstName: string;
  companyId: number;
  role: RoleId;
  permissions: PermissionMap;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

const sessionKey = (sessionId: string) => `s:${sessionId}`;
const memberKey = (userId: number, companyId: number) => `m:${userId}:${companyId}`;

export class ConnectIdentityCache {
  private revision = 0;
  /** Lookups that began before this revision count as stale (their invalidation was forgotten). */
  private floor = 0;
  private readonly sessions = new Map<string, Entry<number>>();
  private readonly members = new Map<string, Entry<MemberIdentity>>();
  /** key → revision of its last invalidation, oldest first. */
  private readonly invalidated = new Map<string, { revision: number; at: number }>();

  constructor(
    private ttlMs = IDENTITY_CACHE_TTL_MS,
    private readonly maxEntries = IDENTITY_CACHE_MAX_ENTRIES,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Call before reading the database; pass the result to remember*() and isStale(). */
  begin(): number {
    return this.revision;
  }

  /** True when the session is known open for this user. */
  hasSession(sessionId: string, userId: number): boolean {
    return this.read(this.sessions, sessionKey(sessionId)) === userId;
  }

  rememberSession(sessionId: string, userId: number, since: number): void {
    if (this.changedSince(since, sessionKey(sessionId))) return;
    this.write(this.sessions, sessionKey(sessionId), userId);
  }

  member(userId: number, companyId: number): MemberIdentity | undefined {
    return this.read(this.members, memberKey(userId, companyId));
  }

  rememberMember(identity: MemberIdentity, since: number): void {
    const key = memberKey(identity.userId, identity.companyId);
    if (this.changedSince(since, key)) return;
    this.write(this.members, key, identity);
  }

  invalidateSessions(sessionIds: Iterable<string>): void {
    for (const id of sessionIds) this.invalidate(this.sessions, sessionKey(id));
  }

  invalidateMember(userId: number, companyId: number): void {
    this.invalidate(this.members, memberKey(userId, companyId));
  }

  /** True when the session or the membership a connect was admitted with was invalidated after `since`. */
  isStale(since: number, sessionId: string, userId: number, companyId: number): boolean {
    return this.changedSince(since, sessionKey(sessionId)) || this.changedSince(since, memberKey(userId, companyId));
  }

  /** Forgets every entry and sets the TTL (0: off); invalidations are still remembered. For the benchmark. */
  reset(ttlMs = this.ttlMs): void {
    this.ttlMs = ttlMs;
    this.sessions.clear();
    this.members.clear();
  }

  /** Entries currently held (tests, metrics). */
  size(): { sessions: number; members: number } {
    return { sessions: this.sessions.size, members: this.members.size };
  }

  private read<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  private write<T>(map: Map<string, Entry<T>>, key: string, value: T): void {
    if (this.ttlMs <= 0) return;
    map.delete(key); // re-inserted last: the map stays in insertion (≈ expiry) order
    map.set(key, { value, expiresAt: this.now() + this.ttlMs });
    while (map.size > this.maxEntries) map.delete(map.keys().next().value!);
  }

  private invalidate<T>(map: Map<string, Entry<T>>, key: string): void {
    map.delete(key);
    const at = this.now();
    this.revision += 1;
    this.invalidated.delete(key);
    this.invalidated.set(key, { revision: this.revision, at });
    for (const [oldKey, mark] of this.invalidated) {
      if (at - mark.at < INVALIDATION_MEMORY_MS) break;
      this.invalidated.delete(oldKey);
      this.floor = Math.max(this.floor, mark.revision);
    }
  }

  private changedSince(since: number, key: string): boolean {
    if (since < this.floor) return true;
    const mark = this.invalidated.get(key);
    return mark !== undefined && mark.revision > since;
  }
}
