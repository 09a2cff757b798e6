// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AskResponse, AssistantSettings, KnowledgeItem } from '../../../contract/assistant';
import { defaultPermissions } from '../../../contract/permissions';
import { membership, testUser } from '../../core/account/testUsers';
import { createFakeHttp } from '../../core/testing/fakeHttp';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { phoneScreen } from '../../core/testing/phoneScreen';
import { overrideApi, type ConsoleConfig, type SessionStore } from '../../core';
import { HttpError } from '../../core/http/HttpError';
import { createKnowledgeApi, knowledgeApiRef, type FormUploader } from './api';
import KnowledgePage from './KnowledgePage';
import { knowledgePlugin } from './index';

const item = (id: number, title: string, over: Partial<KnowledgeItem> = {}): KnowledgeItem => ({
  id,
  kind: 'article',
  title,
  format: 'markdown',
  file_name: null,
  flow_id: null,
  passage_count: 2,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-02T00:00:00Z',
  body: '# Returns\n\nFree within 30 days.',
  passages: [
    { id: 1, position: 0, heading: 'Returns', text: 'Free within 30 days.' },
    { id: 2, position: 1, heading: 'Refunds', text: 'Paid in 5 days.' },
  ],
  ...over,
});

const SETTINGS: AssistantSettings = { provider: 'local', base_url: '', model: '', api_key_set: false, temperature: 0.2, max_tokens: 400, timeout_ms: 15000, threshold: 0.5, channels: [], enabled: false };

function server(answers: { ask?: AskResponse; settings?: AssistantSettings; items?: KnowledgeItem[] } = {}) {
  const items = answers.items ?? [item(1, 'Returns and refunds')];
  return createFakeHttp((method, path, options) => {
    if (path === '/api/knowledge/' && method === 'GET') return { count: items.length, next: null, previous: null, results: items };
    if (path === '/api/knowledge/' && method === 'POST') {
      const body = options.body as { title: string; body: string };
      if (!body.title.trim()) throw new HttpError(400, { title: ['This field may not be blank.'] });
      return item(9, body.title, { passages: [{ id: 9, position: 0, heading: body.title, text: body.body }] });
    }
    if (/^\/api\/knowledge\/\d+\/$/.test(path)) return items.find((i) => path.includes(`/${i.id}/`));
    if (path === '/api/assistant/settings/' && method === 'GET') return answers.settings ?? SETTINGS;
    if (path === '/api/assistant/settings/' && method === 'PATCH') return { ...SETTINGS, ...(options.body as object), api_key_set: !!(options.body as { api_key?: string }).api_key };
    if (path === '/api/assistant/ask/') return answers.ask;
    if (path === '/api/channels/') return { results: [{ id: 7, name: 'Sandbox', platform: 'sandbox' }] };
    throw new Error(`unexpected ${method} ${path}`);
  });
}

function render(http: ReturnType<typeof server>, role: 'admin' | 'agent' = 'admin', extra: Parameters<typeof renderPluginPage>[1] = {}) {
  const company = membership(1, defaultPermissions(role), { role: { id: role, name: role } });
  renderPluginPage(<KnowledgePage />, { path: '/knowledge', http, user: testUser([company]), companyId: 1, plugins: [knowledgePlugin], features: ['assistant'], ...extra });
}

