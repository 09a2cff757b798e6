// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { membership, testUser } from '../../../core/account/testUsers';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { contactsPlugin } from '../index';
import { contact, fakeContactsApi } from '../testing';
import { ContactList } from './ContactList';
import { ContactCreate } from './ContactCreate';
import { ContactShow } from './ContactShow';
import { ContactEdit } from './ContactEdit';
import { ConsoleNotification, HttpError } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { phoneScreen } from '../../../core/testing/phoneScreen';

const manager = testUser([membership(1, { can_view_chats: true, can_manage_chats: true }, { role: { id: 'manager', name: 'Manager' } })]);
const viewer = testUser([membership(1, { can_view_chats: true, can_manage_chats: false }, { role: { id: 'agent', name: 'Agent' } })]);
const options = (http: ReturnType<typeof fakeContactsApi>, user = manager, path = '/contacts') => ({ plugins: [contactsPlugin], features: ['contacts'], companyId: 1, signedIn: true, path, http, user });

describe('/contacts', () => {
  it('lists contacts with their phone, e-mail and tags, and searches by name', async () => {
    const http = fakeContactsApi([contact(1, 'Léa Martin', { phone: '+33612345678', email: 'lea@example.com', tags: [{ id: 9, name: 'vip' }] }), contact(2, 'Hugo Petit', { opted_out: true })]);
    renderPluginPage(<ContactList />, options(http));
    const row = (await screen.findByText('Léa Martin')).closest('tr')!;
    expect(within(row).getByText('+33612345678')).toBeTruthy();
    expect(within(row).getByText('lea@example.com')).toBeTruthy();
    expect(within(row).getByText('vip')).toBeTruthy();
    expect(within(screen.getByText('Hugo Petit').closest('tr')!).getByText('Opted out')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Import' })).toBeTruthy();
    await userEvent.type(screen.getByPlaceholderText('Search by name, phone or e-mail'), 'hugo');
    await waitFor(() => expect(screen.queryByText('Léa Martin')).toBeNull());
    expect(http.calls.some((c) => c.path === '/api/contacts/' && c.options.query?.search === 'hugo')).toBe(true);
  });

  it('shows the empty view without contacts', async () => {
    renderPluginPage(<ContactList />, options(fakeContactsApi([])));
    expect(await screen.findByText('No contacts yet')).toBeTruthy();
  });

  it('is read-only, saying who can change it, for a member who cannot manage chats', async () => {
    renderPluginPage(<ContactList />, options(fakeContactsApi([contact(1, 'Léa Martin')]), viewer));
    expect(await screen.findByText('Only members allowed to manage chats can change contacts.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: /create/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Import' })).toBeNull();
  });
});

describe('/contacts/{id}/show', () => {
  const show = (user: typeof manager) =>
    renderPluginPage(<ContactShow />, { ...options(fakeContactsApi([contact(1, 'Léa Martin', { phone: '+33612345678' })]), user, '/contacts/1/show'), route: '/contacts/:id/show' });

  it('says who can change the contact to a member who may only view it', async () => {
    show(viewer);
    expect(await screen.findByText('+33612345678')).toBeTruthy();
    expect(screen.getByText('Only members allowed to manage chats can change contacts.')).toBeTruthy();
  });

  it('does not tell one who may change it that they cannot (reached by its address)', async () => {
    show(manager);
    expect(await screen.findByText('+33612345678')).toBeTruthy();
    expect(screen.queryByText('Only members allowed to manage chats can change contacts.')).toBeNull();
  });
});

