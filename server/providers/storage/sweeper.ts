/**
 * Deletes uploads nobody references, without a table of its own: a chat attachment is uploaded
 * through a presigned URL (key `chats/<company>/<random>/<name>`) before its message is sent, and may
 * never be sent (media received from Meta, `chats/<company>/inbound/…`, is judged the same way); an avatar (`avatars/<user>/<random>.<ext>`) may outlive its replacement when the
 * delete failed. Objects older than the grace period (24 h, far beyond the 15-minute upload URL)
 * are deleted unless a row still names the chat key (the MediaReferences below: messages, flows and
 * their versions, bot steps, broadcasts all upload through the same presigned URL), or a user's
 * profile_avatar is the avatar key. Runs at start (a full pass) and then hourly over what aged past
 * the grace period since (the timer does not keep the process alive) and stops with the app. Needs a
 * storage that can list (MediaStorage.list); others are left alone.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Clock } from '../../core/clock';
import { BackgroundJob } from '../../core/jobs/backgroundJob';
import type { Database } from '../../core/db/client';
import { createServiceRef } from '../../core/plugins/refs';
import type { MediaStorage } from './types';

export const SWEEP_GRACE_MS = 24 * 3600_000;
/** Keys checked against the database per query. */
const BATCH = 500;

/** What the sweeper looks at: the key prefix and which of a batch of keys are still referenced. */
interface SweptKind {
  prefix: string;
  referenced(db: Database, keys: string[]): Promise<Set<string>>;
}

function valuesList(keys: string[]) {
  return sql.join(
    keys.map((key) => sql`(${key}::text)`),
    sql`, `,
  );
}

async function keysOf(db: Database, query: SQL): Promise<Set<string>> {
  const result = (await db.execute(query)) as unknown as { rows: { key: string }[] };
  return new Set(result.rows.map((row) => row.key));
}

/**
 * The chat key a stored URL names: `chats/<company>/…` after a slash, up to a query string or fragment
 * (a signed URL's `?exp=…&sig=…` or SigV4 query is ignored); NULL for anything else, which joins nothing.
 * The URL is the storage's URL of the key, whatever its origin (local `/media/…`, PUBLIC_URL, the bucket).
 */
export function chatKeyOf(url: Column | SQL): SQL {
  return sql`substring(${url} from '/(chats/[0-9]+/[^?#]+)')`;
}

/**
 * Which rows still use chat uploads. Every feature whose rows can hold a URL of an upload made through
 * GET /api/chats/presigned_url/ adds a fragment here from its plugin (the storage layer knows no plugin
 * table): a SELECT of one text column named `key`, the chat key each row names (chatKeyOf; NULL rows
 * are fine). The sweeper keeps a key any fragment yields. The template editor's header samples are not
 * referenced on purpose: the server hands their bytes to Meta at once and the template keeps Meta's handle.
 */
export class MediaReferences {
  private readonly fragments = new Map<string, SQL>();

  /** Adds (or, under the same name, replaces: a plugin registered again) the fragment of one kind of row. */
  add(name: string, fragment: SQL): void {
    this.fragments.set(name, fragment);
  }

  get names(): string[] {
    return [...this.fragments.keys()];
  }

  /** Of `keys`, those some fragment names: one query per batch, over the union of the fragments. */
  async referenced(db: Database, keys: string[]): Promise<Set<string>> {
    const union = sql.join(
      [...this.fragments.values()].map((fragment) => sql`(${fragment})`),
      sql` UNION ALL `,
    );
    return keysOf(db, sql`SELECT DISTINCT c.key FROM (VALUES ${valuesList(keys)}) AS c(key) JOIN (${union}) AS r(key) ON r.key = c.key`);
  }
}

/** The app's registry (built by server/core/app.ts, filled through coreExtensionPoints.mediaReferences): tests read it. */
export const mediaReferencesRef = createServiceRef<MediaReferences>({ id: 'core.mediaReferences' });

