// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { alertApiRef, createPlugin, HttpError, httpApiRef, overrideApi } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import type { Channel } from '../../../../contract/channels';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import CarouselBuilderPage from '../carousel/CarouselBuilderPage';
import TemplateEditorPage from './TemplateEditorPage';
import { CAROUSEL_PATH, EDITOR_ROUTE } from './paths';
import { editorTranslations } from './translations';

const CHANNEL: Channel = {
  id: 7,
  external_id: '1055501',
  platform: 'whatsapp',
  name: 'Acme WhatsApp',
  status: 'active' as Channel['status'],
  display_phone_number: '+1 555 0100',
  waba_id: 'waba-1',
  signup_status: null,
  signup_error: null,
  steps: [],
  connected: true,
  simulator_url: null,
  created_at: '2026-01-01T00:00:00Z',
};

const APPROVED: WhatsAppTemplate = {
  id: 31,
  channel_id: 7,
  meta_template_id: '991',
  name: 'order_ready',
  language: 'en_US',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Hi {{1}}, your order is ready.', example: { body_text: [['Ana']] } }],
  status: 'APPROVED',
  rejected_reason: null,
  quality_score: 'GREEN',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

/** MUI forms typed key by key in jsdom are slow on a shared machine. */
const SLOW = 120_000;

const plugin = createPlugin({ id: 'templates-editor-test', translations: editorTranslations });

function renderAt(path: string, answer: (method: string, path: string, body: unknown) => unknown = () => ({})) {
  const http = createFakeHttp((method, p, options) => {
    if (method === 'GET' && p === '/api/channels/') return { results: [CHANNEL], count: 1 };
    if (method === 'GET' && p === '/api/channels/7/templates/') return { results: [APPROVED], count: 1 };
    return answer(method, p, options.body);
  });
  const result = renderPluginPage(
    <Routes>
      <Route path={EDITOR_ROUTE} element={<TemplateEditorPage />} />
      <Route path={CAROUSEL_PATH} element={<CarouselBuilderPage />} />
      <Route path="/templates" element={<p>templates list</p>} />
    </Routes>,
    { adminContext: false, route: false, path, plugins: [plugin], overrides: [overrideApi(httpApiRef, http)] },
  );
  return { ...result, http, alertText: () => result.console.get(alertApiRef).getState().text };
}

describe('TemplateEditorPage', () => {
  beforeEach(() => localStorage.clear());

  it('checks as you type, inserts variables, previews the samples and submits Meta’s format', async () => {
    const user = userEvent.setup({ delay: null });
    const { http, alertText } = renderAt('/templates/create-whatsapp-template/marketing/buttons?channel=7', () => ({ detail: 'Template successfully created.', template: APPROVED }));
    const name = await screen.findByTestId('name');

    await user.type(name, 'Spring Sale');
    expect(screen.getByText('Use lowercase letters, digits and underscores only.')).toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'spring_sale');
    expect(screen.queryByText('Use lowercase letters, digits and underscores only.')).not.toBeInTheDocument();

    const body = within(screen.getByTestId('body')).getByRole('textbox', { name: 'Body' });
    await user.type(body, 'Hi ');
    await user.click(screen.getByTestId('body-add-variable'));
    expect(body).toHaveValue('Hi {{1}}');
    // A variable may not end the body: said at once, under the body.
    expect(within(screen.getByTestId('body')).getByText('The body may not start or end with a variable.')).toBeInTheDocument();
    await user.type(body, ', your order is ready.');
    expect(within(screen.getByTestId('body')).getByText('22/1024'.replace('22', String('Hi {{1}}, your order is ready.'.length)))).toBeInTheDocument();
    expect(screen.getByTestId('body-add-variable')).toHaveTextContent('Add variable {{2}}');
    expect(screen.getByTestId('preview-body')).toHaveTextContent('Hi {{1}}, your order is ready.');
    await user.type(screen.getByTestId('body-example-1'), 'Ana');
    expect(screen.getByTestId('preview-body')).toHaveTextContent('Hi Ana, your order is ready.');

    // The "buttons" type starts with two quick replies; their texts are required.
    await user.click(screen.getByTestId('submit-template'));
    expect(screen.getAllByText('This field may not be blank.').length).toBeGreaterThanOrEqual(2);
    expect(http.calls.some((c) => c.method === 'POST')).toBe(false);
    await user.type(screen.getByTestId('buttons.0.text'), 'Yes');
    await user.type(screen.getByTestId('buttons.1.text'), 'No');
    expect(within(screen.getByTestId('preview-buttons')).getAllByTestId('preview-button').map((b) => b.textContent)).toEqual(['Yes', 'No']);

    await user.click(screen.getByTestId('submit-template'));
    await waitFor(() => expect(alertText()).toBe('Template successfully created.'));
    expect(http.calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/channels/7/create_template/',
      options: {
        body: {
          name: 'spring_sale',
          language: 'en_US',
          category: 'MARKETING',
          components: [
            { type: 'BODY', text: 'Hi {{1}}, your order is ready.', example: { body_text: [['Ana']] } },
            { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Yes' }, { type: 'QUICK_REPLY', text: 'No' }] },
          ],
        },
      },
    });
    expect(await screen.findByText('templates list')).toBeInTheDocument();
  }, SLOW);

  it('shows the server’s refusal under the field it names (duplicate name)', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/templates/create-whatsapp-template/utility/text?channel=7', () => {
      throw new HttpError(400, { name: ['A template with this name and language already exists in this WhatsApp account.'] });
    });
    await user.type(await screen.findByTestId('name'), 'order_ready');
    await user.type(within(screen.getByTestId('body')).getByRole('textbox', { name: 'Body' }), 'Your order is ready.');
    await user.click(screen.getByTestId('submit-template'));
    expect(await screen.findAllByText('A template with this name and language already exists in this WhatsApp account.')).not.toHaveLength(0);
    expect(screen.getByTestId('name')).toHaveAttribute('aria-invalid', 'true');
  }, SLOW);

  it('edits an approved template: name locked, PATCH with category and components, spec strings', async () => {
    const user = userEvent.setup({ delay: null });
    const { http, alertText } = renderAt('/templates/create-whatsapp-template/utility/text?channel=7&template=31', () => ({ detail: 'Successfully updated template.', template: APPROVED }));
    const name = await screen.findByTestId('name');
    expect(name).toHaveValue('order_ready');
    expect(name).toBeDisabled();
    const footer = screen.getByTestId('footer');
    await user.type(footer, 'Thanks for shopping with us');
    await user.click(screen.getByTestId('submit-template'));
    await waitFor(() => expect(alertText()).toBe('Successfully updated template.'));
    expect(http.calls.find((c) => c.method === 'PATCH')).toMatchObject({
      path: '/api/channels/7/templates/31/',
      options: { body: { category: 'UTILITY', components: [APPROVED.components[0], { type: 'FOOTER', text: 'Thanks for shopping with us' }] } },
    });
  }, SLOW);

  it('says "Error while updating template." when Meta refuses the edit', async () => {
    const user = userEvent.setup({ delay: null });
    const { alertText } = renderAt('/templates/create-whatsapp-template/utility/text?channel=7&template=31', () => {
      throw new HttpError(400, { detail: 'Meta said no.' });
    });
    await screen.findByTestId('name');
    await user.click(screen.getByTestId('submit-template'));
    await waitFor(() => expect(alertText()).toBe('Error while updating template.'));
    expect(screen.getByText('Meta said no.')).toBeInTheDocument();
  }, SLOW);

  it('authentication: the preset body with a sample code, the expiry and the copy-code button in the preview', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/templates/create-whatsapp-template/authentication/authentication?channel=7');
    await screen.findByTestId('name');
    expect(screen.getByTestId('preview-body')).toHaveTextContent('123456 is your verification code. For your security, do not share this code.');
    expect(screen.getByTestId('preview-footer')).toHaveTextContent('This code expires in 10 minutes.');
    const expiry = screen.getByTestId('codeExpiry');
    await user.clear(expiry);
    await user.type(expiry, '120');
    expect(screen.getByText('The code expiry is between 1 and 90 minutes.')).toBeInTheDocument();
  }, SLOW);
});

