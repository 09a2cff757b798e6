/**
 * A bot's draft, publish, versions and restore (issue #25): the canvas's edits go to a draft that
 * accepts what is still being built; Publish refuses with every problem named in plain words; the
 * runtime keeps running the published version; a version restored comes back as the draft.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Bot } from '../../../contract/bots';
import type { BotDraft, BotNotReadyBody, BotVersionListResponse } from '../../../contract/botDrafts';
import { messages, rooms } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { chatService } from '../chats';
import { ensureSandboxChannel } from '../sandbox';
import { botDrafts, botVersions } from './schema';
import { botServiceCall, botServiceCompany, uploadChatImage, type BotServiceCompany } from './testing';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

describeEachDatabase('bot drafts', (database) => {
  let t: TestApp;
  let A: BotServiceCompany;
  let B: BotServiceCompany;
  let n = 0;

  const api = (c: BotServiceCompany, method: 'GET' | 'PUT' | 'POST', path: string, payload?: unknown, who: 'admin' | 'manager' | 'agent' = 'admin') =>
    c.f.call(c.f[who], method, path, payload as Record<string, unknown> | undefined);

  const newBot = async (c: BotServiceCompany, channels: number[] = []): Promise<Bot> => {
    const res = await botServiceCall(t, c.key, 'POST', '/api/bots/', { name: `Draft bot ${++n}`, channels });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Bot;
  };

  const greeting = (media: { type: 'image'; media_url: string | null } | null) => ({
    step: 'hello',
    fallback_step_id: null,
    steps: [
      {
        id: 'hello',
        messages: [{ text: 'Welcome to the shop', media_url: null, type: 'text' }, ...(media ? [{ text: '', ...media }] : [])],
        options: [],
        next_step_id: null,
        layout: { x: 300, y: 300 },
        actions: [{ type: 'hand_over' }],
        input: null,
      },
    ],
  });

  beforeAll(async () => {
    t = await createTestApp({ database });
    A = await botServiceCompany(t, 'Drafts A', 'drafts-a.test');
    B = await botServiceCompany(t, 'Drafts B', 'drafts-b.test');
  });
  afterAll(() => t.close());

  it('a draft accepts a half-built step (an image not uploaded, an operation not chosen) and lists what it lacks', async () => {
    const bot = await newBot(A);
    const body = greeting({ type: 'image', media_url: null });
    body.steps[0].actions = [{ type: 'run_operation', operation_id: 0, variables: {} } as never, { type: 'add_tag', tag: '' } as never];
    const saved = await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, body);
    expect(saved.statusCode, saved.body).toBe(200);
    const draft = saved.json<BotDraft>();
    expect(draft.unpublished_changes).toBe(true);
    expect(draft.published_version).toBeNull();
    expect(draft.problems).toEqual([
      { code: 'media_missing', step: 'hello', message: 2, media: 'image' },
      { code: 'operation_missing', step: 'hello' },
      { code: 'tag_missing', step: 'hello' },
    ]);
    // The choice of Image is kept: read again, the draft still says image.
    const again = (await api(A, 'GET', `/api/bots/${bot.id}/draft/`)).json<BotDraft>();
    expect(again.steps[0].messages[1]).toEqual({ text: '', media_url: null, type: 'image' });
    // The live bot is untouched.
    expect((await botServiceCall(t, A.key, 'GET', `/api/bots/${bot.id}/`)).json<Bot>().steps).toEqual([]);
  });

  it('a draft still refuses what is no draft at all (unbounded values, twice the same step), as a 400', async () => {
    const bot = await newBot(A);
    const long = greeting(null);
    long.steps[0].messages[0].text = 'x'.repeat(5000);
    expect((await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, long)).statusCode).toBe(400);
    const twice = greeting(null);
    twice.steps.push({ ...twice.steps[0] });
    const res = await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, twice);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ 'steps.1.id': ['Step "hello" appears twice.'] });
    const layout = greeting(null);
    layout.steps[0].layout = { x: 1e-50, y: 0 };
    expect((await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, layout)).statusCode).toBe(400);
  });

  it('publish refuses a draft with problems, naming the step and the problem in plain words', async () => {
    const bot = await newBot(A);
    await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, greeting({ type: 'image', media_url: null }));
    const res = await api(A, 'POST', `/api/bots/${bot.id}/publish/`);
    expect(res.statusCode).toBe(400);
    const body = res.json<BotNotReadyBody>();
    expect(body.code).toBe('not_ready');
    expect(body.detail).toBe('The bot cannot be published yet. Step "Welcome to the shop": message 2 is set to image but no file is uploaded yet.');
    expect(body.problems).toEqual([{ code: 'media_missing', step: 'hello', message: 2, media: 'image', detail: 'Step "Welcome to the shop": message 2 is set to image but no file is uploaded yet.' }]);
    // Nothing went live, no version.
    expect((await api(A, 'GET', `/api/bots/${bot.id}/versions/`)).json()).toEqual({ count: 0, results: [] });
    // An empty bot cannot be published either.
    const empty = await newBot(A);
    const none = await api(A, 'POST', `/api/bots/${empty.id}/publish/`);
    expect(none.statusCode).toBe(400);
    expect(none.json<BotNotReadyBody>().detail).toBe('The bot cannot be published yet. The bot has no step yet.');
  });

  it('the runtime runs the published version while the draft changes; publishing makes the draft live', async () => {
    const channel = await ensureSandboxChannel(t.db, A.f.company);
    const bot = await newBot(A, [channel.id]);
    await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, greeting(null));
    const published = await api(A, 'POST', `/api/bots/${bot.id}/publish/`);
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json<BotDraft>()).toMatchObject({ unpublished_changes: false, published_version: 1, problems: [] });
    expect(await t.db.select().from(botDrafts).where(eq(botDrafts.botId, bot.id))).toEqual([]);

    // The builder starts an image: customers still meet version 1.
    const editing = greeting({ type: 'image', media_url: null });
    editing.steps[0].messages[0].text = 'Welcome, new text';
    await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, editing);
    const say = async (who: string) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/sandbox/${channel.simulatorKey}/conversations/${who}/messages/`, payload: { name: who, client_id: `${who}-1`, text: 'hi' } });
      expect(res.statusCode, res.body).toBeLessThan(300);
      await chatService(t.app).settled();
      const [room] = await t.db.select().from(rooms).where(and(eq(rooms.channelId, channel.id), eq(rooms.externalId, who)));
      const rows = await t.db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(asc(messages.id));
      return rows.filter((m) => m.origin === 'bot').map((m) => ({ type: m.type, text: m.text, media: m.mediaUrl }));
    };
    expect((await say('first-customer'))[0]).toEqual({ type: 'text', text: 'Welcome to the shop', media: null });
    // The builder's test chat tries the draft (the image not uploaded yet says nothing).
    const tried = await api(A, 'POST', `/api/bots/${bot.id}/test-chat/`, { reset: true });
    expect(tried.statusCode, tried.body).toBe(200);
    expect(tried.json<{ messages: { type: string; text: string | null }[] }>().messages.map((m) => [m.type, m.text])).toEqual([['text', 'Welcome, new text']]);

    // Uploaded and published: the next customer gets the new text and the image.
    const url = await uploadChatImage(t, A.f, 'shop.png', PNG);
    editing.steps[0].messages[1].media_url = url;
    const ready = (await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, editing)).json<BotDraft>();
    expect(ready.problems).toEqual([]);
    expect(ready.unpublished_changes).toBe(true);
    const second = await api(A, 'POST', `/api/bots/${bot.id}/publish/`);
    expect(second.json<BotDraft>()).toMatchObject({ unpublished_changes: false, published_version: 2 });
    const answer = await say('second-customer');
    expect(answer[0]).toEqual({ type: 'text', text: 'Welcome, new text', media: null });
    expect(answer[1]).toMatchObject({ type: 'image' });
    expect(answer[1].media).toContain(url.split('/').pop());
  });

  it('versions are listed newest first with who published them; a restore comes back as the draft, publishing it goes live', async () => {
    const bot = await newBot(A);
    await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, greeting(null));
    await api(A, 'POST', `/api/bots/${bot.id}/publish/`);
    const second = greeting(null);
    second.steps[0].messages[0].text = 'Second text';
    await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, second, 'manager');
    await api(A, 'POST', `/api/bots/${bot.id}/publish/`, undefined, 'manager');
    const list = (await api(A, 'GET', `/api/bots/${bot.id}/versions/`)).json<BotVersionListResponse>();
    expect(list.count).toBe(2);
    expect(list.results.map((v) => [v.version, v.kind, v.live, v.steps_count])).toEqual([
      [2, 'publish', true, 1],
      [1, 'publish', false, 1],
    ]);
    expect(list.results[0].created_by).not.toBe(list.results[1].created_by);
    expect(list.results[1].created_by).toMatch(/\S/);
    // Paged like every list.
    expect((await api(A, 'GET', `/api/bots/${bot.id}/versions/?page=2&page_size=1`)).json<BotVersionListResponse>().results.map((v) => v.version)).toEqual([1]);

    const restored = await api(A, 'POST', `/api/bots/${bot.id}/versions/${list.results[1].id}/restore/`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json<BotDraft>()).toMatchObject({ unpublished_changes: true, published_version: 2 });
    expect(restored.json<BotDraft>().steps[0].messages[0].text).toBe('Welcome to the shop');
    // Still version 2 live until published.
    expect((await botServiceCall(t, A.key, 'GET', `/api/bots/${bot.id}/`)).json<Bot>().steps[0].messages[0].text).toBe('Second text');
    await api(A, 'POST', `/api/bots/${bot.id}/publish/`);
    const after = (await api(A, 'GET', `/api/bots/${bot.id}/versions/`)).json<BotVersionListResponse>();
    expect(after.results[0]).toMatchObject({ version: 3, kind: 'publish', restored_from: 1, live: true });
    expect((await botServiceCall(t, A.key, 'GET', `/api/bots/${bot.id}/`)).json<Bot>().steps[0].messages[0].text).toBe('Welcome to the shop');
  });

  it("the bot service's step calls still change the live bot at once (existing clients), each change a version", async () => {
    const bot = await newBot(A);
    const created = await botServiceCall(t, A.key, 'POST', `/api/bots/${bot.id}/steps/`, { id: 's1', messages: [{ text: 'Hi' }], options: [], next_step_id: null });
    expect(created.statusCode).toBe(201);
    // Still refused when incomplete, as before (they write the live bot).
    expect((await botServiceCall(t, A.key, 'PATCH', `/api/bots/${bot.id}/steps/s1/`, { messages: [{ type: 'image', text: '' }] })).statusCode).toBe(400);
    // A rename makes no version.
    await botServiceCall(t, A.key, 'PATCH', `/api/bots/${bot.id}/`, { name: `Renamed ${n}` });
    const versions = (await api(A, 'GET', `/api/bots/${bot.id}/versions/`)).json<BotVersionListResponse>();
    expect(versions.results.map((v) => [v.version, v.kind, v.created_by])).toEqual([[1, 'save', 'API']]);
    const draft = (await api(A, 'GET', `/api/bots/${bot.id}/draft/`)).json<BotDraft>();
    expect(draft).toMatchObject({ unpublished_changes: false, published_version: 1, problems: [] });
    expect(draft.steps[0].messages[0].text).toBe('Hi');
  });

  it('follows the permissions: agents read, only managers and admins edit, publish and restore', async () => {
    const bot = await newBot(A);
    expect((await api(A, 'GET', `/api/bots/${bot.id}/draft/`, undefined, 'agent')).statusCode).toBe(200);
    expect((await api(A, 'GET', `/api/bots/${bot.id}/versions/`, undefined, 'agent')).statusCode).toBe(200);
    expect((await api(A, 'PUT', `/api/bots/${bot.id}/draft/`, greeting(null), 'agent')).statusCode).toBe(403);
    expect((await api(A, 'POST', `/api/bots/${bot.id}/publish/`, undefined, 'agent')).statusCode).toBe(403);
  });

  it("another company's bot and version answer 404 and stay as they were", async () => {
    const bot = await newBot(B);
    await api(B, 'PUT', `/api/bots/${bot.id}/draft/`, greeting(null));
    await api(B, 'POST', `/api/bots/${bot.id}/publish/`);
    const [version] = await t.db.select().from(botVersions).where(eq(botVersions.botId, bot.id));
    for (const [method, path] of [
      ['GET', `/api/bots/${bot.id}/draft/`],
      ['PUT', `/api/bots/${bot.id}/draft/`],
      ['POST', `/api/bots/${bot.id}/publish/`],
      ['GET', `/api/bots/${bot.id}/versions/`],
      ['POST', `/api/bots/${bot.id}/versions/${version.id}/restore/`],
    ] as const) {
      const res = await api(A, method, path, method === 'PUT' ? greeting({ type: 'image', media_url: null }) : undefined);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    // A's own bot with B's version id: 404 too.
    const mine = await newBot(A);
    expect((await api(A, 'POST', `/api/bots/${mine.id}/versions/${version.id}/restore/`)).statusCode).toBe(404);
    expect(await t.db.select().from(botDrafts).where(eq(botDrafts.botId, bot.id))).toEqual([]);
  });
});
