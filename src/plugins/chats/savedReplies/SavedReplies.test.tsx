// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { membership, testUser } from '../../../core/account/testUsers';
import { accountApiRef, AlertHost, httpApiRef, i18nApiRef, overrideApi, type Console } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { savedRepliesApiRef } from '../api';
import { Composer } from '../components/Composer';
import { chatsPlugin } from '../index';
import { agentTemplate, createFakeAgentTemplates } from '../testing/fakeAgentTemplates';

const CREATE_ERROR = 'Error occured while creating agent template';

async function renderComposer() {
  let c: Console | null = null;
  const templates = createFakeAgentTemplates(() => c!.get(accountApiRef), {
    1: [agentTemplate('Greeting', 'Hello! How can I help you today?'), agentTemplate('Refund', 'Your refund is on its way.'), agentTemplate('Opening hours', 'We are open 9-5, Monday to Friday.')],
    2: [agentTemplate('Bonjour', 'Bonjour, comment puis-je vous aider ?')],
  });
  const http = createFakeHttp((method, path, options) => {
    const answer = templates.handle(method, path, options);
    if (answer.handled) return answer.value;
    return { results: [] };
  });
  const onSend = vi.fn();
  const view = renderPluginPage(
    <>
      <Composer onSend={onSend} />
      <AlertHost />
    </>,
    { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], overrides: [overrideApi(httpApiRef, http)] },
  );
  c = view.console;
  act(() => {
    view.console.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true }), membership(2, { can_view_chats: true, can_manage_chats: true })]));
    view.console.get(accountApiRef).selectCompany(1);
  });
  // What the chats page does when it starts.
  await act(() => view.console.get(savedRepliesApiRef).start());
  return { ...view, onSend, http, templates };
}

const box = () => screen.getByRole('textbox', { name: /Type a message/ });
const options = () => within(screen.getByRole('listbox', { name: 'Saved replies' })).getAllByRole('option');
const names = () => options().map((o) => o.querySelector('.MuiListItemText-primary')!.textContent);
const selected = () => options().find((o) => o.getAttribute('aria-selected') === 'true')!.querySelector('.MuiListItemText-primary')!.textContent;
const type = (value: string) => fireEvent.change(box(), { target: { value } });
const key = (k: string, extra: object = {}) => fireEvent.keyDown(box(), { key: k, ...extra });