describe('/contacts/create', () => {
  it('refuses a phone that is not a number with its country code, then creates the contact', async () => {
    const http = fakeContactsApi([]);
    const view = renderPluginPage(<ContactCreate />, options(http, manager, '/contacts/create'));
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Zoé Durand');
    await userEvent.type(screen.getByLabelText(/^Phone/), '12345');
    await userEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Enter a valid phone number with its country code, e.g. +33612345678.')).toBeTruthy();
    expect(http.calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.clear(screen.getByLabelText(/^Phone/));
    await userEvent.type(screen.getByLabelText(/^Phone/), '+33 6 12 34 56 78');
    await userEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(http.calls.some((c) => c.method === 'POST')).toBe(true));
    const post = http.calls.find((c) => c.method === 'POST')!;
    expect(post.options.body).toMatchObject({ name: 'Zoé Durand', phone: '+33 6 12 34 56 78', tags: [] });
    await waitFor(() => expect(view.currentPath()).toBe('/contacts/100'));
  });

  it('opens the existing contact when the phone is taken (409)', async () => {
    const http = fakeContactsApi([contact(7, 'Léa Martin', { phone: '+33612345678' })]);
    const view = renderPluginPage(<ContactCreate />, options(http, manager, '/contacts/create'));
    await userEvent.type(await screen.findByLabelText(/^Name/), 'Léa');
    await userEvent.type(screen.getByLabelText(/^Phone/), '+33612345678');
    await userEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(view.currentPath()).toBe('/contacts/7'));
  });
});

describe('/contacts/{id} of a contact not in this company', () => {
  it('says so in the page, with the way back to the list, on the show and the edit page', async () => {
    const http = fakeContactsApi([contact(1, 'Léa Martin')]);
    // react-admin's own answer was a toast ("Element does not exist") and a redirect to the list.
    const withAlerts = { besideRoutes: <ConsoleNotification /> };
    const shown = renderPluginPage(<ContactShow />, { ...options(http, viewer, '/contacts/77/show'), route: '/contacts/:id/show', ...withAlerts });
    expect(await screen.findByText('This contact does not exist (any more) in this company.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to contacts' }).getAttribute('href')).toBe('/contacts');
    await act(() => Promise.resolve()); // the notification, were there one, reaches the alert in an effect
    expect(shown.alertText()).toBeFalsy();
    expect(shown.currentPath()).toBe('/contacts/77/show');
    shown.unmount();

    const edit = renderPluginPage(<ContactEdit />, { ...options(http, manager, '/contacts/77'), route: '/contacts/:id', ...withAlerts });
    expect(await screen.findByText('This contact does not exist (any more) in this company.')).toBeTruthy();
    expect(screen.queryByLabelText(/Name/)).toBeNull();
    await act(() => Promise.resolve());
    expect(edit.alertText()).toBeFalsy();
    expect(edit.currentPath()).toBe('/contacts/77');
    // No empty action bar above it (react-admin's kept its height without the record its Show button needs)...
    expect(edit.container.querySelector('.edit-page > .MuiToolbar-root')).toBeNull();
    edit.unmount();
    // ...while a contact that is there has its action bar (its read-only view's button, where the resource has one).
    const found = renderPluginPage(<ContactEdit />, { ...options(http, manager, '/contacts/1'), route: '/contacts/:id' });
    expect(await screen.findByDisplayValue('Léa Martin')).toBeTruthy();
    expect(found.container.querySelector('.edit-page > .MuiToolbar-root')).not.toBeNull();
  });

  it("gives the server's reason for any other failure", async () => {
    const http = createFakeHttp(() => {
      throw new HttpError(503, { detail: 'The database is not answering.' });
    });
    renderPluginPage(<ContactShow />, { ...options(http as ReturnType<typeof fakeContactsApi>, viewer, '/contacts/1/show'), route: '/contacts/:id/show' });
    expect(await screen.findByText('Could not load this contact: The database is not answering.')).toBeTruthy();
  });
});

describe('/contacts on a phone', () => {
  it('shows each contact in one cell, its phone, e-mail and tags under the name, still selectable', async () => {
    const restore = phoneScreen();
    try {
      const http = fakeContactsApi([contact(1, 'Léa Martin', { phone: '+33612345678', email: 'lea@example.com', tags: [{ id: 9, name: 'vip' }] })]);
      renderPluginPage(<ContactList />, options(http));
      const cell = (await screen.findByText('Léa Martin')).closest('td')!;
      expect(within(cell).getByText('+33612345678')).toBeTruthy();
      expect(within(cell).getByText('lea@example.com')).toBeTruthy();
      expect(within(cell).getByText('vip')).toBeTruthy();
      expect(screen.queryByRole('columnheader', { name: /^Phone/ })).toBeNull();
      expect(within(cell.closest('tr')!).getByRole('checkbox')).toBeTruthy();
    } finally {
      restore();
    }
  });
});
