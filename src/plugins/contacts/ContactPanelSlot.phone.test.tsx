// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { membership, testUser } from '../../core/account/testUsers';
import { FakeSocket } from '../../core/testing/fakeSocket';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { contactsPlugin } from './index';
import { ContactPanelSlot } from './ContactPanelSlot';
import { contact, fakeContactsApi } from './testing';

// Counts the panel's module being asked for: the factory runs on its first import (once in this file).
const panelImports = vi.hoisted(() => ({ count: 0 }));
vi.mock('./panel/RoomContactPanel', async (importOriginal) => {
  panelImports.count += 1;
  return importOriginal();
});

const room = { id: 11, page_id: 5, platform: 'whatsapp' as const, name: 'Léa', status: 'open' as const, last_message_at: '2026-11-20T10:00:00Z', created_at: '2026-11-01T10:00:00Z' };

function renderSlot() {
  return renderPluginPage(<ContactPanelSlot roomId={11} onOpenRoom={() => undefined} />, {
    plugins: [contactsPlugin],
    features: ['contacts'],
    route: false,
    http: fakeContactsApi([contact(3, 'Léa Martin', { phone: '+33612345678', rooms: [room] })]),
    socket: new FakeSocket(() => ({ status: 'ok', response: {} })).asSocket(),
    companyId: 1,
    signedIn: true,
    user: testUser([membership(1, { can_view_chats: true, can_manage_chats: true })]),
  });
}

// The test DOM has no wide screen: the placement is the phone's sheet.
describe('the contact panel on a phone', () => {
  afterEach(() => vi.useRealTimers());

  it("shows the sheet's button without the panel's code, fetches that code once the page is idle, and opens the sheet from the button", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true }); // the page's own waits run; the prefetch's delay is skipped below
    renderSlot();
    const button = await screen.findByRole('button', { name: 'Show contact' });
    // The button's effects (the prefetch's timer) run before the clock moves: found, the button may be committed with
    // its effects still pending, and a timer set after the first move came 4 s late (a CI run failed that way).
    await act(async () => undefined);
    expect(panelImports.count).toBe(0);
    await act(async () => vi.advanceTimersByTimeAsync(4000));
    expect(panelImports.count).toBe(0);
    await act(async () => vi.advanceTimersByTimeAsync(3000)); // the delay, then whenIdle's fallback timer
    // The import goes through the test runner's transform of the panel's modules: seconds on a loaded machine.
    await vi.waitFor(() => expect(panelImports.count).toBe(1), { timeout: 15_000 });
    expect(screen.queryByTestId('contact-panel-body')).not.toBeInTheDocument();

    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(button);
    expect(await screen.findByTestId('contact-panel-body')).toHaveTextContent('Léa Martin');
  });
});
