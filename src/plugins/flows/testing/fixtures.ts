import { HttpError } from '../../../core';
import type { Flow, FlowVersion } from '../../../../contract/flows';
import { createFakeHttp } from '../../../core/testing/fakeHttp';

export function flowFixture(id: number, name: string, extra: Partial<Flow> = {}): Flow {
  return {
    id,
    flow_name: name,
    description: `About ${name}`,
    company_name: 'Acme',
    company_domain: 'acme.test',
    extra_context: ['Returns are free.'],
    intro_msg: 'Welcome!',
    intro_media_url: null,
    find_out_more_msg: 'More on acme.test.',
    find_out_more_media_url: null,
    call_to_action: 'Shop now',
    keywords: ['tour'],
    steps: [
      { step_id: 'pick', next_step_id: null, step_msg: 'What interests you?', type: 'options', options: [{ text: 'Products', next_step_id: 'products' }] },
      { step_id: 'products', next_step_id: null, step_msg: 'Lamps and linen.', type: 'text', options: [] },
      { step_id: 'bye', next_step_id: null, step_msg: 'Bye!', type: 'text', options: [] },
    ],
    version: 2,
    created_at: '2026-01-01T10:00:00Z',
    updated_at: '2026-01-02T10:00:00Z',
    ...extra,
  };
}

export const version = (id: number, v: number, kind: FlowVersion['kind'], extra: Partial<FlowVersion> = {}): FlowVersion => ({
  id,
  version: v,
  created_by: 'key abcdefgh…',
  created_at: '2026-01-02T10:00:00Z',
  kind,
  restored_from: null,
  changes: { fields: [], steps_added: [], steps_removed: [], steps_changed: [], steps_reordered: false },
  ...extra,
});

export interface FakeFlowServerOptions {
  failList?: boolean;
  failCreate?: unknown;
  failSave?: unknown;
  failDelete?: unknown;
  perCompany?: Record<number, Flow[]>;
}

/** The bot service's flow calls and the main API's integration and test chat, in memory. */
export function fakeFlowServer(flows: Flow[], options: FakeFlowServerOptions = {}) {
  let list = [...flows];
  const versions: FlowVersion[] = [version(2, 2, 'save', { changes: { fields: ['intro_msg'], steps_added: ['bye'], steps_removed: [], steps_changed: [], steps_reordered: false } }), version(1, 1, 'create')];
  const http = createFakeHttp((method, path, opts) => {
    if (path === '/api/bots/integration/') return { endpoint: '/bot-service', access_key: 'k' };
    const companyList = () => (options.perCompany ? (options.perCompany[Number((opts.headers as Record<string, string> | undefined)?.Company ?? 1)] ?? list) : list);
    if (path === '/api/flows/' && method === 'GET') {
      if (options.failList) throw new HttpError(500, { error: 'Internal Server Error', message: 'boom' });
      return companyList();
    }
    if (path === '/api/flows/' && method === 'POST') {
      if (options.failCreate) throw options.failCreate;
      const body = opts.body as Flow;
      const created = flowFixture(99, body.flow_name, { ...body, steps: [], keywords: [], intro_msg: '', find_out_more_msg: '', call_to_action: null, version: 1 });
      list = [...list, created];
      return created;
    }
    let m = /^\/api\/flows\/(\d+)\/$/.exec(path);
    if (m && method === 'GET') return list.find((f) => f.id === Number(m![1]));
    m = /^\/api\/flows\/(\d+)\/save\/$/.exec(path);
    if (m) {
      if (options.failSave) throw options.failSave;
      const saved = { ...list.find((f) => f.id === Number(m![1]))!, ...(opts.body as Partial<Flow>), version: 3 };
      list = list.map((f) => (f.id === saved.id ? saved : f));
      return saved;
    }
    m = /^\/api\/flows\/(\d+)$/.exec(path);
    if (m && method === 'DELETE') {
      if (options.failDelete) throw options.failDelete;
      list = list.filter((f) => f.id !== Number(m![1]));
      return undefined;
    }
    m = /^\/api\/flows\/(\d+)\/stats\/$/.exec(path);
    if (m) return { steps: { pick: { reached: 5, left: 2 }, products: { reached: 3, left: 0 } } };
    m = /^\/api\/flows\/(\d+)\/versions\/$/.exec(path);
    if (m) return versions;
    m = /^\/api\/flows\/(\d+)\/versions\/(\d+)\/restore\/$/.exec(path);
    if (m) {
      const restored = { ...list.find((f) => f.id === Number(m![1]))!, intro_msg: 'Old welcome', version: 3 };
      list = list.map((f) => (f.id === restored.id ? restored : f));
      versions.unshift(version(3, 3, 'restore', { restored_from: 1, changes: { fields: ['intro_msg'], steps_added: [], steps_removed: [], steps_changed: [], steps_reordered: false } }));
      return restored;
    }
    m = /^\/api\/flows\/(\d+)\/test-chat\/$/.exec(path);
    if (m) {
      const body = opts.body as { flow?: Flow; reset?: boolean; text?: string };
      const ended = { step_id: null, visited: [], handed_over: false, state: { step_id: null, fallback_count: 0, handed_over: false, variables: {} } };
      // Another flow's keyword (that flow would take over), and a message after the end (silence), as the server answers them.
      if (body.text === 'returns') return { messages: [], actions: [{ step_id: null, type: 'start_flow', description: 'Starts the flow "Returns": in a conversation, that flow answers now', applied: false, error: null }], ...ended };
      if (body.text === 'bye') return { messages: [], actions: [], ...ended };
      return {
        messages: [
          { type: 'text', text: body.flow?.intro_msg ?? 'stored', media_url: null, buttons: null, step_id: null },
          { type: 'interactive', text: body.flow?.steps[0]?.step_msg ?? '', media_url: null, buttons: [{ id: 'flow:pick:0', title: 'Products' }], step_id: 'pick' },
        ],
        actions: [],
        step_id: 'pick',
        visited: ['pick'],
        handed_over: false,
        state: { step_id: 'pick', fallback_count: 0, handed_over: false, variables: {} },
      };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
  return http;
}
