// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { channel, renderTemplatesPage } from '../testing/renderTemplatesPage';
import TemplateSetupPage, { offeredTypes } from './TemplateSetupPage';

const http = () =>
  createFakeHttp((method, path) => {
    if (method === 'GET' && path === '/api/channels/') return { count: 3, results: [channel(1, 'sandbox', 'Sandbox'), channel(3, 'whatsapp', 'Shop'), channel(5, 'whatsapp', 'Support', { display_phone_number: '+1 555 0200' })] };
    throw new Error(`unexpected ${method} ${path}`);
  });

function renderSetup(path = '/templates/template-setup', features?: string[]) {
  return renderTemplatesPage(<TemplateSetupPage />, { path, route: '/templates/template-setup', http: http(), features });
}

describe('TemplateSetupPage', () => {
  beforeEach(() => localStorage.clear());

  it('offers the kinds of each category; the carousel only with whatsapp_carousel', () => {
    expect(offeredTypes('MARKETING', true)).toEqual(['text', 'media', 'buttons', 'carousel']);
    expect(offeredTypes('MARKETING', false)).toEqual(['text', 'media', 'buttons']);
    expect(offeredTypes('AUTHENTICATION', true)).toEqual(['authentication']);
  });

  it('WhatsApp numbers only; a category then a type card leads to the editor with the chosen number', async () => {
    renderSetup('/templates/template-setup?channel=5');
    const picker = await screen.findByRole('combobox', { name: 'WhatsApp number' });
    expect(picker).toHaveTextContent('Support (+1 555 0200)');
    await userEvent.click(picker);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Shop (+1 555 0100)', 'Support (+1 555 0200)']);
    await userEvent.click(options[0]);

    expect(screen.getByRole('radio', { name: /^Marketing/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('link', { name: /^Carousel/ })).toHaveAttribute('href', '/templates/create-whatsapp-carousel?channel=3');
    expect(screen.getByRole('link', { name: /^Media header/ })).toHaveAttribute('href', '/templates/create-whatsapp-template/marketing/media?channel=3');

    await userEvent.click(screen.getByRole('radio', { name: /^Utility/ }));
    expect(screen.queryByRole('link', { name: /^Carousel/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^Buttons/ })).toHaveAttribute('href', '/templates/create-whatsapp-template/utility/buttons?channel=3');

    await userEvent.click(screen.getByRole('radio', { name: /^Authentication/ }));
    const types = screen.getByRole('heading', { name: '3. Type' }).closest('section')!;
    expect(within(types).getAllByRole('link').map((l) => l.getAttribute('href'))).toEqual(['/templates/create-whatsapp-template/authentication/authentication?channel=3']);
  });

  it('without whatsapp_carousel, marketing says the carousel builder is not enabled', async () => {
    renderSetup(undefined, ['whatsapp_templates']);
    expect(await screen.findByText('The carousel builder is not enabled for this company.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Carousel/ })).not.toBeInTheDocument();
  });
});