/** Chat attachments (and every other upload under `chats/<company>/`): referenced while a MediaReferences fragment names the key. */
function chatUploads(references: MediaReferences): SweptKind {
  return { prefix: 'chats/', referenced: (db, keys) => references.referenced(db, keys) };
}

/** Avatars: referenced while a user's profile_avatar is the key. */
const avatars: SweptKind = {
  prefix: 'avatars/',
  referenced: (db, keys) =>
    keysOf(db, sql`SELECT DISTINCT c.key FROM (VALUES ${valuesList(keys)}) AS c(key) JOIN users u ON u.profile_avatar = c.key`),
};

export interface SweepOptions {
  storage: MediaStorage;
  db: Database;
  /** The rows that keep chat uploads (mediaReferences(app)). */
  references: MediaReferences;
  clock: Clock;
  /** Objects younger than this are never deleted. */
  graceMs?: number;
  /** Only objects written at or after this are checked (the hourly sweeps look at what aged since the last one). */
  newerThan?: Date | null;
  log?: FastifyBaseLogger;
}

export interface SweepResult {
  /** Objects written before this were considered. */
  olderThan: Date;
  /** Old objects checked against the database. */
  checked: number;
  deleted: string[];
}

/** One sweep over chat uploads and avatars. */
export async function sweepUnreferencedMedia({ storage, db, references, clock, graceMs = SWEEP_GRACE_MS, newerThan = null, log }: SweepOptions): Promise<SweepResult> {
  const olderThan = new Date(clock.now().getTime() - graceMs);
  const result: SweepResult = { olderThan, checked: 0, deleted: [] };
  if (!storage.list) return result;

  const kinds: SweptKind[] = [avatars];
  // With no fragment at all (the chats plugin not registered) every chat upload would look unused: leave them alone.
  if (references.names.length) kinds.unshift(chatUploads(references));
  else log?.warn('media sweeper: no media references registered, chat uploads are not swept');
  for (const kind of kinds) {
    let batch: string[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const keys = batch;
      batch = [];
      result.checked += keys.length;
      const kept = await kind.referenced(db, keys);
      for (const key of keys) {
        if (kept.has(key)) continue;
        try {
          await storage.delete(key);
          result.deleted.push(key);
        } catch (err) {
          log?.warn({ err, key }, 'media sweeper: delete failed');
        }
      }
    };
    for await (const object of storage.list(kind.prefix, olderThan)) {
      // Chat keys carry the company id the query matches on; anything else under the prefix is not ours to judge.
      if (kind.prefix === 'chats/' && !/^chats\/\d{1,9}\//.test(object.key)) continue;
      if (newerThan && object.lastModified < newerThan) continue;
      batch.push(object.key);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  }
  if (result.deleted.length) log?.info({ deleted: result.deleted.length, checked: result.checked }, 'media sweeper: unreferenced uploads deleted');
  return result;
}

/** Overlap between consecutive windowed sweeps (clock steps, coarse modification times). */
const WINDOW_OVERLAP_MS = 3600_000;

/**
 * Sweeps once the app is ready (a full pass) and then every `intervalMs` (only objects that aged past
 * the grace period since the last successful sweep, with an hour of overlap); one sweep at a time;
 * the timer is unref'd and cleared on close, which waits for a running sweep (it uses the database).
 */
export function registerMediaSweeper(app: FastifyInstance, options: Omit<SweepOptions, 'newerThan'> & { intervalMs: number }): void {
  let lastOlderThan: Date | null = null;
  const sweeps = new BackgroundJob({
    run: async () => {
      const newerThan = lastOlderThan && new Date(lastOlderThan.getTime() - WINDOW_OVERLAP_MS);
      lastOlderThan = (await sweepUnreferencedMedia({ ...options, newerThan })).olderThan;
    },
    intervalMs: () => options.intervalMs,
    // A tick during a long sweep is dropped: the next sweep covers what aged meanwhile.
    whileRunning: 'skip',
    log: options.log,
    failureMessage: 'media sweeper failed',
  });

  app.addHook('onReady', async () => sweeps.start());
  app.addHook('onClose', async () => {
    sweeps.stop();
    await sweeps.settled();
  });
}
