// @vitest-environment jsdom
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { ContactPanelSlot } from './ContactPanelSlot';

// The panel's code cannot be fetched (the server gone while a room opens): its import fails.
vi.mock('./panel/RoomContactPanel', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

/** A thread with the slot beside it, and a way to the next room. */
function Inbox() {
  const [roomId, setRoomId] = useState(11);
  return (
    <div data-testid="inbox">
      <p>The thread</p>
      <button onClick={() => setRoomId(12)}>next room</button>
      <ContactPanelSlot roomId={roomId} onOpenRoom={() => undefined} />
    </div>
  );
}

describe('ContactPanelSlot', () => {
  it('leaves the panel out when its code cannot be fetched, instead of failing the inbox around it', async () => {
    renderPluginPage(<Inbox />, { features: ['contacts'], route: false, companyId: 1, signedIn: true });
    // The test DOM is a phone's: the panel's code is asked for when its button is pressed (no strings loaded here:
    // the button is named by its key). Once the failed import settles, the boundary shows nothing in the panel's
    // place (its busy button gone too).
    const showContact = () => screen.queryByRole('button', { name: 'contacts.panel.show' });
    await userEvent.click(await screen.findByRole('button', { name: 'contacts.panel.show' }));
    await waitFor(() => expect(showContact()).not.toBeInTheDocument());
    expect(screen.queryByTestId('contact-panel-space')).not.toBeInTheDocument();
    expect(screen.getByTestId('inbox')).toHaveTextContent('The thread');

    // The next room: the phone's button again, not busy, and nothing asked until it is pressed.
    await userEvent.click(screen.getByRole('button', { name: 'next room' }));
    await waitFor(() => expect(showContact()).toBeInTheDocument());
    expect(showContact()).not.toHaveAttribute('aria-busy');
  });
});
