/**
 * A signed webhook carrying NUL characters (which PostgreSQL cannot store) is stored and processed with
 * them stripped, answered 200 once: it must never fail forever while Meta keeps retrying it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { messages, rooms, webhookEvents } from '../../core/db/schema';
import { channelsTestApp, companyFixture, eventually, insertChannel, type ChannelsTestApp } from './testFixtures';
import { postWebhook, waInbound } from './testing';
import { type ChannelRow } from '../chats';

describe('webhook payloads with NUL characters', () => {
  let t: ChannelsTestApp;
  let wa: ChannelRow;

  beforeAll(async () => {
    t = await channelsTestApp('pglite');
    const acme = await companyFixture(t, 'Acme', 'acme.test');
    wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-nul', token: 'wa-token' });
  });
  afterAll(() => t.close());

  it('are stored without the NULs and become a normal message', async () => {
    const payload = waInbound(wa.externalId, '15550001234', 'Nu\u0000ll', { id: 'wamid.NUL1', type: 'text', text: { body: 'hel\u0000lo' } });
    const res = await postWebhook(t, payload);
    expect(res.statusCode).toBe(200);
    const [event] = await t.db.select().from(webhookEvents).orderBy(webhookEvents.id);
    expect(JSON.stringify(event.payload)).not.toContain('\\u0000');
    await eventually(async () => {
      const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, wa.id), eq(rooms.externalId, '15550001234')));
      expect(room?.name).toBe('Null');
      const stored = await t.db.select().from(messages).where(eq(messages.roomId, room.id));
      expect(stored.map((m) => m.text)).toEqual(['hello']);
    });
  });

  it('a signed body nested deeper than the limit is refused as invalid JSON, not a 500', async () => {
    const deep = '{"entry":' + '['.repeat(5_000) + ']'.repeat(5_000) + '}';
    const res = await postWebhook(t, deep);
    expect(res.statusCode).toBe(400);
  });
});