describe('Composer: saved replies', () => {
  beforeEach(() => localStorage.clear());

  it('"/" at the start opens the list filtered by what follows (name or text); ↑/↓ and Enter insert the text in place of "/query"', async () => {
    const { onSend } = await renderComposer();
    type('Hello /');
    expect(screen.queryByTestId('quick-replies')).not.toBeInTheDocument();
    type('/');
    await waitFor(() => expect(names()).toEqual(['Greeting', 'Opening hours', 'Refund']));
    expect(selected()).toBe('Greeting');
    expect(box()).toHaveAttribute('aria-activedescendant', options()[0].id);

    type('/o');
    // Names containing "o" first, then texts containing it.
    expect(names()).toEqual(['Opening hours', 'Greeting', 'Refund']);
    type('/monday');
    expect(names()).toEqual(['Opening hours']);
    type('/ref');
    expect(names()).toEqual(['Refund']);
    type('/zzz');
    expect(screen.getByRole('status')).toHaveTextContent('No saved reply matches “zzz”.');
    type('/');
    key('ArrowDown');
    key('ArrowDown');
    expect(selected()).toBe('Refund');
    key('ArrowDown');
    expect(selected()).toBe('Greeting');
    key('ArrowUp');
    expect(selected()).toBe('Refund');
    key('ArrowUp');
    expect(selected()).toBe('Opening hours');
    key('Enter');
    expect(box()).toHaveValue('We are open 9-5, Monday to Friday.');
    expect(screen.queryByTestId('quick-replies')).not.toBeInTheDocument();
    expect(onSend).not.toHaveBeenCalled();
    // The next Enter sends the inserted text.
    key('Enter');
    expect(onSend).toHaveBeenCalledWith('We are open 9-5, Monday to Friday.');
  });

  it('Esc closes the list without clearing the text; a click inserts; the "Saved replies" button opens the same list', async () => {
    const { onSend } = await renderComposer();
    type('/gre');
    await waitFor(() => expect(names()).toEqual(['Greeting']));
    key('Escape');
    expect(screen.queryByTestId('quick-replies')).not.toBeInTheDocument();
    expect(box()).toHaveValue('/gre');
    // Enter now sends what was typed.
    key('Enter');
    expect(onSend).toHaveBeenCalledWith('/gre');

    type('Hi Ann,');
    fireEvent.click(screen.getByRole('button', { name: 'Saved replies' }));
    expect(names()).toEqual(['Greeting', 'Opening hours', 'Refund']);
    expect(box()).toHaveFocus();
    fireEvent.click(options()[2]);
    expect(box()).toHaveValue('Hi Ann, Your refund is on its way.');
    expect(screen.queryByTestId('quick-replies')).not.toBeInTheDocument();
  });

  it('manages saved replies: create (success message), edit, delete with confirmation; the list follows at once', async () => {
    const { templates, onSend } = await renderComposer();
    type('/');
    await waitFor(() => expect(names()).toHaveLength(3));
    fireEvent.click(screen.getByRole('button', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage saved replies' });
    expect(within(dialog).getAllByRole('listitem').map((li) => li.querySelector('.MuiListItemText-primary')!.textContent)).toEqual(['Greeting', 'Opening hours', 'Refund']);

    // Create.
    fireEvent.click(within(dialog).getByRole('button', { name: 'New saved reply' }));
    const form = screen.getByRole('dialog', { name: 'New saved reply' });
    const save = within(form).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), { target: { value: '  Address ' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Text' }), { target: { value: 'Please confirm your delivery address.' } });
    fireEvent.click(save);
    expect(await screen.findByTestId('alert-text')).toHaveTextContent('Template successfully created.');
    const manage = screen.getByRole('dialog', { name: 'Manage saved replies' });
    expect(within(manage).getAllByRole('listitem').map((li) => li.querySelector('.MuiListItemText-primary')!.textContent)).toEqual(['Address', 'Greeting', 'Opening hours', 'Refund']);
    expect(templates.byCompany.get(1)!.find((x) => x.name === 'Address')?.text).toBe('Please confirm your delivery address.');
    // The Save button is gone: the keyboard's focus is on "New saved reply", inside the dialog (Escape closes it).
    await waitFor(() => expect(within(manage).getByRole('button', { name: 'New saved reply' })).toHaveFocus());

    // Edit.
    fireEvent.click(within(manage).getByRole('button', { name: 'Edit Refund' }));
    const edit = screen.getByRole('dialog', { name: 'Edit saved reply' });
    expect(within(edit).getByRole('textbox', { name: 'Name' })).toHaveValue('Refund');
    fireEvent.change(within(edit).getByRole('textbox', { name: 'Text' }), { target: { value: 'Your refund was sent today.' } });
    fireEvent.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('alert-text')).toHaveTextContent('Successfully updated template.'));
    expect(await screen.findByText('Your refund was sent today.')).toBeInTheDocument();

    // Delete, after confirming (Cancel keeps it).
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Manage saved replies' })).getByRole('button', { name: 'Delete Greeting' }));
    let confirm = screen.getByRole('dialog', { name: 'Delete this saved reply?' });
    expect(confirm).toHaveTextContent('“Greeting” will be deleted for everyone in the company.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete this saved reply?' })).not.toBeInTheDocument());
    expect(templates.byCompany.get(1)!.map((x) => x.name)).toContain('Greeting');
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Manage saved replies' })).getByRole('button', { name: 'Delete Greeting' }));
    confirm = screen.getByRole('dialog', { name: 'Delete this saved reply?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('alert-text')).toHaveTextContent('Successfully deleted template.'));
    expect(templates.byCompany.get(1)!.map((x) => x.name)).toEqual(['Refund', 'Opening hours', 'Address']);

    // The composer's list follows.
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete this saved reply?' })).not.toBeInTheDocument());
    expect(within(screen.getByRole('dialog', { name: 'Manage saved replies' })).getAllByRole('listitem')).toHaveLength(3);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Manage saved replies' })).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    type('/a');
    expect(names()).toEqual(['Address', 'Opening hours', 'Refund']);
    // Saving in the dialog never submitted the composer.
    expect(onSend).not.toHaveBeenCalled();
  });

  it("creation errors: the server's first name error, else 'Error occured while creating agent template' (also in French)", async () => {
    const { templates, console: c } = await renderComposer();
    await waitFor(() => expect(c.get(savedRepliesApiRef).getState().loaded).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Saved replies' }));
    fireEvent.click(screen.getByRole('button', { name: 'Manage saved replies' }));
    fireEvent.click(await screen.findByRole('button', { name: 'New saved reply' }));
    const form = () => screen.getByRole('dialog', { name: 'New saved reply' });
    fireEvent.change(within(form()).getByRole('textbox', { name: 'Name' }), { target: { value: 'greeting' } });
    fireEvent.change(within(form()).getByRole('textbox', { name: 'Text' }), { target: { value: 'Hi!' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('saved-reply-error')).toHaveTextContent('An agent template with this name already exists.');

    // No name error in the body (a server failure): the spec's message, verbatim.
    templates.fail.POST = { status: 500, body: { detail: 'Internal server error', code: 'internal' } };
    fireEvent.change(within(form()).getByRole('textbox', { name: 'Name' }), { target: { value: 'Welcome' } });
    fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('saved-reply-error')).toHaveTextContent(CREATE_ERROR));
    expect(screen.getByTestId('saved-reply-error').textContent).toBe(CREATE_ERROR);
    expect(templates.byCompany.get(1)!.map((x) => x.name)).not.toContain('Welcome');

    templates.fail.POST = { status: 503, body: null };
    await act(() => c.get(i18nApiRef).i18n.changeLanguage('fr'));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Nouvelle réponse enregistrée' })).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(screen.getByTestId('saved-reply-error')).toHaveTextContent('Une erreur est survenue lors de la création du modèle de réponse'));
  });

  it('selecting another company reloads its templates (spec §4); nothing of the previous company shows meanwhile', async () => {
    const { console: c, http } = await renderComposer();
    type('/');
    await waitFor(() => expect(names()).toEqual(['Greeting', 'Opening hours', 'Refund']));
    act(() => c.get(accountApiRef).selectCompany(2));
    await waitFor(() => expect(names()).toEqual(['Bonjour']));
    const loads = http.calls.filter((x) => x.method === 'GET' && x.path === '/api/agent-templates/');
    expect(loads).toHaveLength(2);
    expect(loads[0].options.query).toEqual({ page_size: 1000 });
    // Signing out forgets them.
    act(() => c.get(accountApiRef).clear());
    expect(c.get(savedRepliesApiRef).getState().templates).toEqual([]);
  });
});
