// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpError } from '../../core';
import { membership, testUser } from '../../core/account/testUsers';
import FlowCreatePage from './FlowCreatePage';
import { fakeFlowServer } from './testing/fixtures';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { botsPlugin } from '../bots';
import { templatesPlugin } from '../templates';
import { flowsPlugin } from './index';

const admin = testUser([membership(1, { can_manage_flows: true, can_view_flows: true }, { name: 'Acme' })]);

async function fill() {
  fireEvent.change(screen.getByRole('textbox', { name: /Flow name/ }), { target: { value: 'Shop tour' } });
  fireEvent.change(screen.getByRole('textbox', { name: /Description/ }), { target: { value: 'About the shop' } });
  fireEvent.change(screen.getByRole('textbox', { name: /Company domain/ }), { target: { value: 'acme.test' } });
}

// A shared, loaded machine runs the suite: room for the form's renders.
describe('/flows/create', { timeout: 120_000 }, () => {
  it("checks §5's rules as you type (the contract's schema)", async () => {
    renderPluginPage(<FlowCreatePage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/create', http: fakeFlowServer([]), user: admin });
    const name = screen.getByRole('textbox', { name: /Flow name/ });
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(129));
    expect(await screen.findByText('Ensure this field has no more than 128 characters.')).toBeTruthy();
    await userEvent.clear(name);
    await userEvent.type(name, '   ');
    expect(screen.getByText('This field may not be blank.')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: /Company name/ }) as HTMLInputElement).value).toBe('Acme');
  });

  it('sends only the five creation fields, with extra_context items added, edited, reordered and removed, then opens the editor', async () => {
    const http = fakeFlowServer([]);
    const view = renderPluginPage(<FlowCreatePage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/create', http, user: admin });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Add a context item' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a context item' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a context item' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Context item 1' }), { target: { value: 'First' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Context item 2' }), { target: { value: 'Second' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Context item 3' }), { target: { value: 'Third' } });
    await userEvent.click(screen.getByRole('button', { name: 'Move context item 2 down' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove context item 1' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Context item 1' }), { target: { value: 'Third!' } });
    await userEvent.click(screen.getByRole('button', { name: 'Create flow' }));
    await waitFor(() => expect(view.currentPath()).toBe('/flows/edit/Shop%20tour'));
    const post = http.calls.find((c) => c.method === 'POST' && c.path === '/api/flows/')!;
    expect(post.options.body).toEqual({ flow_name: 'Shop tour', description: 'About the shop', company_name: 'Acme', company_domain: 'acme.test', extra_context: ['Third!', 'Second'] });
  });

  it('does not send an invalid form', async () => {
    const http = fakeFlowServer([]);
    renderPluginPage(<FlowCreatePage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/create', http, user: admin });
    await userEvent.click(screen.getByRole('button', { name: 'Create flow' }));
    expect(screen.getAllByText('This field may not be blank.').length).toBe(3);
    expect(http.calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it("a refused creation shows 'Error ' + error + '(' + message + ')', or 'Error saving flow(…)'", async () => {
    const failing = new HttpError(400, { errors: [], error: 'Invalid flow_name', message: 'A flow with this name already exists in this company.' });
    const view = renderPluginPage(<FlowCreatePage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/create', http: fakeFlowServer([], { failCreate: failing }), user: admin });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Create flow' }));
    await waitFor(() => expect(view.alertText()).toBe('Error Invalid flow_name(A flow with this name already exists in this company.)'));
    expect(view.currentPath()).toBe('/flows/create');
  });

  it("a network failure shows 'Error saving flow(' + its message + ')'", async () => {
    const view = renderPluginPage(<FlowCreatePage />, { plugins: [botsPlugin, templatesPlugin, flowsPlugin], features: ['flows', 'whatsapp_templates'], companyId: 1, signedIn: true, path: '/flows/create', http: fakeFlowServer([], { failCreate: new TypeError('Failed to fetch') }), user: admin });
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Create flow' }));
    await waitFor(() => expect(view.alertText()).toBe('Error saving flow(Failed to fetch)'));
  });
});
