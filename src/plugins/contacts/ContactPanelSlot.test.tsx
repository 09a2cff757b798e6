// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPluginPage } from '../../core/testing/renderPluginPage';
import { ContactPanelSlot } from './ContactPanelSlot';

// The panel's code cannot be fetched (the server gone while a room opens): its import fails.
vi.mock('./panel/RoomContactPanel', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

describe('ContactPanelSlot', () => {
  it('leaves the panel out when its code cannot be fetched, instead of failing the inbox around it', async () => {
    renderPluginPage(
      <div data-testid="inbox">
        <p>The thread</p>
        <ContactPanelSlot roomId={11} onOpenRoom={() => undefined} />
      </div>,
      { features: ['contacts'], route: false, companyId: 1, signedIn: true },
    );
    // The test DOM is a phone's: the panel's code is asked for when its button is pressed. Once the failed import
    // settles, the boundary shows nothing in the panel's place (its busy button gone too).
    await userEvent.click(await screen.findByRole('button'));
    await waitFor(() => expect(screen.queryByRole('button')).not.toBeInTheDocument());
    expect(screen.queryByTestId('contact-panel-space')).not.toBeInTheDocument();
    expect(screen.getByTestId('inbox')).toHaveTextContent('The thread');
  });
});
