/**
 * The messaging limit's count (`portfolioUsage`, server/plugins/broadcasts/engine/limits.ts) on a company with a
 * history: the engine recounts it up to once a second per sending number, the broadcast review step and the
 * dashboard's channel health read it on every view. PostgreSQL only; prints figures, asserts nothing.
 *
 *   npx tsx bench/broadcast/messagingLimit.ts                       # 60 broadcasts x 15,000 recipients, 300,000 elsewhere
 *   npx tsx bench/broadcast/messagingLimit.ts --broadcasts 120 --recipients 10000 --elsewhere 1000000
 *
 * The database (`BENCH_LIMIT_DATABASE_URL`, default postgres://127.0.0.1:5432/bench_limit) is dropped and created
 * again, migrated, then filled set-wise: one company's WhatsApp number with `--broadcasts` finished broadcasts of
 * `--recipients` each, one a day back over two months (2 % failed, the rest sent), 3,000 of the newest sent two
 * hours ago; a few sends under way and unknown calls; and another company's `--elsewhere` sends of the last hour
 * (a busy tenant's day, which a count bounded by the window alone would read too). Then the count, 20 times, by
 * the product's function, and beside it the two statements it replaced (kept here as text): the engine's single
 * OR over the portfolio's recipients and the review step's sent-only count.
 */
import { performance } from 'node:perf_hooks';
import { userInfo } from 'node:os';
import pg from 'pg';
import { openPostgres } from '../../server/core/db/client';
import { recreatePostgres } from '../data/run';
import { applyMigrations } from '../../server/core/db/migrate';
import { portfolioUsage, sendingNumberOf } from '../../server/plugins/broadcasts/engine/limits';
import { channels } from '../../server/core/db/schema';
import { eq } from 'drizzle-orm';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: number) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const BROADCASTS = arg('--broadcasts', 60);
const RECIPIENTS = arg('--recipients', 15_000);
const ELSEWHERE = arg('--elsewhere', 300_000);
const CALLS = 20;

const url = (() => {
  const u = new URL(process.env.BENCH_LIMIT_DATABASE_URL || 'postgres://127.0.0.1:5432/bench_limit');
  if (!u.username) u.username = process.env.PGUSER || userInfo().username;
  return u;
})();

