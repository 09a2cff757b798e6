// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactAttribute } from '../../../../contract/contacts';
import { membership, testUser } from '../../../core/account/testUsers';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { phoneScreen } from '../../../core/testing/phoneScreen';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { contactsPlugin } from '../index';
import { cityAttribute } from '../testing';
import { AttributeList } from './AttributeList';

const manager = testUser([membership(1, { can_view_chats: true, can_manage_chats: true }, { role: { id: 'manager', name: 'Manager' } })]);
const orders: ContactAttribute = { id: 2, name: 'Orders', key: 'orders', type: 'number', options: [], created_at: '2026-11-01T10:00:00Z' };

function fakeAttributesApi() {
  let list = [cityAttribute, orders];
  return createFakeHttp((method, path, options) => {
    if (path === '/api/contact-attributes/' && method === 'GET') return { count: list.length, results: list };
    const one = /^\/api\/contact-attributes\/(\d+)\/$/.exec(path);
    if (one && method === 'PATCH') {
      list = list.map((a) => (a.id === Number(one[1]) ? { ...a, ...(options.body as object) } : a));
      return list.find((a) => a.id === Number(one[1]));
    }
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const render = (http = fakeAttributesApi()) => renderPluginPage(<AttributeList />, { plugins: [contactsPlugin], features: ['contacts'], companyId: 1, signedIn: true, path: '/contact-attributes', http, user: manager });

describe('/contact-attributes', () => {
  it('lists the attributes with key, type and options; the pencil is "Edit attribute {name}" and renames it', async () => {
    const http = fakeAttributesApi();
    render(http);
    const row = (await screen.findByText('City')).closest('tr')!;
    expect(within(row).getByText('city')).toBeTruthy();
    expect(within(row).getByText('List')).toBeTruthy();
    expect(within(row).getByText('Lyon')).toBeTruthy();
    // It was labelled "Save City": a pencil that opens the attribute says it edits it.
    await userEvent.click(within(row).getByRole('button', { name: 'Edit attribute City' }));
    const dialog = await screen.findByRole('dialog', { name: 'City' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Town');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.calls.find((c) => c.method === 'PATCH')?.options.body).toEqual({ name: 'Town', options: ['Lyon', 'Paris'] }));
    expect(await screen.findByText('Town')).toBeTruthy();
  });

  it('on a phone, shows each attribute in one cell: name, then key and type, then options', async () => {
    const restore = phoneScreen();
    try {
      render();
      const cell = (await screen.findByText('City')).closest('td')!;
      expect(cell.textContent).toContain('city · List');
      expect(within(cell).getByText('Paris')).toBeTruthy();
      expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', '']);
      expect(within(cell.closest('tr')!).getByRole('button', { name: 'Edit attribute City' })).toBeTruthy();
    } finally {
      restore();
    }
  });
});
