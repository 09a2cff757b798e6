/**
 * Stats figures against a seeded history whose answers are worked out by hand (issue #14):
 * conversations started and closed, messages in and out, first response and resolution times
 * (median, p90) overall and per agent, bot- vs human-handled, the heat map, a broadcast's funnel,
 * days in a time zone, an agent seeing only their own figures, and today's dashboard.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DashboardStats, StatsReport } from '../../../contract/stats';
import { STATS_MESSAGES } from '../../../contract/stats';
import { channels, messages, roomTags, rooms, tags } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { broadcastEngineRuntime } from '../broadcasts';
import { STATS_REPORT_TTL_MS } from './service';
import { bots } from '../bots/testing';
import { broadcastRecipients, broadcasts } from '../broadcasts/testing';

const NOW = new Date('2026-03-18T12:00:00Z');
const z = (iso: string) => new Date(`${iso}Z`);

describeEachDatabase('stats figures', (database) => {
  let t: TestApp;
  let company = 0;
  let other = 0;
  let sandbox = 0;
  let whatsapp = 0;
  let agent1 = 0;
  let agent2 = 0;
  let admin: Record<string, string>;
  let asAgent1: Record<string, string>;

  type Line = [origin: 'user' | 'agent' | 'bot', at: string, sender?: number];
  async function room(companyId: number, channelId: number, name: string, created: string, lines: Line[], opts: { tags?: string[]; blocked?: boolean; status?: 'open' | 'resolved'; assignee?: number } = {}) {
    const last = lines.length ? z(lines[lines.length - 1][1]) : z(created);
    const [r] = await t.db
      .insert(rooms)
      .values({ companyId, channelId, externalId: name, name, createdAt: z(created), lastMessageAt: last, blockedAt: opts.blocked ? last : null, status: opts.status ?? 'open', assigneeUserId: opts.assignee ?? null })
      .returning({ id: rooms.id });
    for (const [origin, at, sender] of lines) {
      await t.db.insert(messages).values({ companyId, roomId: r.id, origin, text: `${origin} ${at}`, createdAt: z(at), senderUserId: sender ?? null, status: origin === 'user' ? null : 'read' });
    }
    for (const tag of opts.tags ?? []) {
      const [row] = await t.db.insert(tags).values({ companyId, name: tag }).onConflictDoNothing().returning({ id: tags.id });
      await t.db.insert(roomTags).values({ roomId: r.id, tagId: row.id });
    }
    return r.id;
  }

  beforeAll(async () => {
    // The sending engine is stopped: the 'sending' broadcast below is history to count, not work to do.
    t = await createTestApp({ database, onBuild: (app) => void app.addHook('onReady', async () => broadcastEngineRuntime(app).worker.stop()) });
    t.clock.advance(NOW.getTime() - t.clock.now().getTime());
    company = await t.seed.company('Stats Co');
    other = await t.seed.company('Other Co');
    const adminId = await t.seed.user({ email: 'boss@stats.test', firstName: 'Bea', lastName: 'Boss' });
    agent1 = await t.seed.user({ email: 'agent1@stats.test', firstName: 'Ann', lastName: 'One' });
    agent2 = await t.seed.user({ email: 'agent2@stats.test', firstName: 'Ben', lastName: 'Two' });
    await t.seed.member(company, adminId, 'admin');
    await t.seed.member(company, agent1, 'agent');
    await t.seed.member(company, agent2, 'agent');
    await t.seed.member(other, adminId, 'admin');
    const [sb] = await t.db.insert(channels).values({ companyId: company, platform: 'sandbox', name: 'Sandbox', externalId: 'sandbox-stats' }).returning();
    sandbox = sb.id;
    const [wa] = await t.db
      .insert(channels)
      .values({ companyId: company, platform: 'whatsapp', name: 'WhatsApp', externalId: 'pn-stats', wabaId: 'waba-stats', signupStatus: 'partial_failure', status: 'active', settings: { messaging_limit_tier: 'TIER_250' } })
      .returning();
    whatsapp = wa.id;
    const [osb] = await t.db.insert(channels).values({ companyId: other, platform: 'sandbox', name: 'Other sandbox', externalId: 'sandbox-other' }).returning();

    // The range 2026-03-10 … 2026-03-16 (UTC).
    await room(company, sandbox, 'A', '2026-03-10T09:00:00', [
      ['user', '2026-03-10T09:00:00'],
      ['bot', '2026-03-10T09:01:00'],
      ['agent', '2026-03-10T09:10:00', agent1], // first response 600 s (agent1)
      ['user', '2026-03-10T09:20:00'],
      ['agent', '2026-03-10T09:30:00', agent1], // closed, resolution 1800 s
    ], { tags: ['agent1@stats.test'], assignee: agent1, status: 'resolved' });
    await room(company, sandbox, 'B', '2026-03-11T14:00:00', [
      ['user', '2026-03-11T14:00:00'],
      ['agent', '2026-03-11T14:30:00', agent2], // 1800 s (agent2); resolution 1800 s
    ], { status: 'resolved' });
    await room(company, whatsapp, 'C', '2026-03-12T10:00:00', [
      ['user', '2026-03-12T10:00:00'],
      ['agent', '2026-03-12T10:20:00', agent1], // 1200 s (agent1)
      ['agent', '2026-03-12T10:25:00', agent2], // resolution 1500 s, closed by agent2
    ], { status: 'resolved' });
    await room(company, sandbox, 'D', '2026-03-13T08:00:00', [
      ['user', '2026-03-13T08:00:00'],
      ['bot', '2026-03-13T08:00:05'], // bot-handled; resolution 5 s
    ], { status: 'resolved' });
    await room(company, sandbox, 'E', '2026-03-09T23:00:00', [
      ['user', '2026-03-09T23:00:00'], // started before the range
      ['user', '2026-03-10T11:00:00'], // closed in it: resolution 43200 s
    ]);
    // Another company's conversation in the same days: never counted.
    await room(other, osb.id, 'X', '2026-03-11T10:00:00', [
      ['user', '2026-03-11T10:00:00'],
      ['agent', '2026-03-11T10:01:00', adminId],
    ]);
    // Today (2026-03-18) and yesterday.
    await room(company, sandbox, 'F', '2026-03-17T13:00:00', [['user', '2026-03-17T13:00:00']], { tags: ['agent2@stats.test', 'vip'], assignee: agent2 });
    await room(company, sandbox, 'G', '2026-03-18T10:00:00', [
      ['user', '2026-03-18T10:00:00'],
      ['agent', '2026-03-18T10:05:00', agent1], // 300 s
    ]);
    await room(company, sandbox, 'H', '2026-03-18T11:00:00', [
      ['user', '2026-03-18T11:00:00'],
      ['bot', '2026-03-18T11:00:10'],
    ]);
    await room(company, sandbox, 'I', '2026-03-18T09:00:00', [['user', '2026-03-18T09:00:00']], { blocked: true });

    const base = { companyId: company, channelId: whatsapp, templateName: 'offer', templateLanguage: 'en_US', variables: { body: {} }, audienceType: 'csv' as const };
    const [spring, old, going] = await t.db
      .insert(broadcasts)
      .values([
        { ...base, name: 'Spring offer', status: 'completed', nUsers: 12, sentCount: 10, deliveredCount: 8, readCount: 5, repliedCount: 2, failedCount: 2, createdAt: z('2026-03-12T08:00:00') },
        { ...base, name: 'Old offer', status: 'completed', nUsers: 3, sentCount: 3, createdAt: z('2026-02-01T08:00:00') },
        { ...base, name: 'Going out', status: 'sending', nUsers: 10, sentCount: 4, failedCount: 1, createdAt: z('2026-03-18T09:00:00') },
      ])
      .returning({ id: broadcasts.id });
    // The broadcast messages Meta accepted (sent_at) are messages out (issue #25): three on the 12th, one before the
    // range, one today; a failed one never sent is not.
    const recipient = (broadcastId: number, phone: string, state: 'sent' | 'delivered' | 'failed', sentAt: string | null) => ({
      broadcastId,
      companyId: company,
      phone,
      variables: { body: [] },
      state,
      sentAt: sentAt ? z(sentAt) : null,
    });
    await t.db.insert(broadcastRecipients).values([
      recipient(spring.id, '+14155550101', 'delivered', '2026-03-12T08:00:01'),
      recipient(spring.id, '+14155550102', 'delivered', '2026-03-12T08:00:02'),
      recipient(spring.id, '+14155550103', 'sent', '2026-03-12T08:00:03'),
      recipient(spring.id, '+14155550104', 'failed', null),
      recipient(old.id, '+14155550105', 'sent', '2026-02-01T08:00:01'),
      recipient(going.id, '+14155550106', 'sent', '2026-03-18T09:00:01'),
    ]);

    admin = t.headers((await t.login('boss@stats.test')).access, company);
    asAgent1 = t.headers((await t.login('agent1@stats.test')).access, company);
  });
  afterAll(async () => t?.close());

  const report = async (headers: Record<string, string>, query: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/stats/?${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as StatsReport;
  };

  it('counts the company’s conversations, messages and times over the range', async () => {
    const r = await report(admin, 'from=2026-03-10&to=2026-03-16&tz=UTC');
    expect(r.scope).toBe('company');
    expect(r.totals).toEqual({
      conversations_started: 4,
      conversations_closed: 5,
      messages_in: 6,
      messages_out: 10, // 7 in rooms, 3 broadcast messages
      bot_handled: 1,
      human_handled: 3,
      first_response: { median: 1200, p90: 1680, count: 3 },
      resolution: { median: 1800, p90: 26640, count: 5 },
    });
    expect(r.daily).toHaveLength(7);
    expect(r.daily[0]).toEqual({ date: '2026-03-10', started: 1, closed: 2, messages_in: 3, messages_out: 3 });
    expect(r.daily[6]).toEqual({ date: '2026-03-16', started: 0, closed: 0, messages_in: 0, messages_out: 0 });
    expect(r.daily.reduce((sum, d) => sum + d.messages_out, 0)).toBe(10);
  });

  it('gives each agent their first response and resolution times', async () => {
    const r = await report(admin, 'from=2026-03-10&to=2026-03-16&tz=UTC');
    const byEmail = Object.fromEntries(r.agents.map((a) => [a.email, a]));
    expect(Object.keys(byEmail).sort()).toEqual(['agent1@stats.test', 'agent2@stats.test']);
    expect(byEmail['agent1@stats.test']).toMatchObject({
      name: 'Ann One',
      first_response: { median: 900, p90: 1140, count: 2 },
      resolution: { median: 1800, p90: 1800, count: 1 },
      messages_out: 3,
    });
    expect(byEmail['agent2@stats.test']).toMatchObject({
      first_response: { median: 1800, p90: 1800, count: 1 },
      resolution: { median: 1650, count: 2 },
      messages_out: 2,
    });
  });

  it('splits by channel, filters one channel, and maps the busiest hours', async () => {
    const r = await report(admin, 'from=2026-03-10&to=2026-03-16&tz=UTC');
    const wa = r.channels.find((c) => c.channel_id === whatsapp)!;
    const sb = r.channels.find((c) => c.channel_id === sandbox)!;
    expect(wa).toMatchObject({ started: 1, messages_in: 1, messages_out: 5 });
    expect(sb).toMatchObject({ started: 3, messages_in: 5, messages_out: 5 });
    // 2026-03-10 is a Tuesday (ISO weekday 2): two customer messages at 9 h, one at 11 h.
    expect(r.heatmap).toContainEqual({ weekday: 2, hour: 9, messages: 2 });
    expect(r.heatmap).toContainEqual({ weekday: 2, hour: 11, messages: 1 });
    expect(r.heatmap.reduce((s, c) => s + c.messages, 0)).toBe(6);

    const only = await report(admin, `from=2026-03-10&to=2026-03-16&tz=UTC&channel=${whatsapp}`);
    expect(only.channel_id).toBe(whatsapp);
    expect(only.totals).toMatchObject({ conversations_started: 1, conversations_closed: 1, messages_in: 1, messages_out: 5, human_handled: 1 });
    // Another channel's filter leaves the WhatsApp number's broadcasts out.
    expect((await report(admin, `from=2026-03-10&to=2026-03-16&tz=UTC&channel=${sandbox}`)).totals.messages_out).toBe(5);
    expect(only.channels.map((c) => c.channel_id)).toEqual([whatsapp]);
  });

  it('shows each broadcast’s funnel created in the range', async () => {
    const r = await report(admin, 'from=2026-03-10&to=2026-03-16&tz=UTC');
    expect(r.broadcasts).toHaveLength(1);
    expect(r.broadcasts[0]).toMatchObject({ name: 'Spring offer', n_users: 12, sent: 10, delivered: 8, read: 5, replied: 2, failed: 2 });
  });

  it('counts days in the chosen time zone', async () => {
    // Tokyo's 2026-03-10 is 2026-03-09T15:00Z … 2026-03-10T15:00Z: rooms E (23:00Z the 9th) and A.
    const r = await report(admin, 'from=2026-03-10&to=2026-03-10&tz=Asia%2FTokyo');
    expect(r.totals.conversations_started).toBe(2);
    expect(r.daily).toEqual([expect.objectContaining({ date: '2026-03-10', started: 2 })]);
  });

  it('shows an agent only their own figures', async () => {
    const r = await report(asAgent1, 'from=2026-03-10&to=2026-03-16&tz=UTC');
    expect(r.scope).toBe('own');
    expect(r.totals).toEqual({
      conversations_started: 2,
      conversations_closed: 2,
      messages_in: 3,
      messages_out: 3,
      bot_handled: 0,
      human_handled: 2,
      first_response: { median: 900, p90: 1140, count: 2 },
      resolution: { median: 1650, p90: 1770, count: 2 },
    });
    expect(r.agents.map((a) => a.email)).toEqual(['agent1@stats.test']);
    expect(r.broadcasts).toEqual([]);
    expect(JSON.stringify(r)).not.toContain('agent2@stats.test');
  });

  it('gives today at a glance on the dashboard', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/stats/dashboard/?tz=UTC', headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as DashboardStats;
    expect(d).toMatchObject({
      scope: 'company',
      today: '2026-03-18',
      // The inbox's open conversations (status open: E, left open days ago, F, G, H and the blocked I), and of those
      // the ones without an assignee (all but F).
      open_conversations: 5,
      unassigned_conversations: 4,
      messages_in_today: 3,
      messages_out_today: 3, // 2 in rooms, 1 broadcast message
      first_response_today: { median: 300, count: 1 },
      bot_conversations_today: 1,
      conversations_today: 3,
    });
    expect(d.running_broadcasts).toEqual([expect.objectContaining({ name: 'Going out', n_users: 10, progress: 50 })]);
    const wa = d.channels.find((c) => c.id === whatsapp)!;
    expect(wa).toMatchObject({ needs_attention: true, reason: 'signup_partial', messaging_limit: { used: 1, limit: 250 }, near_limit: false }); // today's broadcast message
    expect(d.channels.find((c) => c.id === sandbox)).toMatchObject({ needs_attention: false, messaging_limit: null });

    const mine = (await t.app.inject({ method: 'GET', url: '/api/stats/dashboard/?tz=UTC', headers: asAgent1 })).json() as DashboardStats;
    expect(mine).toMatchObject({ scope: 'own', open_conversations: 1, unassigned_conversations: 4, messages_in_today: 1, messages_out_today: 1, first_response_today: { median: 300 } });
  });

  it('tells the dashboard which getting-started steps the company has taken, company by company', async () => {
    const d = (await t.app.inject({ method: 'GET', url: '/api/stats/dashboard/?tz=UTC', headers: admin })).json() as DashboardStats;
    // Stats Co: an active WhatsApp channel, agents' answers, three members, broadcasts under way; no template, bot or flow.
    expect(d.setup).toEqual({ channel_connected: true, conversation_answered: true, teammate_invited: true, template_created: false, broadcast_sent: true, bot_built: false });
    // An agent sees the same company-wide steps.
    const mine = (await t.app.inject({ method: 'GET', url: '/api/stats/dashboard/?tz=UTC', headers: asAgent1 })).json() as DashboardStats;
    expect(mine.setup).toEqual(d.setup);
    // Other Co: its sandbox only (not a connected channel), one member, one answer; a bot makes bot_built true.
    const inOther = t.headers((await t.login('boss@stats.test')).access, other);
    const before = (await t.app.inject({ method: 'GET', url: '/api/stats/dashboard/?tz=UTC', headers: inOther })).json() as DashboardStats;
    expect(before.setup).toEqual({ channel_connected: false, conversation_answered: true, teammate_invited: false, template_created: false, broadcast_sent: false, bot_built: false });
    await t.db.insert(bots).values({ companyId: other, name: 'Welcome' });
    const after = (await t.app.inject({ method: 'GET', url: '/api/stats/dashboard/?tz=UTC', headers: inOther })).json() as DashboardStats;
    expect(after.setup).toEqual({ ...before.setup, bot_built: true });
  });

  it('refuses bad ranges, time zones and other companies’ channels in words', async () => {
    const bad = async (query: string) => t.app.inject({ method: 'GET', url: `/api/stats/?${query}`, headers: admin });
    let res = await bad('from=2026-03-16&to=2026-03-10');
    expect(res.statusCode).toBe(400);
    expect(res.json().from).toEqual([STATS_MESSAGES.invalidRange]);
    res = await bad('from=2026-02-30&to=2026-03-10');
    expect(res.statusCode).toBe(400);
    expect(res.json().from).toEqual([STATS_MESSAGES.invalidDate]);
    res = await bad('from=2024-01-01&to=2026-03-10');
    expect(res.json().to).toEqual([STATS_MESSAGES.rangeTooLong]);
    res = await bad('from=2026-03-10&to=2026-03-11&tz=Mars%2FOlympus');
    expect(res.statusCode).toBe(400);
    expect(res.json().tz).toEqual([STATS_MESSAGES.invalidTimeZone]);
    // A zone this runtime knows that the database might not (tzdata of 2022): never a 500.
    res = await bad('from=2026-03-10&to=2026-03-11&tz=America%2FCiudad_Juarez');
    expect([200, 400]).toContain(res.statusCode);
    res = await bad('to=2026-03-11');
    expect(res.statusCode).toBe(400);
    const [foreign] = await t.db.select({ id: channels.id }).from(channels).where(eq(channels.companyId, other));
    res = await bad(`from=2026-03-10&to=2026-03-11&channel=${foreign.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe(STATS_MESSAGES.invalidChannel);
  });

  it('reuses a report for STATS_REPORT_TTL_MS on the service clock, answers it while counting again up to twice that, then counts again', async () => {
    const inOther = t.headers((await t.login('boss@stats.test')).access, other);
    const query = 'from=2026-03-01&to=2026-03-18&tz=UTC';
    const first = await report(inOther, query);
    const [osb] = await t.db.select({ id: channels.id }).from(channels).where(eq(channels.companyId, other));
    await room(other, osb.id, 'Y', '2026-03-14T10:00:00', [['user', '2026-03-14T10:00:00']]);
    expect((await report(inOther, query)).totals.messages_in).toBe(first.totals.messages_in);
    t.clock.advance(STATS_REPORT_TTL_MS);
    // Older than the TTL: the old report is answered while a fresh one is computed in the background.
    expect((await report(inOther, query)).totals.messages_in).toBe(first.totals.messages_in);
    t.clock.advance(STATS_REPORT_TTL_MS);
    // Either that fresh one, or (not done yet, the old one now twice the TTL old) one computed for this request.
    expect((await report(inOther, query)).totals.messages_in).toBe(first.totals.messages_in + 1);
  });
});
