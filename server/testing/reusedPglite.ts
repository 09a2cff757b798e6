/**
 * The server tests' in-memory PGlite databases, reused by the files of a worker (issue #20).
 *
 * Loading the run's migrated template into a new PGlite (the WebAssembly PostgreSQL started, the 44-MB data
 * folder unpacked into it) took 1.7 s a test app: 200 of the project's 545 worker-seconds here, for 114 apps.
 * Emptying a database an app has closed takes about 0.13 s: every table of the public schema truncated with its
 * sequences restarted, and the session discarded (its settings, prepared statements, advisory locks and temporary
 * tables). That is the state the template has: its migrations create the tables and fill none of them, which
 * the first database of each worker checks before any is reused (else every app gets a fresh load, as before).
 *
 * A database comes back here when its app closes, and the next app of the worker (same file or the next one: the
 * project runs without isolation) takes it. A database a test closed itself, or one that fails to empty, is dropped.
 */
import type { PGlite } from '@electric-sql/pglite';
import { openPglite, type OpenDatabase } from '../core/db/client';

/** Idle databases kept per worker: enough for the files that hold two apps at once, without holding memory for more. */
const MAX_IDLE = 2;

const idle: PGlite[] = [];

/** The statement that empties a database back to the template's state; null when the template holds rows (no reuse). */
let emptying: Promise<string | null> | undefined;

async function emptyingStatement(client: PGlite): Promise<string | null> {
  const tables = (await client.query<{ name: string }>(`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1`)).rows;
  if (tables.length === 0) return null;
  const filled = await client.query<{ rows: number }>(`select (${tables.map((t) => `(select count(*) from ${t.name})`).join(' + ')})::int as rows`);
  if (filled.rows[0].rows !== 0) return null;
  // Sequences no column owns are not restarted by TRUNCATE … RESTART IDENTITY.
  const unowned = (
    await client.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'S' and n.nspname = 'public'
          and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype in ('a', 'i'))`,
    )
  ).rows;
  return [`truncate ${tables.map((t) => t.name).join(', ')} restart identity cascade`, ...unowned.map((s) => `alter sequence ${s.name} restart`)].join('; ');
}

async function fresh(template: Blob): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite({ loadDataDir: template });
  await client.waitReady;
  emptying ??= emptyingStatement(client);
  await emptying;
  return client;
}

async function giveBack(client: PGlite): Promise<void> {
  const statement = await emptying;
  if (client.closed) return;
  if (!statement || idle.length >= MAX_IDLE) return client.close();
  try {
    // One at a time: DISCARD ALL refuses to run inside a transaction block, which a multi-statement string is.
    await client.exec('rollback');
    await client.exec('discard all');
    await client.exec(statement);
  } catch {
    return client.close();
  }
  idle.push(client);
}

/** A migrated in-memory database in the template's state: an emptied one of this worker, else a fresh load of `template`. */
export async function openReusedPglite(template: Blob): Promise<OpenDatabase> {
  const client = idle.pop() ?? (await fresh(template));
  const opened = await openPglite(null, { client });
  let closed = false;
  return {
    ...opened,
    async close() {
      if (closed) return;
      closed = true;
      await giveBack(client);
    },
  };
}