/** The statements `portfolioUsage` replaced (issue #26, session 39), for the "before" figures. */
const BEFORE = {
  'engine, one OR (before)': `select count(distinct r.phone)::int, min(coalesce(r.sent_at, r.sending_at)) from broadcast_recipients r
    join broadcasts b on b.id = r.broadcast_id
    where b.channel_id = any($1::int[]) and ((r.sent_at is not null and r.sent_at > $2) or r.state = 'sending'
      or (r.state = 'unknown' and r.sending_at is not null and r.sending_at > $2))`,
  'review step, sent only (before)': `select count(distinct r.phone) from broadcast_recipients r join broadcasts b on b.id = r.broadcast_id
    where b.channel_id = any($1::int[]) and r.sent_at is not null and r.sent_at > $2`,
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  console.log(`messaging limit count: ${BROADCASTS} broadcasts x ${RECIPIENTS.toLocaleString('en')} recipients, ${ELSEWHERE.toLocaleString('en')} sends of another company; PostgreSQL ${url.host}${url.pathname}`);
  await recreatePostgres(url.toString());
  const database = await openPostgres(url.toString());
  await applyMigrations(database);
  const sql = (database.db as unknown as { $client: pg.Pool }).$client;
  const one = async <T>(text: string, params: unknown[] = []) => (await sql.query(text, params)).rows[0] as T;

  const filled = performance.now();
  const { id: company } = await one<{ id: number }>(`insert into companies (name) values ('Limit Co') returning id`);
  const { id: other } = await one<{ id: number }>(`insert into companies (name) values ('Busy Co') returning id`);
  const channelOf = async (companyId: number, externalId: string) =>
    (await one<{ id: number }>(
      `insert into channels (company_id, platform, name, external_id, status, waba_id, settings) values ($1, 'whatsapp', $2, $2, 'active', $3, '{"messaging_limit_tier":"TIER_100K"}') returning id`,
      [companyId, externalId, `waba-${externalId}`],
    )).id;
  const channel = await channelOf(company, 'limit-phone');
  const busy = await channelOf(other, 'busy-phone');
  const broadcastsOf = async (companyId: number, channelId: number, n: number) =>
    (
      await sql.query<{ id: number }>(
        `insert into broadcasts (company_id, channel_id, name, template_name, template_language, variables, audience_type, status)
         select $1, $2, 'B' || g, 'welcome', 'en_US', '{"body":{}}', 'csv', 'completed' from generate_series(1, $3) g returning id`,
        [companyId, channelId, n],
      )
    ).rows.map((r) => r.id);
  const ours = await broadcastsOf(company, channel, BROADCASTS);
  // Broadcast k (0 = the newest) was sent k + 1 days ago, over its first 17 minutes; every 50th recipient failed.
  await sql.query(
    `insert into broadcast_recipients (broadcast_id, company_id, phone, variables, state, sent_at, sending_at, failed_at)
     select b.id, $1, '+1415' || lpad(g::text, 7, '0'), '{}', case when g % 50 = 0 then 'failed' else 'sent' end,
       case when g % 50 = 0 then null else now() - (b.k + 1) * interval '1 day' + (g % 1000) * interval '1 second' end,
       now() - (b.k + 1) * interval '1 day', case when g % 50 = 0 then now() - (b.k + 1) * interval '1 day' end
     from (select id, row_number() over (order by id desc) - 1 as k from unnest($2::int[]) id) b, generate_series(1, $3) g`,
    [company, ours, RECIPIENTS],
  );
  await sql.query(`update broadcast_recipients set sent_at = now() - interval '2 hours' where id in (select id from broadcast_recipients where broadcast_id = $1 and state = 'sent' limit 3000)`, [Math.max(...ours)]);
  const [underWay] = await broadcastsOf(company, channel, 1);
  await sql.query(
    `insert into broadcast_recipients (broadcast_id, company_id, phone, variables, state, sending_at)
     select $1, $2, '+1416' || lpad(g::text, 7, '0'), '{}', case when g % 2 = 0 then 'sending' else 'unknown' end, now() - interval '1 minute' from generate_series(1, 200) g`,
    [underWay, company],
  );
  const [elsewhere] = await broadcastsOf(other, busy, 1);
  await sql.query(
    `insert into broadcast_recipients (broadcast_id, company_id, phone, variables, state, sent_at, sending_at)
     select $1, $2, '+1417' || lpad(g::text, 8, '0'), '{}', 'sent', now() - (g % 3600) * interval '1 second', now() - interval '1 hour' from generate_series(1, $3) g`,
    [elsewhere, other, ELSEWHERE],
  );
  await sql.query('vacuum analyze');
  console.log(`  filled in ${((performance.now() - filled) / 1000).toFixed(1)} s: ${(await one<{ n: string }>('select count(*) n from broadcast_recipients')).n} recipients`);

  const [row] = await database.db.select().from(channels).where(eq(channels.id, channel));
  const number = sendingNumberOf(row);
  const now = new Date();
  const since = new Date(now.getTime() - 24 * 3600_000).toISOString();
  const time = async (run: () => Promise<number>) => {
    const ms: number[] = [];
    let used = 0;
    for (let i = 0; i < CALLS; i++) {
      const started = performance.now();
      used = await run();
      ms.push(performance.now() - started);
    }
    return { used, median: median(ms), max: Math.max(...ms) };
  };
  const results: [string, { used: number; median: number; max: number }][] = [];
  results.push(['portfolioUsage (the product)', await time(async () => (await portfolioUsage(database.db, number, now)).used)]);
  for (const [name, text] of Object.entries(BEFORE)) {
    results.push([name, await time(async () => Number(Object.values((await sql.query(text, [[channel], since])).rows[0])[0]))]);
  }
  console.log(`\n  ${'statement'.padEnd(34)} ${'used'.padStart(7)} ${'median ms'.padStart(10)} ${'max ms'.padStart(8)}   (${CALLS} calls each)`);
  for (const [name, r] of results) console.log(`  ${name.padEnd(34)} ${String(r.used).padStart(7)} ${r.median.toFixed(1).padStart(10)} ${r.max.toFixed(1).padStart(8)}`);
  await database.close();
}

await main();
