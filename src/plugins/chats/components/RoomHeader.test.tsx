// @vitest-environment jsdom
/** The room header in the space it gets: too narrow for every button, the bot pause and block go to the overflow menu. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import { room } from '../testing/fakeChatServer';
import { RoomHeader } from './RoomHeader';

/** A ResizeObserver that reports the width the test gives, as a browser does once the element is laid out (later). */
class FakeResizeObserver {
  static width = 1200;
  constructor(private readonly callback: ResizeObserverCallback) {}
  static reports = true;
  observe(target: Element) {
    if (!FakeResizeObserver.reports) return;
    setTimeout(() => this.callback([{ target, contentRect: { width: FakeResizeObserver.width } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver));
  }
  unobserve() {}
  disconnect() {}
}

function renderHeader(width: number, { reports = true } = {}) {
  FakeResizeObserver.width = width;
  FakeResizeObserver.reports = reports;
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  const onTogglePause = vi.fn();
  renderPluginPage(
    <RoomHeader
      room={room(1, { name: 'Aiko Tanaka' })}
      pages={[]}
      viewers={[]}
      tagOptions={[]}
      canEditTags
      onTogglePause={onTogglePause}
      onBlock={() => {}}
      onAddTag={() => {}}
      onRemoveTag={() => {}}
      conversation={{ me: { id: 7, first_name: 'Ada', email: 'ada@example.com' }, onUpdate: () => {} }}
    />,
    { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'] },
  );
  return { onTogglePause };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RoomHeader in the space it gets', () => {
  it('shows Pause bot and Block beside the conversation controls when the header is wide', () => {
    renderHeader(1200);
    expect(screen.getByRole('button', { name: 'Pause bot' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Block' })).toBeVisible();
  });

  it('moves them to the overflow menu when the header is narrower than its buttons, whatever the window', async () => {
    const { onTogglePause } = renderHeader(640);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Pause bot' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Block' })).toBeNull();
    fireEvent.click(screen.getByTestId('room-more'));
    expect(screen.getByRole('menuitem', { name: 'Block' })).toBeVisible();
    act(() => screen.getByRole('menuitem', { name: 'Pause for 1 day' }).click());
    expect(onTogglePause).toHaveBeenCalledWith(1);
  });

  it('in a window narrower than its buttons (a phone) it is compact from its first render, before any report', () => {
    const windowWidth = Object.getOwnPropertyDescriptor(window, 'innerWidth');
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 390 });
    try {
      renderHeader(Number.NaN, { reports: false });
      expect(screen.queryByRole('button', { name: 'Pause bot' })).toBeNull();
      expect(screen.getByTestId('room-more')).toBeVisible();
    } finally {
      if (windowWidth) Object.defineProperty(window, 'innerWidth', windowWidth);
      else delete (window as { innerWidth?: number }).innerWidth;
    }
  });
});
