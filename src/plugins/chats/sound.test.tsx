// @vitest-environment jsdom
/** Issue #22: the new-message sound — off by default, for conversations assigned to me, not for the one I am looking at. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import type { Message, Room } from '../../../contract/chats';
import { useBackgroundAlerts } from './notifications';
import type { ChatService, CustomerMessageListener } from './service/chatService';
import { SOUND_KEY, useSoundSetting } from './sound';
import { message, room } from './testing/fakeChatServer';

function setup(openRoomId: number | null) {
  let listener: CustomerMessageListener = () => undefined;
  const service = { onCustomerMessage: (l: CustomerMessageListener) => ((listener = l), () => undefined) } as unknown as ChatService;
  const play = vi.fn();
  renderHook(() => useBackgroundAlerts(service, (name) => name, { myId: 7, openRoomId: () => openRoomId, play }));
  const write = (r: Room, m: Message) => act(() => listener(r, m));
  return { play, write };
}

describe('the new-message sound', () => {
  beforeEach(() => localStorage.clear());
  const mine = room(1, { assignee: { id: 7, first_name: 'Ada', email: 'ada@example.com' } });
  const theirs = room(2, { assignee: { id: 8, first_name: 'Sam', email: 'sam@example.com' } });

  it('is off by default; once on, plays for a customer message in a room assigned to me only', () => {
    const { play, write } = setup(null);
    write(mine, message(1, 10));
    expect(play).not.toHaveBeenCalled();
    localStorage.setItem(SOUND_KEY, 'on');
    write(mine, message(1, 11));
    write(theirs, message(2, 12));
    write(room(3), message(3, 13));
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('stays quiet for the room open in the visible tab', () => {
    localStorage.setItem(SOUND_KEY, 'on');
    const { play, write } = setup(1);
    write(mine, message(1, 10));
    expect(play).not.toHaveBeenCalled();
  });

  it('is a per-browser setting the inbox toggles', () => {
    const { result } = renderHook(() => useSoundSetting());
    expect(result.current.on).toBe(false);
    act(() => result.current.toggle());
    expect(result.current.on).toBe(true);
    expect(localStorage.getItem(SOUND_KEY)).toBe('on');
    act(() => result.current.toggle());
    expect(localStorage.getItem(SOUND_KEY)).toBe('off');
  });
});
