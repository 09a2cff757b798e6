// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { membership, testUser } from '../../../core/account/testUsers';
import { FakeSocket } from '../../../core/testing/fakeSocket';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { contactsPlugin, ContactPanelSlot } from '../index';
import { contact, fakeContactsApi } from '../testing';

const room = (id: number, status: 'open' | 'resolved' = 'open') => ({ id, page_id: 5, platform: 'whatsapp' as const, name: 'Léa', status, last_message_at: '2026-11-20T10:00:00Z', created_at: '2026-11-01T10:00:00Z' });
const lea = contact(3, 'Léa Martin', { phone: '+33612345678', attributes: { city: 'Lyon' }, tags: [{ id: 9, name: 'vip' }], opted_out: true, rooms: [room(11), room(12, 'resolved')], broadcasts: [{ id: 5, name: 'Autumn welcome offer', state: 'read', sent_at: '2026-11-25T10:00:00.000Z' }] });

function renderPanel(canManage: boolean, opened: number[] = []) {
  const socket = new FakeSocket(() => ({ status: 'ok', response: {} }));
  const http = fakeContactsApi([lea]);
  const view = renderPluginPage(<ContactPanelSlot roomId={11} onOpenRoom={(id) => opened.push(id)} />, {
    plugins: [contactsPlugin],
    features: ['contacts'],
    route: false,
    http,
    socket: socket.asSocket(),
    companyId: 1,
    signedIn: true,
    user: testUser([membership(1, { can_view_chats: true, can_manage_chats: canManage })]),
  });
  return { ...view, socket, http };
}

/** The test DOM has no wide screen: the panel is the phone's sheet, opened from its button. */
async function openSheet() {
  await userEvent.click(await screen.findByRole('button', { name: 'Show contact' }));
  return screen.findByTestId('contact-panel-body');
}

describe('the inbox contact panel', () => {
  it("shows the room's contact: name, phone, attributes, tags, opt-out state, its conversations (one opens in place)", async () => {
    const opened: number[] = [];
    renderPanel(true, opened);
    const panel = await openSheet();
    expect(within(panel).getByText('Léa Martin')).toBeTruthy();
    expect(within(panel).getByText('+33612345678')).toBeTruthy();
    expect(within(panel).getByText('Lyon')).toBeTruthy();
    expect(within(panel).getByText('vip')).toBeTruthy();
    expect(within(panel).getByText('Opted out of broadcasts')).toBeTruthy();
    expect(within(panel).getByText('This conversation')).toBeTruthy();
    // The broadcasts the contact was sent (they are no room messages).
    expect(within(within(panel).getByRole('list', { name: 'Broadcasts received' })).getByText('Autumn welcome offer')).toBeTruthy();
    expect(within(panel).getByText(/^Read · /)).toBeTruthy();
    await userEvent.click(within(panel).getAllByRole('button', { name: 'Open conversation on whatsapp' })[1]);
    expect(opened).toEqual([12]);
  });

  it('edits an attribute in place (PATCH of that key) and follows the contact live', async () => {
    const { http, socket } = renderPanel(true);
    const panel = await openSheet();
    await userEvent.click(within(panel).getByRole('button', { name: 'Edit City' }));
    await userEvent.click(within(panel).getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: 'Paris' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(panel).getByText('Paris')).toBeTruthy());
    expect(http.calls.find((c) => c.method === 'PATCH')?.options.body).toEqual({ attributes: { city: 'Paris' } });
    // Someone else renames the contact: pushed on contact:3.
    await waitFor(() => expect(socket.find('contact:3')).toBeTruthy());
    act(() => socket.emit('contact:3', 'contact_updated', { contact: { ...lea, name: 'Léa M.', rooms: undefined } }));
    await waitFor(() => expect(within(panel).getByText('Léa M.')).toBeTruthy());
    expect(within(panel).getByText('This conversation')).toBeTruthy();
  });

  it('is read-only for a member who cannot manage chats, saying who can', async () => {
    renderPanel(false);
    const panel = await openSheet();
    expect(within(panel).queryByRole('button', { name: /^Edit / })).toBeNull();
    expect(within(panel).getByText('Only members allowed to manage chats can change contacts.')).toBeTruthy();
  });
});
