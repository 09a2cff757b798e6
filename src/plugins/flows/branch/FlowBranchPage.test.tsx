// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../../core/http/HttpError';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { membership, testUser } from '../../../core/account/testUsers';
import type { Flow, FlowSaveBody } from '../../../../contract/flows';
import { botsPlugin } from '../../bots';
import { flowsPlugin } from '..';
import FlowBranchPage from './FlowBranchPage';
import { branchTranslations } from './translations';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';

// React Flow measures its pane and nodes: jsdom has no layout, so give it the browser APIs it calls.
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  (globalThis as { DOMMatrixReadOnly?: unknown }).DOMMatrixReadOnly ??= class {
    m22 = 1;
    constructor(_transform?: string) {}
  };
});

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }, { role: { id: 'admin', name: 'Admin' } })]);

const FLOW: Flow = {
  id: 5,
  flow_name: 'Shop tour',
  description: 'About the shop',
  company_name: 'Acme',
  company_domain: 'acme.test',
  extra_context: ['Returns are free.'],
  intro_msg: 'Welcome to the tour!',
  intro_media_url: null,
  find_out_more_msg: 'More on acme.test.',
  find_out_more_media_url: null,
  call_to_action: 'Shop now',
  keywords: ['tour'],
  steps: [
    { step_id: 'pick', next_step_id: null, step_msg: 'What interests you?', type: 'options', options: [{ text: 'Products', next_step_id: 'products' }] },
    { step_id: 'products', next_step_id: null, step_msg: 'Lamps and linen.', type: 'text', options: [] },
  ],
  version: 3,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
};

