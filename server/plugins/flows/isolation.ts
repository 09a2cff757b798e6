/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * One flow per company (two steps, an option, two versions), B's names and texts carrying the
 * marker. The bot-service key is the bots area's (it runs first and installs the real key).
 * A's key with B's ids: every call is a 404 and B's rows stay as they were.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { IsolationArea } from '../../testing/isolation/areas';
import { FlowService } from './service';
import { FlowDefaultsService } from './defaults';
import { flowChannelDefaults, flows, flowSteps, flowVersions } from './schema';

const BASE = '/bot-service';

const flowBody = (mark: string) => ({ flow_name: `Flow${mark}`, description: `About${mark}`, company_name: `Company${mark}`, company_domain: 'example.com', extra_context: [`Context${mark}`] });

export const flowsIsolation: IsolationArea = {
  name: 'flows',
  async seed(t, company, mark) {
    const service = new FlowService(t.db, t.clock);
    const flow = await service.create(company.id, flowBody(mark), 'seed');
    const saved = await service.save(
      company.id,
      flow.id,
      {
        ...flowBody(mark),
        intro_msg: `Intro${mark}`,
        intro_media_url: null,
        find_out_more_msg: `More${mark}`,
        find_out_more_media_url: null,
        call_to_action: 'Go',
        keywords: [`kw${mark.trim().toLowerCase().slice(0, 20)}`.trim()],
        steps: [
          { step_id: 's1', next_step_id: 's2', step_msg: `Step${mark}`, type: 'options', options: [{ text: 'Next', next_step_id: 's2' }] },
          { step_id: 's2', next_step_id: null, step_msg: `End${mark}`, type: 'text', options: [] },
        ],
      },
      'seed',
    );
    const versions = await service.versions(company.id, flow.id);
    // the flow is the sandbox channel's default for new conversations (defaults.ts)
    await new FlowDefaultsService(t.db, t.clock).set(company.id, company.sandboxChannelId, flow.id);
    return { flowId: saved.id, flowVersionId: versions[versions.length - 1].id };
  },

  async snapshot(t, companyId) {
    const rows = await t.db.select().from(flows).where(eq(flows.companyId, companyId)).orderBy(asc(flows.id));
    const ids = rows.map((r) => r.id);
    return {
      flows: rows,
      steps: ids.length ? await t.db.select().from(flowSteps).where(inArray(flowSteps.flowId, ids)).orderBy(asc(flowSteps.flowId), asc(flowSteps.position)) : [],
      versions: await t.db.select().from(flowVersions).where(eq(flowVersions.companyId, companyId)).orderBy(asc(flowVersions.id)),
      channelDefaults: await t.db.select().from(flowChannelDefaults).where(eq(flowChannelDefaults.companyId, companyId)).orderBy(asc(flowChannelDefaults.channelId)),
    };
  },

  routes: {
    [`GET ${BASE}/api/flows/`]: { allowed: [200] },
    // A creates its own flow (B's data untouched).
    [`POST ${BASE}/api/flows/`]: { body: () => ({ flow_name: 'Created by A', description: 'A', company_name: 'A', company_domain: 'a.example', extra_context: [] }), allowed: [201] },
    [`GET ${BASE}/api/flows/:id/`]: { params: (w) => ({ id: w.B.areas.flows.flowId }) },
    [`POST ${BASE}/api/flows/:id/save/`]: {
      params: (w) => ({ id: w.B.areas.flows.flowId }),
      body: () => ({ flow_name: 'Saved by A', description: 'A', company_name: 'A', company_domain: 'a.example', extra_context: [], steps: [] }),
    },
    [`DELETE ${BASE}/api/flows/:id`]: { params: (w) => ({ id: w.B.areas.flows.flowId }) },
    [`DELETE ${BASE}/api/flows/:id/`]: { params: (w) => ({ id: w.B.areas.flows.flowId }) },
    [`GET ${BASE}/api/flows/:id/stats/`]: { params: (w) => ({ id: w.B.areas.flows.flowId }) },
    [`GET ${BASE}/api/flows/:id/versions/`]: { params: (w) => ({ id: w.B.areas.flows.flowId }) },
    [`GET ${BASE}/api/flows/:id/versions/:versionId/`]: { params: (w) => ({ id: w.B.areas.flows.flowId, versionId: w.B.areas.flows.flowVersionId }) },
    'POST /api/flows/:id/test-chat/': { params: (w) => ({ id: w.B.areas.flows.flowId }), body: () => ({ text: 'hi' }) },
    [`POST ${BASE}/api/flows/:id/versions/:versionId/restore/`]: { params: (w) => ({ id: w.B.areas.flows.flowId, versionId: w.B.areas.flows.flowVersionId }) },
    // main API: a channel's default flow (defaults.ts); A lists its own, and cannot point B's channel at B's flow
    'GET /api/flows/channel-defaults/': { allowed: [200] },
    'PUT /api/flows/channel-defaults/:channelId/': { params: (w) => ({ channelId: w.B.sandboxChannelId }), body: (w) => ({ flow_id: w.B.areas.flows.flowId }) },
  },
};
