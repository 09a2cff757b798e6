import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Room } from '../../../contract/chats';
import { channels, companies, messages, rooms } from '../../core/db/schema';
import { DEMO } from '../../core/seed';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { sandboxLinkOf } from './demo';
import { registerChatChannels, chatService, FakeHub, identityFor } from '../chats';

describe('demo inbox seed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    expect(await t.seed.demo()).toBe(true);
  });
  afterAll(() => t.close());

  it('gives the Demo Company a sandbox with conversations, tags, a paused and a blocked room', async () => {
    const [demo] = await t.db.select().from(companies).where(eq(companies.name, DEMO.companies.demo.name));
    const sandboxes = await t.db.select().from(channels).where(eq(channels.platform, 'sandbox'));
    expect(sandboxes).toHaveLength(2);
    const roomRows = await t.db.select().from(rooms).where(eq(rooms.companyId, demo.id));
    expect(roomRows.length).toBeGreaterThanOrEqual(4);
    expect(roomRows.length).toBeLessThanOrEqual(7);
    expect(roomRows.filter((r) => r.pausedUntil && r.pausedUntil > new Date())).toHaveLength(1);
    expect(roomRows.filter((r) => r.blockedAt)).toHaveLength(1);
    for (const room of roomRows) {
      const rows = await t.db.select().from(messages).where(eq(messages.roomId, room.id));
      expect(rows.length).toBeGreaterThanOrEqual(5);
      expect(rows.length).toBeLessThanOrEqual(20);
      // A private note is not a reply (issue #22): the room's last message is its last customer, agent or bot one.
      expect(room.lastMessageAt!.getTime()).toBe(Math.max(...rows.filter((m) => m.origin !== 'note').map((m) => m.createdAt.getTime())));
    }
    const origins = new Set((await t.db.select({ origin: messages.origin }).from(messages)).map((m) => m.origin));
    expect([...origins].sort()).toEqual(['agent', 'bot', 'note', 'user']);

    // The demo agent is admin-independent: the inbox lists the rooms newest first with tags.
    const hub = new FakeHub();
    registerChatChannels(hub, chatService(t.app));
    const sandbox = sandboxes.find((c) => c.companyId === demo.id)!;
    const me = identityFor({ userId: 1, email: DEMO.admin.email, companyId: demo.id, role: 'admin' });
    const { ctx } = await hub.join(me, `page:${sandbox.id}`);
    const listed = (await hub.push(ctx, 'fetch_rooms', { search: '', page: 1 })).response.rooms as Room[];
    expect(listed[0].name).toBe('Maria Lopez');
    expect(listed[0].tags.map((tag) => tag.name)).toEqual(['agent@demo.test', 'vip']);
    expect(listed.flatMap((r) => r.tags.map((tag) => tag.name))).toContain('billing');

    expect(await sandboxLinkOf(t.db, DEMO.companies.demo.name, t.config.publicUrl)).toBe(`${t.config.publicUrl}/sandbox/${sandbox.simulatorKey}`);
  });

  it("keeps the demo's pictures in our own media storage (as the company's chat attachments), never on another site", async () => {
    const [demo] = await t.db.select().from(companies).where(eq(companies.name, DEMO.companies.demo.name));
    const withMedia = (await t.db.select().from(messages).where(eq(messages.companyId, demo.id))).filter((m) => m.mediaUrl);
    expect(withMedia.length).toBeGreaterThan(0);
    for (const row of withMedia) {
      const url = new URL(row.mediaUrl!, t.config.publicUrl);
      expect(url.origin).toBe(new URL(t.config.publicUrl).origin);
      const key = url.pathname.replace(/^\/media\//, '');
      expect(key).toMatch(new RegExp(`^chats/${demo.id}/demo/[a-z0-9-]+\\.png$`));
      expect(row.mediaType).toBe('image/png');
      const stored = await t.app.services.get('MediaStorage').get(key);
      const shipped = await readFile(new URL('./assets/demo-cart.png', import.meta.url));
      expect(stored?.bytes.equals(shipped)).toBe(true);
      expect(stored?.bytes.subarray(1, 4).toString()).toBe('PNG');
    }
  });
});
