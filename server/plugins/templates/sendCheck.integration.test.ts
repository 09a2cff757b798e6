/**
 * Template sends from the inbox checked against our synced copy of the approved template: a
 * carousel carries exactly its approved number of cards, a media header its file; what passes
 * reaches the Cloud API with the header and the cards in Meta's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { rooms, whatsappTemplates } from '../../core/db/schema';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { postWebhook, waInbound } from '../channels/testing';
import { identityFor, type FakeSocket, type ChannelRow } from '../chats';

const imageCard = (text: string) => ({
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } },
    { type: 'BODY', text },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }] },
  ],
});

describe('template sends checked against the approved template', () => {
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let wa: ChannelRow;
  let ctx: FakeSocket;
  let seq = 0;

  beforeAll(async () => {
    t = await channelsTestApp('pglite');
    acme = await companyFixture(t, 'Acme', 'acme.test');
    wa = await insertChannel(t, acme.company, { platform: 'whatsapp', externalId: 'pn-300', token: 'wa-token', wabaId: 'waba-300' });
    const stored = (name: string, components: unknown[]) => ({ companyId: acme.company, channelId: wa.id, wabaId: 'waba-300', metaTemplateId: `m-${name}`, name, language: 'en_US', category: 'MARKETING', components, status: 'APPROVED' });
    await t.db.insert(whatsappTemplates).values([
      stored('picks', [{ type: 'BODY', text: 'Picked for you.' }, { type: 'CAROUSEL', cards: [imageCard('One'), imageCard('Two'), imageCard('Three')] }]),
      stored('shipped', [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::x'] } }, { type: 'BODY', text: 'Order {{1}} shipped.' }]),
    ]);
    await postWebhook(t, waInbound(wa.externalId, '15550000301', 'Customer', { id: 'wamid.T1', type: 'text', text: { body: 'hi' } }));
    await t.settled();
    const [room] = await t.db.select().from(rooms).where(eq(rooms.externalId, '15550000301'));
    const joined = await t.hub.join(identityFor({ userId: acme.agent.id, email: acme.agent.email, companyId: acme.company, role: 'agent' }), `room:${room.id}`);
    ctx = joined.ctx;
  });
  afterAll(() => t.close());

  const send = (msg: Record<string, unknown>) => t.hub.push(ctx, 'send_message', { message: { client_id: `t${++seq}`, type: 'template', text: 'x', ...msg } });
  const card = (n: number) => ({ type: 'image', link: `https://cdn.example.com/${n}.jpg`, parameters: [] });

  it('a carousel approved with 3 cards is refused with 2, sent with 3', async () => {
    const refused = await send({ template: { name: 'picks', language: 'en_US', cards: [card(1), card(2)] } });
    expect(refused).toMatchObject({ status: 'error', response: { reason: 'invalid payload', errors: { template: ['This carousel template has 3 cards: send exactly 3 cards (2 given).'] } } });
    const sent = await send({ template: { name: 'picks', language: 'en_US', cards: [card(1), card(2), card(3)] } });
    expect(sent.status).toBe('ok');
    await t.settled();
    expect(t.graph.sent.at(-1)!.content).toEqual({
      kind: 'template',
      name: 'picks',
      language: 'en_US',
      bodyParameters: [],
      cards: [1, 2, 3].map((n) => ({ type: 'image', link: `https://cdn.example.com/${n}.jpg`, bodyParameters: [] })),
    });
  });

  it('an image header needs its image; the message’s media is the header', async () => {
    const refused = await send({ template: { name: 'shipped', language: 'en_US', parameters: ['A-1'] } });
    expect(refused).toMatchObject({ status: 'error', response: { errors: { template: ['This template has an image header: attach its image.'] } } });
    const sent = await send({ media_url: '/media/chats/1/x/box.png', media_type: 'image/png', template: { name: 'shipped', language: 'en_US', parameters: ['A-1'], header: { type: 'image' } } });
    expect(sent.status).toBe('ok');
    await t.settled();
    expect(t.graph.sent.at(-1)!.content).toMatchObject({
      kind: 'template',
      name: 'shipped',
      bodyParameters: ['A-1'],
      header: { type: 'image', link: expect.stringContaining('/media/chats/1/x/box.png') },
    });
  });

  it('a template we have no copy of is left for Meta to judge', async () => {
    expect((await send({ template: { name: 'unknown_here', language: 'en_US', parameters: [] } })).status).toBe('ok');
  });
});
