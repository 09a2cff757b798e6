/**
 * Demo inbox (server/core/seed.ts): the Demo Company's sandbox channel with a handful of
 * conversations spread over the last days — customer, agent and bot messages, tags (including an
 * agent tag), one paused room and one blocked room, and two older ones — so the inbox has something to show at once.
 */
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { Database, Tx } from '../../core/db/client';
import type { MediaStorage } from '../../providers/storage/types';
import { channels, companies, messages, roomTags, rooms, tags } from '../../core/db/schema';
import { ensureSandboxChannel, simulatorUrl } from './service';


/** The demo's pictures, shipped in the repository (assets/) and stored like a customer's upload: nothing is loaded from another site. */
const DEMO_MEDIA = {
  cart: { file: 'demo-cart.png', contentType: 'image/png' },
} as const;
type DemoMediaName = keyof typeof DEMO_MEDIA;

type Line = [origin: 'user' | 'agent' | 'bot', text: string, minutesAgo: number, extra?: { type?: string; media?: DemoMediaName; data?: Record<string, unknown> }];

interface DemoRoom {
  externalId: string;
  name: string;
  tags: string[];
  paused?: boolean;
  blocked?: boolean;
  lines: Line[];
}

const DAY = 24 * 60;

// The demo bot's own words (server/plugins/bots/demo.ts, "Demo assistant"): the conversations it answered read as
// its runtime would have written them, and the bots plugin's demo counts them as the conversations it handled.
const BOT_NAME = 'Demo assistant';
const greeting = (minutesAgo: number): Line[] => [
  ['bot', 'Hi! I am the Demo Company assistant.', minutesAgo],
  ['bot', 'How can I help you today?', minutesAgo, { type: 'interactive', data: { buttons: [{ id: 'welcome-track', title: 'Track my order' }, { id: 'welcome-hours', title: 'Opening hours' }, { id: 'welcome-person', title: 'Talk to a person' }] } }],
];
const tapped = (id: string, title: string, minutesAgo: number): Line => ['user', title, minutesAgo, { type: 'button_reply', data: { button_reply: { id, title } } }];
/** The greeting, "Talk to a person" tapped, and the bot's hand-over line. */
const handedOver = (minutesAgo: number): Line[] => [
  ...greeting(minutesAgo),
  tapped('welcome-person', 'Talk to a person', minutesAgo - 1),
  ['bot', 'Sure! Someone from our team will answer you here shortly.', minutesAgo - 2],
];

export function demoRooms(agentEmail: string): DemoRoom[] {
  return [
    {
      externalId: '+34612345678',
      name: 'Maria Lopez',
      tags: ['vip', agentEmail],
      lines: [
        ['user', 'Hi! I ordered a blue jacket last week (order #4821). Any news?', 3 * DAY + 40],
        ...handedOver(3 * DAY + 39),
        ['agent', 'Hello Maria, let me check that for you.', 3 * DAY + 20],
        ['agent', 'Your order left our warehouse yesterday; you should get it by Friday.', 3 * DAY + 15],
        ['user', 'Great, thank you!', 3 * DAY + 10],
        ['user', 'It arrived, but the size is a bit small. Can I exchange it for an L?', 50],
        ['agent', 'Of course! I am sending you a free return label.', 35],
        ['user', 'Perfect. Do I need to print it?', 4],
      ],
    },
    {
      externalId: '+14155550123',
      name: 'James Carter',
      tags: ['billing'],
      paused: true,
      lines: [
        ['user', 'Hello, I was charged twice for my March invoice.', 2 * DAY + 300],
        ...handedOver(2 * DAY + 299),
        ['agent', 'Hi James, sorry about that. I can see the duplicate charge.', 2 * DAY + 200],
        ['agent', 'The refund is on its way; it takes 3 to 5 business days.', 2 * DAY + 190],
        ['user', 'Thanks for the quick help.', 2 * DAY + 150],
      ],
    },
    {
      externalId: '+81312345678',
      name: 'Aiko Tanaka',
      tags: [],
      lines: [
        ['user', 'Hello', DAY + 500],
        ...greeting(DAY + 499),
        tapped('welcome-hours', 'Opening hours', DAY + 498),
        ['bot', 'We are open Monday to Saturday, 9:00 to 19:00.', DAY + 497],
        ['bot', 'Anything else?', DAY + 497, { type: 'interactive', data: { buttons: [{ id: 'more-menu', title: 'Main menu' }, { id: 'more-person', title: 'Talk to a person' }] } }],
        tapped('more-person', 'Talk to a person', DAY + 482),
        ['bot', 'Sure! Someone from our team will answer you here shortly.', DAY + 481],
        ['user', 'Are you open on public holidays?', DAY + 480],
        ['agent', 'Hi Aiko, we are closed on public holidays, except in December.', DAY + 400],
        ['user', 'Good to know, thanks!', DAY + 390],
        ['user', 'One more thing: do you ship to Osaka?', 120],
        ['agent', 'Yes, we ship everywhere in Japan within 4 days.', 100],
      ],
    },
    {
      externalId: '+33698765432',
      name: 'Lucas Martin',
      tags: [],
      blocked: true,
      lines: [
        ['user', 'CHEAP FOLLOWERS!!! Visit my site now', 4 * DAY + 60],
        ['user', 'Limited offer, 10000 followers for 5$', 4 * DAY + 59],
        ...greeting(4 * DAY + 58),
        ['user', 'Click the link!!!', 4 * DAY + 30],
        ['agent', 'This conversation has been reported as spam.', 4 * DAY + 10],
      ],
    },
    {
      externalId: '+212612345678',
      name: 'Fatima Zahra',
      tags: ['vip', 'billing'],
      lines: [
        ['user', 'Bonjour, can I pay my order in three instalments?', DAY + 60],
        ['agent', 'Hello Fatima! Yes, for orders above 300 € you can choose it at checkout.', DAY + 45],
        ['user', 'Here is my cart', DAY + 40, { type: 'image', media: 'cart' }],
        ['agent', 'Your cart qualifies. Shall I send you the payment link?', DAY + 30],
        ['user', 'Yes please', DAY + 25],
        ['agent', 'Done, you should have it by e-mail now.', DAY + 20],
        ['user', 'Got it, merci!', DAY + 15],
      ],
    },
    // Older conversations (before the stats' demo week) the chats plugin's demo gives the other statuses (issue #22):
    // Noah's waits on the customer (pending), Giulia's is snoozed.
    {
      externalId: '+4915112345678',
      name: 'Noah Fischer',
      tags: ['billing'],
      lines: [
        ['user', 'Hi, I need a copy of my invoice for my accountant.', 12 * DAY + 90],
        ...handedOver(12 * DAY + 89),
        ['agent', 'Hello Noah, happy to help. Which order is it for?', 12 * DAY + 60],
        ['user', 'The one from September, I think.', 12 * DAY + 50],
        ['agent', 'Could you send me the order number? You will find it in the confirmation e-mail.', 12 * DAY + 40],
      ],
    },
    {
      externalId: '+393331234567',
      name: 'Giulia Bianchi',
      tags: [],
      lines: [
        ['user', 'Buongiorno! Will the green sneakers be back in size 38?', 11 * DAY + 200],
        ...handedOver(11 * DAY + 199),
        ['agent', 'Hi Giulia! A new delivery is expected soon.', 11 * DAY + 120],
        ['user', 'Can you tell me when they arrive?', 11 * DAY + 110],
        ['agent', 'Sure, I will get back to you as soon as they are in stock.', 11 * DAY + 100],
      ],
    },
  ];
}

