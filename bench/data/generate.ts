/**
 * Fills a migrated, empty database with a year of a messaging business's history (bench/data/README.md):
 * 100 companies, 10,000 rooms, 1,000,000 messages skewed (a few rooms with 10,000+ messages, most with a
 * few dozen), tags and agent tags, read markers, saved replies, WhatsApp templates, broadcasts, bots,
 * and one open session per user (the bench mints access tokens for them, no password hashing).
 *
 * Rows are written set-wise: every statement inserts thousands of rows from arrays (`unnest`) or from
 * `generate_series`, so the same code loads PostgreSQL and PGlite fast. Deterministic (seeded PRNG).
 */
import { randomUUID } from 'node:crypto';
import { mulberry32 } from '../support';

/** What the generator needs of a database: PostgreSQL (pg.Client) and PGlite both fit. */
export interface SqlClient {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface GenerateOptions {
  companies: number;
  rooms: number;
  messages: number;
  /** Rooms of the first company (the one the bench loads): the deep pages live there. */
  firstCompanyRooms: number;
  /** Message counts of the busy rooms of the first company's first channel. */
  busyRooms: number[];
  log?: (line: string) => void;
}

export const DEFAULT_GENERATE: GenerateOptions = {
  companies: 100,
  rooms: 10_000,
  messages: 1_000_000,
  firstCompanyRooms: 3_000,
  busyRooms: [25_000, 20_000, 15_000, 12_000, 10_000],
};

/** What the load phase needs to know about the data. */
export interface Generated {
  companyId: number;
  /** The first company's channels, the biggest first (2/3 of its rooms). */
  channelIds: number[];
  whatsappChannelId: number;
  adminUserId: number;
  /** One (user, session) per member of every company: the first-connect test connects as each. */
  sessions: { userId: number; sessionId: string; companyId: number }[];
  /** The busiest room (the deep fetch_messages), with its message count. */
  busyRoomId: number;
  busyRoomMessages: number;
  /** A timestamp and id about 80 % of the way back in the busiest room. */
  deepBefore: { timestamp: string; id: number };
  tagId: number;
  searchTerm: string;
  /** Rooms of the biggest channel (for the deep fetch_rooms page). */
  bigChannelRooms: number;
  bots: number;
  broadcasts: number;
  templates: number;
  counts: Record<string, number>;
}

/** A seeded PRNG, so every run generates the same history. */
const prng = mulberry32;

const FIRST = ['Alice', 'Bruno', 'Chloé', 'David', 'Emma', 'Farid', 'Grace', 'Hugo', 'Inès', 'Jonas', 'Karim', 'Léa', 'Maya', 'Noah', 'Olga', 'Paul', 'Quentin', 'Rosa', 'Samir', 'Tina'];
const LAST = ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefebvre', 'Michel', 'Garcia', 'Nguyen', 'Smith', 'Kowalski', 'Rossi', 'Silva'];
const TAGS = ['VIP', 'Billing', 'Lead', 'Support', 'Refund', 'Shipping', 'Urgent', 'Follow-up'];
const SENTENCES = [
  'Hello, I would like to know where my order is.',
  'Thanks for your message, let me check that for you.',
  'Can I change the delivery address?',
  'Your parcel left our warehouse this morning.',
  'Do you have this in a larger size?',
  'We restock every Tuesday.',
  'I was charged twice for the same order.',
  'Sorry about that, the refund is on its way.',
  'What are your opening hours on Sunday?',
  'We are open from 10 am to 6 pm.',
  'Please send me a picture of the receipt.',
  'Here it is.',
  'Perfect, thank you!',
  'Is the discount code still valid?',
  'Yes, until the end of the month.',
  'Can I speak to a person?',
];

const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Inserts rows column-wise: `insert into t (cols) select * from unnest($1::type[], …)`, 5,000 rows a statement. */
async function insertColumns(db: SqlClient, table: string, columns: [name: string, type: string][], rows: unknown[][], returning?: string): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const part of chunks(rows, 5_000)) {
    const params = columns.map((_, c) => part.map((row) => row[c]));
    const sql = `insert into ${table} (${columns.map(([n]) => n).join(', ')}) select * from unnest(${columns.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})${returning ? ` returning ${returning}` : ''}`;
    const result = await db.query(sql, params);
    out.push(...result.rows);
  }
  return out;
}

