/**
 * A flow's uploaded media (intro_media_url, find_out_more_media_url) through the bot service: rows keep
 * the plain URL, every answer hands out a signed URL the editor's preview can load (the plain URL of a
 * chat key answers 403), and a signed URL sent back on save is stored plain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Flow, FlowVersion, FlowVersionDetail } from '../../../contract/flows';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { botServiceCall, botServiceCompany, uploadChatImage, type BotServiceCompany as Company } from '../bots/testing';
import { flows, flowVersions } from './schema';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('tour image bytes')]);
const SIGNED = /^\/media\/chats\/\d+\/[0-9a-f]{32}\/tour\.png\?exp=\d+&sig=[0-9a-f]{64}$/;

const flowBody = (name: string, media: { intro: string | null; more: string | null }) => ({
  flow_name: name,
  description: 'About us',
  company_name: 'Acme',
  company_domain: 'acme.test',
  extra_context: [],
  intro_msg: 'Welcome!',
  intro_media_url: media.intro,
  find_out_more_msg: 'More',
  find_out_more_media_url: media.more,
  call_to_action: null,
  keywords: [],
  steps: [{ step_id: 's1', next_step_id: null, step_msg: 'Hi', type: 'text', options: [] }],
});

describe('flow media in the bot service', () => {
  let t: TestApp;
  let n = 0;
  let A: Company;
  let B: Company;

  const company = (): Promise<Company> => {
    n++;
    return botServiceCompany(t, `Flow media ${n}`, `flowmedia${n}.test`);
  };
  const svc = (key: string, method: 'GET' | 'POST', path: string, payload?: unknown) => botServiceCall(t, key, method, path, payload);
  const upload = (c: Company) => uploadChatImage(t, c.f, 'tour.png', PNG);

  /** A GET as the preview's <img> makes it: no credentials. */
  const load = (url: string) => t.app.inject({ method: 'GET', url });

  const row = async (id: number) => (await t.db.select().from(flows).where(eq(flows.id, id)))[0];

  beforeAll(async () => {
    t = await createTestApp();
    A = await company();
    B = await company();
  });
  afterAll(() => t.close());

  describe('an uploaded intro image', () => {
    let plain: string;
    let foreign: string;
    let flow: Flow;

    beforeAll(async () => {
      plain = await upload(A);
      foreign = await upload(B);
      const created = await svc(A.key, 'POST', '/api/flows/', { flow_name: 'Tour', description: 'About us', company_name: 'Acme', company_domain: 'acme.test' });
      expect(created.statusCode).toBe(201);
      flow = created.json<Flow>();
    });

    it('is stored plain and answered as a signed URL the preview loads (its plain URL answers 403)', async () => {
      expect(plain).toMatch(new RegExp(`^/media/chats/${A.f.company}/[0-9a-f]{32}/tour\\.png$`));
      expect((await load(plain)).statusCode).toBe(403);

      const saved = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, flowBody('Tour', { intro: plain, more: null }));
      expect(saved.statusCode, saved.body).toBe(200);
      const signed = saved.json<Flow>().intro_media_url!;
      expect(signed).toMatch(SIGNED);
      expect(signed.startsWith(`${plain}?`)).toBe(true);
      const image = await load(signed);
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload).toEqual(PNG);

      expect((await row(flow.id)).introMediaUrl).toBe(plain);

      // Every read hands the signed URL out: the detail, the list, the version's snapshot.
      expect((await svc(A.key, 'GET', `/api/flows/${flow.id}/`)).json<Flow>().intro_media_url).toMatch(SIGNED);
      const listed = (await svc(A.key, 'GET', '/api/flows/')).json<Flow[]>().find((f) => f.id === flow.id)!;
      expect(listed.intro_media_url).toMatch(SIGNED);
      expect((await load(listed.intro_media_url!)).statusCode).toBe(200);
      const [latest] = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/`)).json<FlowVersion[]>();
      const detail = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/${latest.id}/`)).json<FlowVersionDetail>();
      expect(detail.snapshot.intro_media_url).toMatch(SIGNED);
      expect((await load(detail.snapshot.intro_media_url!)).statusCode).toBe(200);
    });

    it('sent back signed on save, is stored plain (rows and versions); a restore stores it plain too', async () => {
      const current = (await svc(A.key, 'GET', `/api/flows/${flow.id}/`)).json<Flow>();
      expect(current.intro_media_url).toMatch(SIGNED);
      const { id: _id, version: _version, created_at: _c, updated_at: _u, ...fields } = current;
      const saved = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, { ...fields, find_out_more_media_url: current.intro_media_url });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<Flow>().find_out_more_media_url).toMatch(SIGNED);

      const stored = await row(flow.id);
      expect(stored.introMediaUrl).toBe(plain);
      expect(stored.findOutMoreMediaUrl).toBe(plain);
      const snapshots = await t.db.select().from(flowVersions).where(eq(flowVersions.flowId, flow.id));
      for (const v of snapshots) {
        expect(JSON.stringify(v.snapshot)).not.toContain('sig=');
      }

      const [, previous] = (await svc(A.key, 'GET', `/api/flows/${flow.id}/versions/`)).json<FlowVersion[]>();
      const restored = await svc(A.key, 'POST', `/api/flows/${flow.id}/versions/${previous.id}/restore/`);
      expect(restored.statusCode, restored.body).toBe(200);
      expect(restored.json<Flow>().intro_media_url).toMatch(SIGNED);
      expect((await row(flow.id)).introMediaUrl).toBe(plain);
    });

    it("another company's upload is kept as given and never signed (it stays unreadable)", async () => {
      expect(foreign).toMatch(new RegExp(`^/media/chats/${B.f.company}/`));
      const saved = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, flowBody('Tour', { intro: plain, more: foreign }));
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json<Flow>().find_out_more_media_url).toBe(foreign);
      expect((await svc(A.key, 'GET', `/api/flows/${flow.id}/`)).json<Flow>().find_out_more_media_url).toBe(foreign);
      expect((await row(flow.id)).findOutMoreMediaUrl).toBe(foreign);
      expect((await load(foreign)).statusCode).toBe(403);
    });

    it('another site’s URL is kept and answered as given', async () => {
      const external = 'https://cdn.acme.test/intro.png?v=2';
      const saved = await svc(A.key, 'POST', `/api/flows/${flow.id}/save/`, flowBody('Tour', { intro: external, more: null }));
      expect(saved.json<Flow>().intro_media_url).toBe(external);
      expect((await row(flow.id)).introMediaUrl).toBe(external);
    });
  });
});
