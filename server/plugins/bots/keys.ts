/**
 * The bot-service key of a company (spec §3 Bot integration: endpoint, access_key). One key per
 * company, created on the first GET /api/bots/integration/, rotated by an admin. Stored as its
 * SHA-256 (the lookup: a key is 256 random bits, so a plain hash is enough) and sealed with the
 * secret box (server/core/crypto/secretBox.ts) so the console can be given it again.
 */
import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { BotIntegrationInfo } from '../../../contract/bots';
import type { Clock } from '../../core/clock';
import type { SecretBox } from '../../core/crypto/secretBox';
import type { Database } from '../../core/db/client';
import { prepared } from '../../core/db/prepared';
import { companies } from '../../core/db/schema';
import type { CompanyRow } from '../../core/fastifyTypes';
import { botIntegrations } from './schema';

export const BOT_KEY_PREFIX = 'bk_';
const KEY_PREFIX_SHOWN = 8;

export function hashBotKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function newBotKey(): string {
  return `${BOT_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export interface BotKeyDeps {
  db: Database;
  box: SecretBox;
  clock: Clock;
  /** The bot service's path on this server (config.botService.base, e.g. `/bot-service`). */
  base: string;
}

export class BotKeyService {
  constructor(private readonly deps: BotKeyDeps) {}

  /**
   * The bot service's URL as seen by the caller: its own origin (the console calls it from the page it
   * was served by, which CSP's connect-src 'self' requires) plus the base.
   */
  endpointFor(origin: string): string {
    return `${origin.replace(/\/+$/, '')}${this.deps.base === '/' ? '' : this.deps.base}`;
  }

  /** The company of a key, or null (unknown or rotated away). Runs before anything of the company is read. */
  async resolve(key: string): Promise<CompanyRow | null> {
    if (typeof key !== 'string' || key.length < 8 || key.length > 200) return null;
    // Prepared once: every bot-service call starts here (bench/data, issue #26).
    const statement = prepared(this.deps.db, 'bot_key_company', (db, name) =>
      db
        .select({ company: companies })
        .from(botIntegrations)
        .innerJoin(companies, eq(companies.id, botIntegrations.companyId))
        .where(eq(botIntegrations.keyHash, sql.placeholder('keyHash')))
        .limit(1)
        .prepare(name),
    );
    const rows = await statement.execute({ keyHash: hashBotKey(key) });
    return rows[0]?.company ?? null;
  }

  /** The company's key, created on first use (two concurrent first calls end with the same key). */
  async getOrCreate(companyId: number): Promise<string> {
    const existing = await this.row(companyId);
    if (existing) return this.deps.box.open(existing.keyEnc);
    const key = newBotKey();
    await this.deps.db
      .insert(botIntegrations)
      .values({ companyId, keyHash: hashBotKey(key), keyEnc: this.deps.box.seal(key), keyPrefix: key.slice(0, KEY_PREFIX_SHOWN), createdAt: this.deps.clock.now() })
      .onConflictDoNothing({ target: botIntegrations.companyId });
    const row = await this.row(companyId);
    return this.deps.box.open(row!.keyEnc);
  }

  /** A new key; the old one stops working at once. */
  async rotate(companyId: number): Promise<string> {
    await this.getOrCreate(companyId);
    const key = newBotKey();
    await this.deps.db
      .update(botIntegrations)
      .set({ keyHash: hashBotKey(key), keyEnc: this.deps.box.seal(key), keyPrefix: key.slice(0, KEY_PREFIX_SHOWN), rotatedAt: this.deps.clock.now() })
      .where(eq(botIntegrations.companyId, companyId));
    return key;
  }

  /** Stores a given key for a company (tests and the demo seed: a known key). */
  async install(companyId: number, key: string): Promise<void> {
    const values = { keyHash: hashBotKey(key), keyEnc: this.deps.box.seal(key), keyPrefix: key.slice(0, KEY_PREFIX_SHOWN) };
    await this.deps.db
      .insert(botIntegrations)
      .values({ companyId, ...values })
      .onConflictDoUpdate({ target: botIntegrations.companyId, set: values });
  }

  async list(companyId: number, origin: string): Promise<BotIntegrationInfo[]> {
    const row = await this.row(companyId);
    if (!row) return [];
    return [{ id: row.id, endpoint: this.endpointFor(origin), key_prefix: row.keyPrefix, created_at: row.createdAt.toISOString(), rotated_at: row.rotatedAt?.toISOString() ?? null }];
  }

  private async row(companyId: number) {
    const rows = await this.deps.db.select().from(botIntegrations).where(eq(botIntegrations.companyId, companyId)).limit(1);
    return rows[0];
  }
}