export async function generate(db: SqlClient, options: GenerateOptions = DEFAULT_GENERATE): Promise<Generated> {
  const log = options.log ?? (() => {});
  const random = prng(15);
  const now = Date.now();
  const year = 365 * 24 * 3600_000;
  const [{ n: existing }] = (await db.query<{ n: number }>('select count(*)::int as n from companies')).rows;
  if (existing > 0) throw new Error('the database is not empty: the generator fills a freshly migrated database');

  // ---- companies, users, memberships, sessions
  const companyIds = (
    await insertColumns(
      db,
      'companies',
      [['name', 'text'], ['plan_name', 'text'], ['created_at', 'timestamptz']],
      Array.from({ length: options.companies }, (_, i) => [`Bench Company ${i + 1}`, i % 3 === 0 ? 'Pro' : 'Starter', new Date(now - year - 86400_000)]),
      'id',
    )
  ).map((r) => Number(r.id));
  const memberCount = (c: number) => (c === 0 ? 30 : 5);
  const userRows: unknown[][] = [];
  const memberOf: { company: number; role: string; email: string }[] = [];
  companyIds.forEach((companyId, c) => {
    for (let m = 0; m < memberCount(c); m++) {
      const email = `c${c + 1}-u${m + 1}@bench.test`;
      userRows.push([email, FIRST[m % FIRST.length], LAST[(c + m) % LAST.length], 'bench-no-password-login']);
      memberOf.push({ company: companyId, role: m === 0 ? 'admin' : m === 1 ? 'manager' : 'agent', email });
    }
  });
  const userIds = (await insertColumns(db, 'users', [['email', 'text'], ['first_name', 'text'], ['last_name', 'text'], ['password_hash', 'text']], userRows, 'id')).map((r) => Number(r.id));
  await insertColumns(
    db,
    'memberships',
    [['company_id', 'int'], ['user_id', 'int'], ['role', 'text']],
    memberOf.map((m, i) => [m.company, userIds[i], m.role]),
  );
  const sessions = memberOf.map((m, i) => ({ userId: userIds[i], sessionId: randomUUID(), companyId: m.company }));
  await insertColumns(db, 'sessions', [['id', 'uuid'], ['user_id', 'int']], sessions.map((s) => [s.sessionId, s.userId]));
  const membersByCompany = new Map<number, number[]>();
  memberOf.forEach((m, i) => membersByCompany.set(m.company, [...(membersByCompany.get(m.company) ?? []), userIds[i]]));
  log(`companies ${companyIds.length}, users ${userIds.length}`);

  // ---- channels: the first company has 3 (WhatsApp, Messenger, sandbox), the others 1–2
  const channelRows: unknown[][] = [];
  const channelCompany: number[] = [];
  companyIds.forEach((companyId, c) => {
    const platforms = c === 0 ? ['whatsapp', 'messenger', 'sandbox'] : c % 2 ? ['whatsapp', 'instagram'] : ['whatsapp'];
    for (const platform of platforms) {
      channelRows.push([companyId, platform, `${platform} of company ${c + 1}`, `bench-${platform}-${c + 1}`, platform === 'whatsapp' ? `waba-${c + 1}` : null]);
      channelCompany.push(companyId);
    }
  });
  const channelIds = (
    await insertColumns(db, 'channels', [['company_id', 'int'], ['platform', 'text'], ['name', 'text'], ['external_id', 'text'], ['waba_id', 'text']], channelRows, 'id')
  ).map((r) => Number(r.id));
  const firstChannels = channelIds.filter((_, i) => channelCompany[i] === companyIds[0]);

  // ---- rooms: the first company's 3,000 split 2/3, 7/30, 1/10; the rest spread unevenly over the others
  const roomChannel: number[] = [];
  const roomCompany: number[] = [];
  const split = [Math.round(options.firstCompanyRooms * (2 / 3)), Math.round(options.firstCompanyRooms * (7 / 30))];
  split.push(options.firstCompanyRooms - split[0] - split[1]);
  split.forEach((n, k) => {
    for (let i = 0; i < n; i++) {
      roomChannel.push(firstChannels[k]);
      roomCompany.push(companyIds[0]);
    }
  });
  const otherChannels = channelIds.map((id, i) => ({ id, company: channelCompany[i] })).filter((ch) => ch.company !== companyIds[0]);
  const weights = otherChannels.map(() => 0.3 + random() * 1.7);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const rest = options.rooms - options.firstCompanyRooms;
  let placed = 0;
  otherChannels.forEach((ch, i) => {
    const n = i === otherChannels.length - 1 ? rest - placed : Math.round((rest * weights[i]) / weightSum);
    for (let k = 0; k < n; k++) {
      roomChannel.push(ch.id);
      roomCompany.push(ch.company);
    }
    placed += n;
  });

  // Messages per room: the busy rooms first (the first channel's first rooms), a few mid-size ones, then a
  // log-normal spread (median ≈ 50) scaled to the total.
  const counts = new Array<number>(roomChannel.length).fill(0);
  options.busyRooms.forEach((n, i) => (counts[i] = n));
  const midRooms = 15;
  for (let i = 0; i < midRooms; i++) counts[options.busyRooms.length + 200 + i * 397] = 2_000 + Math.round(random() * 6_000);
  const fixed = counts.reduce((a, b) => a + b, 0);
  const free = counts.map((n, i) => (n === 0 ? i : -1)).filter((i) => i >= 0);
  const lognormal = free.map(() => {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.exp(0.9 * z);
  });
  const lognormalSum = lognormal.reduce((a, b) => a + b, 0);
  const remaining = options.messages - fixed;
  let spread = 0;
  free.forEach((roomIndex, k) => {
    counts[roomIndex] = Math.max(3, Math.round((remaining * lognormal[k]) / lognormalSum));
    spread += counts[roomIndex];
  });
  // Exact total: the rounding difference goes to (or comes from) the largest spread rooms.
  let diff = options.messages - fixed - spread;
  for (let k = 0; diff !== 0; k = (k + 1) % free.length) {
    const i = free[k];
    if (diff > 0) {
      counts[i]++;
      diff--;
    } else if (counts[i] > 3) {
      counts[i]--;
      diff++;
    }
  }

  // Each room's history: starts somewhere in the year (busy rooms at its start), one message every `step` ms to
  // about now, the last message some time before now.
  const starts: number[] = [];
  const steps: number[] = [];
  const roomRows: unknown[][] = counts.map((n, i) => {
    const start = now - year + (n >= 2_000 ? 0 : random() * year * 0.9);
    const end = now - random() * (n >= 2_000 ? 3600_000 : year * 0.1);
    const step = Math.max(1, (end - start) / n);
    starts.push(start);
    steps.push(step);
    const first = FIRST[Math.floor(random() * FIRST.length)];
    const last = LAST[Math.floor(random() * LAST.length)];
    const lastAt = new Date(start + step * n);
    return [roomCompany[i], roomChannel[i], `+3360${String(1_000_000 + i)}`, `${first} ${last} ${i + 1}`, lastAt, lastAt, new Date(start - 60_000)];
  });
  const roomIds = (
    await insertColumns(
      db,
      'rooms',
      [['company_id', 'int'], ['channel_id', 'int'], ['external_id', 'text'], ['name', 'text'], ['last_message_at', 'timestamptz'], ['last_inbound_at', 'timestamptz'], ['created_at', 'timestamptz']],
      roomRows,
      'id',
    )
  ).map((r) => Number(r.id));
  log(`channels ${channelIds.length}, rooms ${roomIds.length}`);

  // ---- messages: set-wise from generate_series, ~50,000 rows a statement, rooms interleaved in time within a batch
  const sentences = `array[${SENTENCES.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;
  const order = roomIds.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  let batch: number[] = [];
  let batchSize = 0;
  let written = 0;
  const startedAt = Date.now();
  const flush = async () => {
    if (batch.length === 0) return;
    await db.query(
      `insert into messages (company_id, room_id, origin, type, text, status, sender_name, created_at)
       select r.company_id, r.room_id,
              case when (g + r.room_id) % 10 < 5 then 'user' when (g + r.room_id) % 10 < 9 then 'agent' else 'bot' end,
              'text',
              (${sentences})[1 + (g * 7 + r.room_id) % ${SENTENCES.length}],
              case when (g + r.room_id) % 10 < 5 then null else 'read' end,
              case when (g + r.room_id) % 10 < 5 then r.name when (g + r.room_id) % 10 < 9 then 'Agent' else 'Bot' end,
              to_timestamp((r.start + g * r.step) / 1000.0)
       from unnest($1::int[], $2::int[], $3::int[], $4::float8[], $5::float8[], $6::text[]) as r(room_id, company_id, n, start, step, name)
       cross join lateral generate_series(1, r.n) as g
       order by 8`,
      [
        batch.map((i) => roomIds[i]),
        batch.map((i) => roomCompany[i]),
        batch.map((i) => counts[i]),
        batch.map((i) => starts[i]),
        batch.map((i) => steps[i]),
        batch.map((i) => roomRows[i][3]),
      ],
    );
    written += batchSize;
    batch = [];
    batchSize = 0;
  };
  for (const i of order) {
    batch.push(i);
    batchSize += counts[i];
    if (batchSize >= 50_000) {
      await flush();
      if (written % 200_000 < 50_000) log(`messages ${written.toLocaleString('en')} (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);
    }
  }
  await flush();
  log(`messages ${written.toLocaleString('en')} (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);

  // ---- tags: 8 per company plus one agent tag per agent (its e-mail); ~35 % of rooms tagged, 20 % with an agent tag
  const tagRows: unknown[][] = [];
  for (const companyId of companyIds) {
    for (const name of TAGS) tagRows.push([companyId, name]);
  }
  memberOf.forEach((m) => {
    if (m.role === 'agent') tagRows.push([m.company, m.email]);
  });
  const tagIds = (await insertColumns(db, 'tags', [['company_id', 'int'], ['name', 'text']], tagRows, 'id')).map((r) => Number(r.id));
  const tagsByCompany = new Map<number, { plain: number[]; agent: number[] }>();
  tagRows.forEach(([company, name], i) => {
    const entry = tagsByCompany.get(company as number) ?? { plain: [], agent: [] };
    (String(name).includes('@') ? entry.agent : entry.plain).push(tagIds[i]);
    tagsByCompany.set(company as number, entry);
  });
  const roomTagRows: unknown[][] = [];
  roomIds.forEach((roomId, i) => {
    const own = tagsByCompany.get(roomCompany[i])!;
    const picked = new Set<number>();
    const r = random();
    if (r < 0.35) picked.add(own.plain[Math.floor(random() * own.plain.length)]);
    if (r < 0.1) picked.add(own.plain[Math.floor(random() * own.plain.length)]);
    if (random() < 0.2 && own.agent.length) picked.add(own.agent[Math.floor(random() * own.agent.length)]);
    for (const tagId of picked) roomTagRows.push([roomId, tagId]);
  });
  await insertColumns(db, 'room_tags', [['room_id', 'int'], ['tag_id', 'int']], roomTagRows);
  log(`tags ${tagIds.length}, room tags ${roomTagRows.length}`);

  // ---- read markers: each member has read most rooms of the company up to a few messages before the end;
  // 10 % never opened; the busy rooms read half-way (thousands unread: the unread count's worst case).
  const lastIds = new Map<number, { first: number; last: number }>();
  for (const row of (await db.query<{ room_id: number; first: number; last: number }>('select room_id, min(id) as first, max(id) as last from messages group by room_id')).rows) {
    lastIds.set(Number(row.room_id), { first: Number(row.first), last: Number(row.last) });
  }
  const readRows: unknown[][] = [];
  roomIds.forEach((roomId, i) => {
    const span = lastIds.get(roomId);
    if (!span) return;
    for (const userId of membersByCompany.get(roomCompany[i]) ?? []) {
      if (random() < 0.1) continue;
      const lastRead = counts[i] >= 2_000 ? Math.floor((span.first + span.last) / 2) : Math.max(span.first, span.last - Math.floor(random() * 6));
      readRows.push([roomId, userId, lastRead]);
    }
  });
  await insertColumns(db, 'room_reads', [['room_id', 'int'], ['user_id', 'int'], ['last_read_message_id', 'int']], readRows);
  log(`read markers ${readRows.length}`);

  // ---- saved replies (agent templates): 20 per company
  const agentTemplateRows: unknown[][] = [];
  for (const companyId of companyIds) {
    for (let k = 0; k < 20; k++) agentTemplateRows.push([companyId, `Reply ${k + 1}`, SENTENCES[k % SENTENCES.length]]);
  }
  await insertColumns(db, 'agent_templates', [['company_id', 'int'], ['name', 'text'], ['text', 'text']], agentTemplateRows);

  // ---- WhatsApp templates (40 on each WhatsApp number), broadcasts (60 for the first company, 5 for others), bots (12 / 2)
  const whatsapp = channelIds.map((id, i) => ({ id, company: channelCompany[i], platform: channelRows[i][1], waba: channelRows[i][4] })).filter((c) => c.platform === 'whatsapp');
  const templateRows: unknown[][] = [];
  for (const ch of whatsapp) {
    for (let k = 0; k < 40; k++) {
      templateRows.push([ch.company, ch.id, ch.waba, `meta-${ch.id}-${k}`, `bench_template_${k}`, k % 2 ? 'en_US' : 'fr', k % 3 ? 'MARKETING' : 'UTILITY', JSON.stringify([{ type: 'BODY', text: `Hello {{1}}, ${SENTENCES[k % SENTENCES.length]}` }]), k % 7 ? 'APPROVED' : 'REJECTED']);
    }
  }
  await insertColumns(
    db,
    'whatsapp_templates',
    [['company_id', 'int'], ['channel_id', 'int'], ['waba_id', 'text'], ['meta_template_id', 'text'], ['name', 'text'], ['language', 'text'], ['category', 'text'], ['components', 'jsonb'], ['status', 'text']],
    templateRows,
  );
  const broadcastRows: unknown[][] = [];
  for (const ch of whatsapp) {
    const n = ch.company === companyIds[0] ? 60 : 5;
    for (let k = 0; k < n; k++) {
      const at = new Date(now - year + (k / n) * year);
      broadcastRows.push([ch.company, ch.id, `Campaign ${k + 1}`, `bench_template_${k % 40}`, k % 2 ? 'en_US' : 'fr', '{}', 'contacts', 'completed', 1000, 1000, 950, 800, 120, at, at, at]);
    }
  }
  await insertColumns(
    db,
    'broadcasts',
    [
      ['company_id', 'int'], ['channel_id', 'int'], ['name', 'text'], ['template_name', 'text'], ['template_language', 'text'], ['variables', 'jsonb'], ['audience_type', 'text'], ['status', 'text'],
      ['n_users', 'int'], ['sent_count', 'int'], ['delivered_count', 'int'], ['read_count', 'int'], ['replied_count', 'int'], ['started_at', 'timestamptz'], ['completed_at', 'timestamptz'], ['created_at', 'timestamptz'],
    ],
    broadcastRows,
  );
  const botRows: unknown[][] = [];
  companyIds.forEach((companyId, c) => {
    for (let k = 0; k < (c === 0 ? 12 : 2); k++) botRows.push([companyId, `Bot ${k + 1}`]);
  });
  await insertColumns(db, 'bots', [['company_id', 'int'], ['name', 'text']], botRows);
  log(`saved replies ${agentTemplateRows.length}, WhatsApp templates ${templateRows.length}, broadcasts ${broadcastRows.length}, bots ${botRows.length}`);

  // ---- the busiest room's deep point (80 % back)
  const busyIndex = counts.indexOf(Math.max(...counts));
  const busyRoomId = roomIds[busyIndex];
  const [deep] = (
    await db.query<{ id: number; created_at: Date | string }>('select id, created_at from messages where room_id = $1 order by id desc offset $2 limit 1', [busyRoomId, Math.floor(counts[busyIndex] * 0.8)])
  ).rows;
  const deepAt = deep.created_at instanceof Date ? deep.created_at : new Date(deep.created_at);

  return {
    companyId: companyIds[0],
    channelIds: firstChannels,
    whatsappChannelId: firstChannels[0],
    adminUserId: userIds[0],
    sessions,
    busyRoomId,
    busyRoomMessages: counts[busyIndex],
    deepBefore: { timestamp: deepAt.toISOString(), id: Number(deep.id) },
    tagId: tagsByCompany.get(companyIds[0])!.plain[0],
    searchTerm: 'Martin',
    bigChannelRooms: split[0],
    bots: botRows.length,
    broadcasts: broadcastRows.length,
    templates: templateRows.length,
    counts: {
      companies: companyIds.length,
      users: userIds.length,
      channels: channelIds.length,
      rooms: roomIds.length,
      messages: written,
      roomTags: roomTagRows.length,
      reads: readRows.length,
      busiestRoom: counts[busyIndex],
      roomsOver10k: counts.filter((n) => n >= 10_000).length,
      medianRoom: [...counts].sort((a, b) => a - b)[Math.floor(counts.length / 2)],
    },
  };
}