describe('CarouselBuilderPage', () => {
  it('adds, reorders and removes cards, previewed as a row of cards', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/templates/create-whatsapp-carousel?channel=7');
    await screen.findByTestId('name');
    expect(screen.getAllByTestId('preview-card')).toHaveLength(2);
    await user.click(screen.getByTestId('add-card'));
    expect(screen.getAllByTestId('preview-card')).toHaveLength(3);
    expect(screen.getByTestId('cards-count')).toHaveTextContent('3 of 10 cards');
    await user.type(within(screen.getByTestId('cards.0.body')).getByRole('textbox'), 'First');
    await user.type(within(screen.getByTestId('cards.2.body')).getByRole('textbox'), 'Third');
    await user.click(screen.getByRole('button', { name: 'Move card 1 later' }));
    expect(screen.getAllByTestId('preview-card').map((c) => within(c).getByTestId('preview-body').textContent)).toEqual(['', 'First', 'Third']);
    await user.click(screen.getByRole('button', { name: 'Remove card 1' }));
    expect(screen.getAllByTestId('preview-card').map((c) => within(c).getByTestId('preview-body').textContent)).toEqual(['First', 'Third']);
    // Two cards is Meta's minimum: no more removing.
    expect(screen.getByRole('button', { name: 'Remove card 1' })).toBeDisabled();
    await user.click(screen.getByTestId('submit-carousel'));
    expect(screen.getAllByText('Upload a sample image for the header.')).toHaveLength(2);
  }, SLOW);
});
