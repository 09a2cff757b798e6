// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { membership, testUser } from '../../../core/account/testUsers';
import type { Bot, BotStep } from '../../../../contract/bots';
import { draftProblems, type BotDraft } from '../../../../contract/botDrafts';
import { step } from '../model/fixtures';
import BotCanvasPage from './BotCanvasPage';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { botsPlugin } from '..';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }, { role: { id: 'admin', name: 'Admin' } })]);

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

const BOT: Bot = {
  id: 9,
  name: 'Greeter',
  step: 'hello',
  steps: [],
  fallback_step_id: null,
  active: true,
  channels: [],
  conversations_handled: 0,
  created_at: '2026-01-01T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
};

function makeDraft(steps: BotStep[], extra: Partial<BotDraft> = {}): BotDraft {
  const content = { step: 'hello', fallback_step_id: null, steps };
  return { bot: 9, ...content, problems: draftProblems(content), unpublished_changes: false, published_version: 2, updated_at: '2026-01-02T10:00:00Z', ...extra };
}

/** The bot service (bot row) and the main API (draft, publish) of one bot; the draft kept as saved. */
function server(initial: BotDraft) {
  let draft = initial;
  return createFakeHttp((method, path, options) => {
    if (path === '/api/bots/integration/') return { endpoint: 'http://localhost/bot-service', access_key: 'bk_secret' };
    if (path === '/api/channels/') return { results: [], count: 0 };
    if (path === '/api/bots/9/' && method === 'GET' && options.baseUrl) return BOT;
    if (path === '/api/bots/9/draft/' && method === 'GET' && !options.baseUrl) return draft;
    if (path === '/api/bots/9/draft/' && method === 'PUT' && !options.baseUrl) {
      const body = options.body as BotDraft;
      draft = { ...draft, ...body, problems: draftProblems(body), unpublished_changes: true };
      return draft;
    }
    if (path === '/api/bots/9/publish/' && method === 'POST' && !options.baseUrl) {
      draft = { ...draft, unpublished_changes: false, published_version: (draft.published_version ?? 0) + 1 };
      return draft;
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const render = (http: ReturnType<typeof server>) =>
  renderPluginPage(<BotCanvasPage />, { plugins: [botsPlugin], features: ['flows'], companyId: 1, signedIn: true, path: '/flows/generic-flow/9', route: '/flows/generic-flow/:botId', http, user: admin });

const draftSaves = (http: ReturnType<typeof server>) => http.calls.filter((c) => c.method === 'PUT').map((c) => c.options.body as BotDraft);

describe('/flows/generic-flow/{botId}: the fallback', () => {
  it('choosing a fallback step saves it in the draft, marks its node, and undo gives it back to a person', async () => {
    const http = server(makeDraft([step('hello', { yes: 'end' }), step('end'), step('human')]));
    const view = render(http);
    const select = await screen.findByRole('combobox', { name: 'Fallback' });
    expect(select).toHaveTextContent('Hand over to a person');
    expect(screen.queryByTestId('fallback-marker')).toBeNull();

    await userEvent.click(select);
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Message of human' }));

    await waitFor(() => expect(draftSaves(http).map((d) => d.fallback_step_id)).toEqual(['human']));
    // The draft goes to the main API (bearer + Company), never to the live bot.
    expect(http.calls.find((c) => c.method === 'PUT')?.options.baseUrl).toBeUndefined();
    expect(http.calls.some((c) => c.method === 'PATCH')).toBe(false);
    await waitFor(() => expect(view.alertText()).toBe('Step has been updated'));
    await waitFor(() => expect(screen.getByTestId('save-status')).toHaveAttribute('data-status', 'saved'));
    expect(screen.getByRole('combobox', { name: 'Fallback' })).toHaveTextContent('Message of human');
    const marker = await screen.findByTestId('fallback-marker');
    expect(marker.closest('[data-testid="step-node"]')?.getAttribute('data-step-id')).toBe('human');

    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(draftSaves(http).map((d) => d.fallback_step_id)).toEqual(['human', null]));
    expect(screen.queryByTestId('fallback-marker')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Fallback' })).toHaveTextContent('Hand over to a person');
  });

  it('shows the saved fallback and its marker when the canvas opens', async () => {
    render(server(makeDraft([step('hello', { yes: 'end' }), step('end'), step('human')], { fallback_step_id: 'end' })));
    expect(await screen.findByRole('combobox', { name: 'Fallback' })).toHaveTextContent('Message of end');
    const marker = await screen.findByTestId('fallback-marker');
    expect(marker).toHaveTextContent('Fallback');
    expect(marker.closest('[data-testid="step-node"]')?.getAttribute('data-step-id')).toBe('end');
  });
});

describe('/flows/generic-flow/{botId}: draft and publish', () => {
  const halfBuilt = () =>
    makeDraft(
      [
        step('hello', { yes: 'end' }, { messages: [{ text: 'Welcome', media_url: null, type: 'text' }, { text: '', media_url: null, type: 'image' }] }),
        step('end', {}, { actions: [{ type: 'run_operation', operation_id: 0, variables: {} }] }),
      ],
      { unpublished_changes: true },
    );

  it('each node says what it still lacks in plain words; Publish is refused on the canvas, naming the steps, without asking the server', async () => {
    const http = server(halfBuilt());
    render(http);
    expect(await screen.findByTestId('publish-state')).toHaveTextContent('Draft has unpublished changes');
    expect(screen.getByTestId('problems-count')).toHaveTextContent('2 things to finish before publishing');
    const nodes = screen.getAllByTestId('step-node');
    const problemsOf = (id: string) => within(nodes.find((n) => n.getAttribute('data-step-id') === id)!).getByTestId('step-problems');
    expect(problemsOf('hello')).toHaveTextContent('Message 2 is set to Image but no file is uploaded yet.');
    expect(problemsOf('end')).toHaveTextContent('A "run an operation" action has no operation chosen.');

    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    const refusal = await screen.findByTestId('publish-refusal');
    expect(refusal).toHaveTextContent('Not published: 2 things to finish first.');
    expect(refusal).toHaveTextContent('Step "Welcome": message 2 is set to Image but no file is uploaded yet.');
    expect(refusal).toHaveTextContent('Step "Message of end": a "run an operation" action has no operation chosen.');
    expect(http.calls.some((c) => c.path.endsWith('/publish/'))).toBe(false);

    // "Open the step" opens its panel, which lists the same problem.
    await userEvent.click(within(refusal).getAllByRole('button', { name: 'Open the step' })[0]);
    expect(await screen.findByTestId('panel-problems')).toHaveTextContent('Message 2 is set to Image but no file is uploaded yet.');
  });

  it('a complete draft is published: the state turns to the new version', async () => {
    const http = server(makeDraft([step('hello', { yes: 'end' }), step('end', {}, { actions: [{ type: 'hand_over' }] })], { unpublished_changes: true }));
    const view = render(http);
    expect(await screen.findByTestId('publish-state')).toHaveTextContent('Draft has unpublished changes');
    expect(screen.getByTestId('problems-count')).toHaveTextContent('Ready to publish');
    expect(screen.queryByTestId('step-problems')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(screen.getByTestId('publish-state')).toHaveTextContent('Published · version 3'));
    expect(screen.getByTestId('publish-state')).toHaveAttribute('data-state', 'published');
    expect(view.alertText()).toBe('Bot published: customers now meet version 3');
    expect(screen.queryByTestId('publish-refusal')).toBeNull();
  });
});

describe('/flows/generic-flow/{botId}: step actions', () => {
  it('"Answer with the assistant" can be chosen for a step: saved in the draft as ai_answer, with what it does', async () => {
    const http = server(makeDraft([step('hello', { yes: 'end' }), step('end')]));
    render(http);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit step: Message of end' }));
    const panel = await screen.findByTestId('step-panel');
    await userEvent.click(within(panel).getByRole('button', { name: 'Add action' }));
    await userEvent.click(within(panel).getByRole('combobox', { name: 'Actions' }));
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Answer with the assistant' }));

    await waitFor(() => expect(draftSaves(http).at(-1)?.steps.find((s) => s.id === 'end')?.actions).toEqual([{ type: 'ai_answer' }]));
    expect(within(panel).getByRole('combobox', { name: 'Actions' })).toHaveTextContent('Answer with the assistant');
    expect(panel).toHaveTextContent("The assistant answers the customer's message from the company's knowledge before this step's messages. When it cannot, a person takes over.");
    // Nothing more to fill in: the draft is ready to publish.
    await waitFor(() => expect(screen.getByTestId('problems-count')).toHaveTextContent('Ready to publish'));
  });
});
