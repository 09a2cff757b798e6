// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { renderWithConsole } from '../../../core/testing/renderWithConsole';
import { message } from '../testing/fakeChatServer';
import { mergeMessages } from '../model/messages';
import { MessageList } from './MessageList';
import { chatsPlugin } from '../index';

describe('MessageList', () => {
  it('keeps a 10,000-message room virtualised: far fewer than 100 rows in the DOM', async () => {
    const messages = mergeMessages([], Array.from({ length: 10_000 }, (_, i) => message(1, i + 1, { origin: i % 2 ? 'agent' : 'user', status: i % 2 ? 'read' : null })));
    renderWithConsole(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 56 }}>
        <div style={{ height: 800, display: 'flex' }}>
          <MessageList messages={messages} hasMore={false} loadingOlder={false} onLoadOlder={vi.fn()} onRetry={vi.fn()} />
        </div>
      </VirtuosoMockContext.Provider>,
      { plugins: [chatsPlugin], features: ['chats'] },
    );
    const rows = await screen.findAllByTestId('message-row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    // It opens at the newest message.
    expect(await screen.findByText('message 10000')).toBeInTheDocument();
    expect(screen.queryByText('message 1')).not.toBeInTheDocument();
  });

  it('shows delivery ticks and a Retry for a failed optimistic message', async () => {
    const onRetry = vi.fn();
    const failed = { ...message(1, -5, { origin: 'agent', status: 'failed', client_id: 'c-1', text: 'oops' }), local: true };
    renderWithConsole(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 56 }}>
        <MessageList messages={[message(1, 1, { origin: 'agent', status: 'delivered' }), message(1, 2, { origin: 'agent', status: 'read' }), failed]} hasMore={false} loadingOlder={false} onLoadOlder={vi.fn()} onRetry={onRetry} />
      </VirtuosoMockContext.Provider>,
      { plugins: [chatsPlugin], features: ['chats'] },
    );
    expect(await screen.findByRole('img', { name: 'Delivered' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Read' })).toHaveAttribute('data-status', 'read');
    screen.getByRole('button', { name: 'Retry' }).click();
    expect(onRetry).toHaveBeenCalledWith('c-1');
  });
});
