// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import { message } from '../testing/fakeChatServer';
import { MessageBubble } from './MessageBubble';

function show(patch: Parameters<typeof message>[2]) {
  renderPluginPage(<MessageBubble message={message(1, 1, patch)} onRetry={vi.fn()} />, { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] });
  return screen.getByTestId('message-row');
}

describe('MessageBubble: media URLs', () => {
  it('renders a javascript: or data: media_url as plain text, never as a link or a source', () => {
    for (const [type, url] of [
      ['document', 'javascript:alert(document.cookie)'],
      ['image', 'data:image/svg+xml,<svg onload=alert(1)>'],
      ['video', 'vbscript:msgbox(1)'],
    ] as const) {
      const row = show({ type, media_url: url, text: null });
      expect(within(row).queryByRole('link')).toBeNull();
      expect(row.querySelector('img, video, audio, [href], [src]')).toBeNull();
      expect(within(row).getByTestId('message-unsafe-url')).toHaveTextContent(url);
      cleanup();
    }
  });

  it('keeps https and our own /media/ paths as links and sources', () => {
    const doc = show({ type: 'document', media_url: 'https://cdn.example.com/invoice.pdf', text: null });
    expect(within(doc).getByRole('link')).toHaveAttribute('href', 'https://cdn.example.com/invoice.pdf');
    cleanup();
    const image = show({ type: 'image', media_url: '/media/chats/1/cat.png', text: null });
    expect(image.querySelector('img')?.getAttribute('src')).toBe(`${window.location.origin}/media/chats/1/cat.png`);
  });

  it('reports an attachment that fails to load (an expired signed URL) with the message id', () => {
    const onMediaError = vi.fn();
    renderPluginPage(<MessageBubble message={message(1, 7, { type: 'image', media_url: '/media/chats/1/a.png?exp=1&sig=x' })} onMediaError={onMediaError} />, { adminContext: false, route: false,
      plugins: [chatsPlugin],
      features: ['chats'],
    });
    fireEvent.error(screen.getByTestId('message-row').querySelector('img')!);
    expect(onMediaError).toHaveBeenCalledWith(7);
  });
});
