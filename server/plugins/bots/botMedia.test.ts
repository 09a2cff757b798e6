/**
 * A bot step message's uploaded media through the bot service and the main API's bot calls: rows keep
 * the plain URL, every answer hands out a signed URL the canvas's preview can load (the plain URL of a
 * chat key answers 403), and a signed URL sent back is stored plain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Bot, BotStep, BranchGraph } from '../../../contract/bots';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { botSteps } from './schema';
import { botServiceCall, botServiceCompany, uploadChatImage, type BotServiceCompany as Company } from './testing';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('step image bytes')]);
const SIGNED = /^\/media\/chats\/\d+\/[0-9a-f]{32}\/photo\.png\?exp=\d+&sig=[0-9a-f]{64}$/;

describe('bot step media', () => {
  let t: TestApp;
  let n = 0;
  let A: Company;
  let B: Company;

  const company = (): Promise<Company> => {
    n++;
    return botServiceCompany(t, `Bot media ${n}`, `botmedia${n}.test`);
  };
  const svc = (key: string, method: 'GET' | 'POST' | 'PATCH', path: string, payload?: unknown) => botServiceCall(t, key, method, path, payload);
  const upload = (c: Company) => uploadChatImage(t, c.f, 'photo.png', PNG);

  /** A GET as the preview's <img> makes it: no credentials. */
  const load = (url: string) => t.app.inject({ method: 'GET', url });

  const storedMedia = async (botId: number, stepId: string) =>
    (await t.db.select().from(botSteps).where(and(eq(botSteps.botId, botId), eq(botSteps.id, stepId))))[0].messages.map((m) => m.media_url);

  const image = (url: string) => ({ type: 'image', text: '', media_url: url });

  const newBot = async (c: Company, name: string): Promise<Bot> => {
    const res = await svc(c.key, 'POST', '/api/bots/', { name });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Bot>();
  };

  beforeAll(async () => {
    t = await createTestApp();
    A = await company();
    B = await company();
  });
  afterAll(() => t.close());

  describe('an uploaded step image', () => {
    let plain: string;
    let foreign: string;

    beforeAll(async () => {
      plain = await upload(A);
      foreign = await upload(B);
    });

    it('is stored plain and answered signed by every bot-service read; the signed URL loads, the plain one is 403', async () => {
      expect(plain).toMatch(new RegExp(`^/media/chats/${A.f.company}/[0-9a-f]{32}/photo\\.png$`));
      expect((await load(plain)).statusCode).toBe(403);
      const bot = await newBot(A, 'Photo bot');

      const created = await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'hello', messages: [image(plain)] });
      expect(created.statusCode, created.body).toBe(201);
      const signed = created.json<BotStep>().messages[0].media_url!;
      expect(signed).toMatch(SIGNED);
      expect(signed.startsWith(`${plain}?`)).toBe(true);
      const got = await load(signed);
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload).toEqual(PNG);
      expect(await storedMedia(bot.id, 'hello')).toEqual([plain]);

      const detail = (await svc(A.key, 'GET', `/api/bots/${bot.id}/`)).json<Bot>();
      expect(detail.steps[0].messages[0].media_url).toMatch(SIGNED);
      const graph = (await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json<BranchGraph>();
      expect(graph.steps[0].messages[0].media_url).toMatch(SIGNED);
      expect((await load(graph.steps[0].messages[0].media_url!)).statusCode).toBe(200);
    });

    it('sent back signed (step PATCH, bot PATCH, branch save) is stored plain and answered signed', async () => {
      const bot = await newBot(A, 'Round trip bot');
      const first = (await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'hello', messages: [image(plain)] })).json<BotStep>();
      const signed = first.messages[0].media_url!;

      const patched = await svc(A.key, 'PATCH', `/api/bots/${bot.id}/steps/hello/`, { messages: [image(signed), image(signed)] });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json<BotStep>().messages.map((m) => m.media_url)).toEqual([expect.stringMatching(SIGNED), expect.stringMatching(SIGNED)]);
      expect(await storedMedia(bot.id, 'hello')).toEqual([plain, plain]);

      const botPatch = await svc(A.key, 'PATCH', `/api/bots/${bot.id}/`, { steps: [{ id: 'hello', messages: [image(signed)] }] });
      expect(botPatch.statusCode, botPatch.body).toBe(200);
      expect(botPatch.json<Bot>().steps[0].messages[0].media_url).toMatch(SIGNED);
      expect(await storedMedia(bot.id, 'hello')).toEqual([plain]);

      const graph = (await svc(A.key, 'GET', `/branch/fetch/?bot=${bot.id}`)).json<BranchGraph>();
      const saved = await svc(A.key, 'POST', '/branch/update_or_create/', { bot: bot.id, steps: [...graph.steps, { id: 'more', messages: [image(signed)] }] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<BranchGraph>().steps.map((s) => s.messages[0].media_url)).toEqual([expect.stringMatching(SIGNED), expect.stringMatching(SIGNED)]);
      expect(await storedMedia(bot.id, 'hello')).toEqual([plain]);
      expect(await storedMedia(bot.id, 'more')).toEqual([plain]);
    });

    it('the main API bot calls (bulk steps, steps list, PATCH) store plain and answer signed', async () => {
      const bot = await newBot(A, 'Main API bot');
      const bulk = await A.f.call(A.f.admin, 'POST', `/api/bots/${bot.id}/steps/`, { data: { steps: [{ id: 'start', messages: [image(plain)] }], options: [] } });
      expect(bulk.statusCode, bulk.body).toBe(201);
      const signed = bulk.json<{ steps: BotStep[] }>().steps[0].messages[0].media_url!;
      expect(signed).toMatch(SIGNED);
      expect(await storedMedia(bot.id, 'start')).toEqual([plain]);

      const listed = await A.f.call(A.f.admin, 'GET', `/api/bots/${bot.id}/steps/`);
      expect(listed.json<{ results: BotStep[] }>().results[0].messages[0].media_url).toMatch(SIGNED);

      const patched = await A.f.call(A.f.admin, 'PATCH', `/api/bots/${bot.id}/`, { steps: [{ id: 'start', messages: [image(signed), { text: 'Hi' }] }] });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json<Bot>().steps[0].messages[0].media_url).toMatch(SIGNED);
      expect(await storedMedia(bot.id, 'start')).toEqual([plain, null]);
      expect((await load(patched.json<Bot>().steps[0].messages[0].media_url!)).statusCode).toBe(200);
    });

    it("another company's upload is refused at save (issue #25) and its plain URL stays unreadable; another site's URL is kept as given", async () => {
      const bot = await newBot(A, 'Foreign media bot');
      const external = 'https://cdn.example.com/a.png?v=1';
      const refused = await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'hello', messages: [image(foreign), image(external)] });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.body).toContain('foreign_media');
      expect((await load(foreign)).statusCode).toBe(403);
      const created = await svc(A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 'hello', messages: [image(external)] });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json<BotStep>().messages.map((m) => m.media_url)).toEqual([external]);
      expect(await storedMedia(bot.id, 'hello')).toEqual([external]);
    });
  });
});