function server(options: { failSave?: unknown } = {}) {
  return createFakeHttp((method, path, req) => {
    if (path === '/api/bots/integration/') return { endpoint: 'http://localhost/bot-service', access_key: 'bk_secret' };
    if (path === '/api/flows/' && method === 'GET') return [FLOW];
    if (path === '/api/flows/5/' && method === 'GET') return FLOW;
    if (path === '/api/flows/5/save/' && method === 'POST') {
      if (options.failSave) throw new HttpError(400, options.failSave);
      return { ...FLOW, ...(req.body as object), version: 4 };
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function renderPage(path: string, http: ReturnType<typeof server>) {
  return renderPluginPage(<FlowBranchPage />, {
    plugins: [botsPlugin, flowsPlugin],
    features: ['flows', 'branching_flows'],
    path,
    route: '/flows/branch/:flowName',
    http,
    user: admin,
    companyId: 1,
    signedIn: true,
  });
}

const saves = (http: ReturnType<typeof server>) => http.calls.filter((c) => c.method === 'POST').map((c) => c.options.body as FlowSaveBody);

describe('/flows/branch/{flowName}', () => {
  it('shows the flow as a graph, edits it (a step, an option and its link) and saves the whole flow', async () => {
    const http = server();
    const view = renderPage('/flows/branch/shop%20tour', http);
    expect(await screen.findByRole('heading', { name: 'Shop tour', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByTestId('branch-step-node').map((n) => n.getAttribute('data-step-id'))).toEqual(['pick', 'products']);
    expect(screen.getByTestId('branch-start-node')).toHaveTextContent('Welcome to the tour!');
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    // a new step, written in the panel
    await userEvent.click(screen.getByRole('button', { name: 'Add step' }));
    const panel = await screen.findByTestId('branch-step-panel');
    expect(within(panel).getByRole('heading', { name: 'Step step_3' })).toBeInTheDocument();
    const message = within(panel).getByTestId('branch-step-message');
    // one change event per field (typing letter by letter re-lays the whole graph out in jsdom, slowly)
    fireEvent.change(message, { target: { value: 'Returns are free for 30 days.' } });
    await waitFor(() => expect(screen.getAllByTestId('branch-step-label').map((l) => l.textContent)).toContain('Returns are free for 30 days.'));
    await userEvent.click(within(panel).getByRole('button', { name: 'Close' }));

    // an option on the first step, renamed and pointed at the new step (the panel's way to connect)
    await userEvent.click(screen.getByRole('button', { name: 'Add option: pick' }));
    const pickPanel = await screen.findByTestId('branch-step-panel');
    const option = within(pickPanel).getByRole('textbox', { name: /^Option 2/ });
    expect(option).toHaveValue('Button');
    fireEvent.change(option, { target: { value: 'Returns' } });
    await userEvent.click(within(pickPanel).getByRole('combobox', { name: 'Option 2 leads to' }));
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: /^step_3/ }));
    expect(screen.getByTestId('branch-save-status')).toHaveAttribute('data-status', 'unsaved');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.alertText()).toBe('Success : flow has been updated!'));
    const [body] = saves(http);
    expect(http.calls.find((c) => c.method === 'POST')).toMatchObject({ path: '/api/flows/5/save/', options: { baseUrl: 'http://localhost/bot-service', query: { access_key: 'bk_secret' } } });
    // the whole flow, its other fields as they were
    expect(body).toMatchObject({ flow_name: 'Shop tour', intro_msg: 'Welcome to the tour!', call_to_action: 'Shop now', keywords: ['tour'], extra_context: ['Returns are free.'] });
    expect(body.steps).toEqual([
      { step_id: 'pick', next_step_id: null, step_msg: 'What interests you?', type: 'options', options: [{ text: 'Products', next_step_id: 'products' }, { text: 'Returns', next_step_id: 'step_3' }] },
      FLOW.steps[1],
      { step_id: 'step_3', next_step_id: null, step_msg: 'Returns are free for 30 days.', type: 'text', options: [] },
    ]);
    await waitFor(() => expect(screen.getByTestId('branch-save-status')).toHaveAttribute('data-status', 'saved'));
  }, 90_000);

  it("deletes a step from its panel after confirmation; links to it are cleared", async () => {
    const http = server();
    renderPage('/flows/branch/Shop%20tour', http);
    await screen.findByRole('heading', { name: 'Shop tour', level: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Edit step: products' }));
    await userEvent.click(within(await screen.findByTestId('branch-step-panel')).getByRole('button', { name: 'Delete step' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete 1 selected element(s)?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getAllByTestId('branch-step-node').map((n) => n.getAttribute('data-step-id'))).toEqual(['pick']));
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saves(http)).toHaveLength(1));
    expect(saves(http)[0].steps).toEqual([{ ...FLOW.steps[0], options: [{ text: 'Products', next_step_id: null }] }]);
  }, 60_000);

  it("a refused save says the spec's error composition", async () => {
    const http = server({ failSave: { errors: [], error: 'Invalid steps', message: 'This step does not exist in this flow.' } });
    const view = renderPage('/flows/branch/Shop%20tour', http);
    await screen.findByRole('heading', { name: 'Shop tour', level: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Add step' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.alertText()).toBe('Error Invalid steps(This step does not exist in this flow.)'));
    expect(screen.getByTestId('branch-save-status')).toHaveAttribute('data-status', 'unsaved');
  }, 60_000);

  it('an empty message is refused before anything is sent', async () => {
    const http = server();
    const view = renderPage('/flows/branch/Shop%20tour', http);
    await screen.findByRole('heading', { name: 'Shop tour', level: 1 });
    await userEvent.click(screen.getByRole('button', { name: 'Add step' }));
    await userEvent.clear(within(await screen.findByTestId('branch-step-panel')).getByTestId('branch-step-message'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(view.alertText()).toMatch(/^Fix the flow before saving: steps\.2\.step_msg: /));
    expect(saves(http)).toEqual([]);
  }, 60_000);

  it('says so when no flow has that name', async () => {
    renderPage('/flows/branch/Nope', server());
    expect(await screen.findByText('No flow named "Nope" in this company.')).toBeInTheDocument();
  });
});

describe('branching view translations', () => {
  function keys(messages: object, prefix = ''): string[] {
    return Object.entries(messages).flatMap(([key, value]) => (typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`]));
  }
  it('French has every English key, and the success string is the spec\'s', () => {
    expect(new Set(keys(branchTranslations.fr))).toEqual(new Set(keys(branchTranslations.en)));
    expect(branchTranslations.en.flowBranch.success).toBe('Success : flow has been updated!');
  });
});
