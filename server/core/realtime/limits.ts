/**
 * Connect and join limits of the socket, counted by the app's RateLimiter: with Redis every process
 * counts together (a client cannot multiply its budget by reaching several processes) and a restart
 * does not forget. The per-socket token bucket (rateLimit.ts) stays in the socket: it is flow control
 * of one connection, checked on every frame, which a shared store would only slow down.
 *
 * The figures leave room for the legitimate bursts: an office behind one address reconnecting all its
 * agents after a deploy, a user with many tabs, an agent clicking through conversations.
 */
import type { RateLimiter, RateRule } from '../auth/rateLimiter';

export const SOCKET_LIMITS = {
  /** New sockets (websocket upgrades, long-poll opens) per client address, before authentication. */
  connectPerClient: { limit: 300, windowSeconds: 60 },
  /** New sockets per signed-in user. */
  connectPerUser: { limit: 60, windowSeconds: 60 },
  /** Channel joins per user, over all their sockets. */
  joinPerUser: { limit: 600, windowSeconds: 60 },
} as const satisfies Record<string, RateRule>;

/** 0 = allowed, else the seconds to wait. */
export type Wait = number;

export class SocketLimits {
  constructor(private readonly limiter: () => RateLimiter) {}

  private async take(key: string, rule: RateRule): Promise<Wait> {
    const status = await this.limiter().hit(key, rule);
    return status.limited ? status.retryAfterSeconds : 0;
  }

  /** A connection attempt from this client address (request.ip: the proxy's client with TRUST_PROXY). */
  connectFromClient(ip: string): Promise<Wait> {
    return this.take(`socket:connect:client:${ip}`, SOCKET_LIMITS.connectPerClient);
  }

  /** An authenticated connection of this user. */
  connectAsUser(userId: number): Promise<Wait> {
    return this.take(`socket:connect:user:${userId}`, SOCKET_LIMITS.connectPerUser);
  }

  join(userId: number): Promise<Wait> {
    return this.take(`socket:join:user:${userId}`, SOCKET_LIMITS.joinPerUser);
  }
}
