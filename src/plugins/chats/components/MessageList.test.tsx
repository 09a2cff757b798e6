// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { message } from '../testing/fakeChatServer';
import { mergeMessages } from '../model/messages';
import { MessageList } from './MessageList';
import { chatsPlugin } from '../index';

describe('MessageList', () => {
  it('keeps a 10,000-message room virtualised: far fewer than 100 rows in the DOM', async () => {
    const messages = mergeMessages([], Array.from({ length: 10_000 }, (_, i) => message(1, i + 1, { origin: i % 2 ? 'agent' : 'user', status: i % 2 ? 'read' : null })));
    renderPluginPage(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 56 }}>
        <div style={{ height: 800, display: 'flex' }}>
          <MessageList messages={messages} hasMore={false} loadingOlder={false} onLoadOlder={vi.fn()} onRetry={vi.fn()} />
        </div>
      </VirtuosoMockContext.Provider>,
      { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] },
    );
    const rows = await screen.findAllByTestId('message-row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    // It opens at the newest message.
    expect(await screen.findByText('message 10000')).toBeInTheDocument();
    expect(screen.queryByText('message 1')).not.toBeInTheDocument();
  });

  it('waits for the room’s history, then opens at its newest message, not at the preview it had before', async () => {
    const history = mergeMessages([], Array.from({ length: 200 }, (_, i) => message(1, i + 1)));
    let load = () => {};
    function Room() {
      const [loaded, setLoaded] = useState(false);
      load = () => setLoaded(true);
      return (
        <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 56 }}>
          <div style={{ height: 800, display: 'flex' }}>
            <MessageList messages={loaded ? history : history.slice(-1)} historyLoaded={loaded} hasMore={false} loadingOlder={false} onLoadOlder={vi.fn()} onRetry={vi.fn()} />
          </div>
        </VirtuosoMockContext.Provider>
      );
    }
    renderPluginPage(<Room />, { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] });
    expect(await screen.findByRole('progressbar', { name: 'Loading the conversation' })).toBeInTheDocument();
    expect(screen.queryAllByTestId('message-row')).toHaveLength(0);
    act(() => load());
    expect(await screen.findByText('message 200')).toBeInTheDocument();
    expect(screen.queryByText('message 1')).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: 'Loading the conversation' })).not.toBeInTheDocument();
  });

  it('shows delivery ticks and a Retry for a failed optimistic message', async () => {
    const onRetry = vi.fn();
    const failed = { ...message(1, -5, { origin: 'agent', status: 'failed', client_id: 'c-1', text: 'oops' }), local: true };
    renderPluginPage(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 56 }}>
        <MessageList messages={[message(1, 1, { origin: 'agent', status: 'delivered' }), message(1, 2, { origin: 'agent', status: 'read' }), failed]} hasMore={false} loadingOlder={false} onLoadOlder={vi.fn()} onRetry={onRetry} />
      </VirtuosoMockContext.Provider>,
      { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] },
    );
    expect(await screen.findByRole('img', { name: 'Delivered' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Read' })).toHaveAttribute('data-status', 'read');
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(onRetry).toHaveBeenCalledWith('c-1');
  });

  it('separates the days with Today, Yesterday, a weekday or a date, and shows the full date and time on hover', async () => {
    const now = new Date();
    const day = (daysAgo: number, hour: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysAgo, hour, 11).toISOString();
    const messages = mergeMessages([], [
      message(1, 1, { created_at: day(40, 19), text: 'long ago' }),
      message(1, 2, { created_at: day(3, 19), text: 'three days ago' }),
      message(1, 3, { created_at: day(3, 20), text: 'same evening' }),
      message(1, 4, { created_at: day(1, 9), text: 'yesterday morning' }),
      message(1, 5, { created_at: day(0, 0), text: 'just after midnight', origin: 'agent', status: 'read' }),
    ]);
    renderPluginPage(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 2000, itemHeight: 40 }}>
        <MessageList messages={messages} hasMore={false} loadingOlder={false} onLoadOlder={vi.fn()} onRetry={vi.fn()} />
      </VirtuosoMockContext.Provider>,
      { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] },
    );
    const separators = await screen.findAllByTestId('day-separator');
    const weekday = new Intl.DateTimeFormat('en', { weekday: 'long' }).format(new Date(day(3, 19)));
    expect(separators.map((s) => s.textContent)).toEqual([expect.not.stringMatching(/^(Today|Yesterday)$/), weekday, 'Yesterday', 'Today']);
    // In order: each separator comes right before its day's first message.
    const rows = [...document.querySelectorAll('[data-testid="day-separator"], [data-testid="message-row"]')].map((el) => (el.getAttribute('data-testid') === 'day-separator' ? `[${el.textContent}]` : within(el as HTMLElement).getByTestId('message-text').textContent));
    expect(rows.slice(2)).toEqual([`[${weekday}]`, 'three days ago', 'same evening', '[Yesterday]', 'yesterday morning', '[Today]', 'just after midnight']);

    const time = within(screen.getAllByTestId('message-row')[1]).getByTestId('message-time');
    expect(time).toHaveAttribute('datetime', day(3, 19));
    fireEvent.mouseOver(time);
    const full = new Date(day(3, 19)).toLocaleString('en', { dateStyle: 'full', timeStyle: 'short' });
    expect(await screen.findByRole('tooltip')).toHaveTextContent(full);
  });
});