/**
 * Stores the demo pictures as the company's chat attachments (`chats/<company>/demo/…`) through the
 * media storage, so they are served by this server (local disk or the bucket) with the same access
 * rules as real attachments, and work offline. Returns each picture's stored URL.
 */
export async function storeDemoMedia(storage: MediaStorage, companyId: number): Promise<Record<DemoMediaName, string>> {
  const urls = {} as Record<DemoMediaName, string>;
  for (const [name, media] of Object.entries(DEMO_MEDIA) as [DemoMediaName, (typeof DEMO_MEDIA)[DemoMediaName]][]) {
    const bytes = await readFile(new URL(`./assets/${media.file}`, import.meta.url));
    const stored = await storage.put(`chats/${companyId}/demo/${media.file}`, bytes, media.contentType);
    urls[name] = stored.url;
  }
  return urls;
}

/** Inside the demo seed's transaction: the company's sandbox channel and its conversations (pictures through `storage`). */
export async function seedDemoInbox(tx: Tx, companyId: number, agentEmail: string, storage: MediaStorage, now = new Date()): Promise<void> {
  const channel = await ensureSandboxChannel(tx, companyId);
  const mediaUrls = await storeDemoMedia(storage, companyId);
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000);
  const tagIds = new Map<string, number>();
  let seq = 0;
  for (const demo of demoRooms(agentEmail)) {
    const last = at(Math.min(...demo.lines.map((l) => l[2])));
    const [room] = await tx
      .insert(rooms)
      .values({
        companyId,
        channelId: channel.id,
        externalId: demo.externalId,
        name: demo.name,
        pausedUntil: demo.paused ? new Date(now.getTime() + 24 * 3600_000) : null,
        blockedAt: demo.blocked ? at(4 * DAY) : null,
        lastMessageAt: last,
        createdAt: at(Math.max(...demo.lines.map((l) => l[2]))),
      })
      .returning({ id: rooms.id });
    // Chronological order so ids follow created_at, like live messages.
    const lines = [...demo.lines].sort((a, b) => b[2] - a[2]);
    await tx.insert(messages).values(
      lines.map(([origin, text, minutesAgo, extra]) => ({
        companyId,
        roomId: room.id,
        origin,
        type: extra?.type ?? (extra?.media ? 'image' : 'text'),
        text,
        mediaUrl: extra?.media ? mediaUrls[extra.media] : null,
        mediaType: extra?.media ? DEMO_MEDIA[extra.media].contentType : null,
        data: extra?.data ?? null,
        status: origin === 'user' ? null : minutesAgo < 60 ? 'delivered' : 'read',
        externalId: `demo-${++seq}`,
        senderName: origin === 'agent' ? 'Alex' : origin === 'bot' ? BOT_NAME : demo.name,
        createdAt: at(minutesAgo),
      })),
    );
    for (const name of demo.tags) {
      let tagId = tagIds.get(name);
      if (tagId === undefined) {
        const [tag] = await tx.insert(tags).values({ companyId, name }).returning({ id: tags.id });
        tagId = tag.id;
        tagIds.set(name, tagId);
      }
      await tx.insert(roomTags).values({ roomId: room.id, tagId });
    }
  }
}

/** The simulator link of a company's sandbox channel, by company name (the start banner). */
export async function sandboxLinkOf(db: Database, companyName: string, publicUrl: string): Promise<string | null> {
  const [row] = await db
    .select({ key: channels.simulatorKey })
    .from(channels)
    .innerJoin(companies, eq(companies.id, channels.companyId))
    .where(and(eq(companies.name, companyName), eq(channels.platform, 'sandbox')))
    .orderBy(channels.id)
    .limit(1);
  return row?.key ? simulatorUrl(publicUrl, row.key) : null;
}