describe('KnowledgePage', () => {
  it('lists the knowledge and opens an item with the passages it became', async () => {
    render(server());
    fireEvent.click(await screen.findByRole('button', { name: 'Returns and refunds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Returns and refunds' });
    const passages = await within(dialog).findByRole('list', { name: 'The passages it became (2)' });
    expect(within(passages).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Passage 1 · ReturnsFree within 30 days.', 'Passage 2 · RefundsPaid in 5 days.']);
    expect(within(dialog).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
  });

  it('shows the empty view when there is no knowledge', async () => {
    render(server({ items: [] }));
    expect(await screen.findByTestId('empty-view')).toBeInTheDocument();
  });

  it('adds an article: the server’s field error on its field, then the new item', async () => {
    const http = server();
    render(http);
    fireEvent.click(await screen.findByRole('button', { name: 'Add an article' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add an article' });
    fireEvent.change(within(dialog).getByLabelText(/Text \(Markdown\)/), { target: { value: 'We ship in 2 days.' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field may not be blank.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText(/Title/), { target: { value: 'Shipping' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add an article' })).not.toBeInTheDocument());
    expect(http.calls.filter((c) => c.method === 'POST').at(-1)!.options.body).toEqual({ title: 'Shipping', body: 'We ship in 2 days.' });
  });

  it('uploads a document with progress, through the form uploader with the bearer token and Company header', async () => {
    const http = server();
    const sent: { url: string; headers: Record<string, string>; form: FormData }[] = [];
    let finish: (value: unknown) => void = () => undefined;
    const uploader: FormUploader = (target, form, onProgress) => {
      sent.push({ ...target, form });
      onProgress(0.4);
      return new Promise((resolve) => (finish = resolve));
    };
    const session = { getAccessToken: () => 'tok' } as SessionStore;
    const api = createKnowledgeApi({ http, session, config: { apiBase: 'http://api.test' } as ConsoleConfig, companyId: () => 1, uploader });
    render(http, 'admin', { overrides: [overrideApi(knowledgeApiRef, api)] });
    fireEvent.click(await screen.findByRole('button', { name: 'Upload a document' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload a document' });
    const file = new File(['%PDF-1.7'], 'guide.pdf', { type: 'application/pdf' });
    fireEvent.change(within(dialog).getByTestId('knowledge-file'), { target: { files: [file] } });
    expect(within(dialog).getByText('guide.pdf')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Sending: 40 %')).toBeInTheDocument();
    expect(sent[0].url).toBe('http://api.test/api/knowledge/upload/');
    expect(sent[0].headers).toMatchObject({ Authorization: 'Bearer tok', Company: '1' });
    expect((sent[0].form.get('file') as File).name).toBe('guide.pdf');
    finish(item(5, 'guide', { kind: 'document', format: 'pdf', file_name: 'guide.pdf' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upload a document' })).not.toBeInTheDocument());
  });

  it('tries a question: the answer with its sources and confidence, or that it would hand over and why', async () => {
    const http = server({ ask: { answer: 'Free within 30 days.\n\n— Returns and refunds', sources: [{ id: 1, title: 'Returns and refunds' }], handover: false, confidence: 0.75, reason: 'answered' } });
    render(http);
    fireEvent.click(await screen.findByRole('tab', { name: 'Assistant' }));
    fireEvent.change(await screen.findByLabelText('A customer question'), { target: { value: 'Can I return it?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    const result = await screen.findByTestId('assistant-result');
    expect(within(result).getByTestId('assistant-answer')).toHaveTextContent('Free within 30 days.');
    expect(within(result).getByRole('listitem')).toHaveTextContent('Returns and refunds');
    expect(result).toHaveTextContent('Confidence: 75 %');
    expect(http.calls.find((c) => c.path === '/api/assistant/ask/')!.options.body).toEqual({ question: 'Can I return it?' });
  });

  it('keeps the settings section in place while the settings load, so "Try a question" beside it does not move', async () => {
    let settingsArrive: (value: AssistantSettings) => void = () => undefined;
    const answers = server({ ask: { answer: 'Free within 30 days.', sources: [], handover: false, confidence: 0.8, reason: 'answered' } });
    const http = createFakeHttp((method, path, options) =>
      path === '/api/assistant/settings/' && method === 'GET' ? new Promise((resolve) => (settingsArrive = resolve)) : answers.request(method, path, options),
    );
    render(http);
    fireEvent.click(await screen.findByRole('tab', { name: 'Assistant' }));
    const section = await screen.findByRole('region', { name: 'Assistant settings' });
    expect(within(section).getByLabelText('Loading')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('A customer question'), { target: { value: 'Can I return it?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect(await screen.findByTestId('assistant-answer')).toHaveTextContent('Free within 30 days.');
    settingsArrive(SETTINGS);
    expect(await within(screen.getByRole('region', { name: 'Assistant settings' })).findByRole('button', { name: 'Save settings' })).toBeInTheDocument();
  });

  it('says when it would hand over', async () => {
    render(server({ ask: { answer: null, sources: [], handover: true, confidence: 0.2, reason: 'low_confidence' } }));
    fireEvent.click(await screen.findByRole('tab', { name: 'Assistant' }));
    fireEvent.change(await screen.findByLabelText('A customer question'), { target: { value: 'Gift cards?' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect(await screen.findByText(/The assistant would hand over to a person\. The knowledge does not answer this well enough\./)).toBeInTheDocument();
  });

  it('saves the settings; the API key is write-only (sent when typed, never shown)', async () => {
    const http = server();
    render(http);
    fireEvent.click(await screen.findByRole('tab', { name: 'Assistant' }));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: 'Provider' }));
    fireEvent.click(await screen.findByRole('option', { name: 'OpenAI-compatible model' }));
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: 'http://localhost:11434/v1' } });
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'llama3' } });
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-1' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Sandbox' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(http.calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(http.calls.find((c) => c.method === 'PATCH')!.options.body).toMatchObject({ provider: 'openai-compatible', base_url: 'http://localhost:11434/v1', model: 'llama3', api_key: 'sk-1', channels: [7] });
    expect(await screen.findByText('A key is stored. Type a new one to replace it.')).toBeInTheDocument();
  });

  it('is read-only with one line saying who can for a member without manage', async () => {
    render(server(), 'agent');
    expect(await screen.findByText(/Only members allowed to manage the assistant/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add an article' })).not.toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Returns and refunds' }));
    const dialog = await screen.findByRole('dialog', { name: 'Returns and refunds' });
    await within(dialog).findByRole('list');
    expect(within(dialog).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Assistant' }));
    expect(await screen.findByRole('combobox', { name: 'Provider' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('button', { name: 'Save settings' })).not.toBeInTheDocument();
  });

  it('speaks French', async () => {
    render(server(), 'admin', { locale: 'fr' });
    expect(await screen.findByRole('heading', { name: 'Connaissances' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Ajouter un article' })).toBeInTheDocument();
  });
});

describe('KnowledgePage on a phone', () => {
  it('shows each item in one cell: its title, kind and passages under it, one column', async () => {
    const restore = phoneScreen();
    try {
      render(server());
      const cell = (await screen.findByRole('button', { name: 'Returns and refunds' })).closest('td')!;
      expect(within(cell).getByText('Article')).toBeInTheDocument();
      expect(cell.textContent).toContain('Passages 2');
      expect(screen.getAllByRole('columnheader')).toHaveLength(1);
    } finally {
      restore();
    }
  });
});
