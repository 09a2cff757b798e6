// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { Route, Routes } from 'react-router-dom';
import { membership, testUser } from '../../../core/account/testUsers';
import { accountApiRef, httpApiRef, overrideApi, realtimeApiRef, type Console } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import ChatsPage from '../ChatsPage';
import { chatsPlugin } from '../index';
import { agentTemplate, createFakeAgentTemplates } from '../testing/fakeAgentTemplates';
import { createFakeChatServer, message, room } from '../testing/fakeChatServer';
import { FakeSocket } from '../../../core/testing/fakeSocket';

function renderInbox() {
  let c: Console | null = null;
  const templates = createFakeAgentTemplates(() => c!.get(accountApiRef), {
    1: [agentTemplate('Thanks', 'Thank you for your message!')],
    2: [agentTemplate('Merci', 'Merci pour votre message !'), agentTemplate('Horaires', 'Ouvert de 9 h à 17 h.')],
  });
  const http = createFakeHttp((method, path, options) => {
    const answer = templates.handle(method, path, options);
    if (answer.handled) return answer.value;
    if (path === '/api/chats/presigned_url/') throw new Error('404');
    return { results: [] };
  });
  const server = createFakeChatServer({ rooms: [{ room: room(1, { name: 'Alice Smith' }), messages: [message(1, 1, { text: 'Hello' })] }] });
  const realtime = { createSocket: () => new FakeSocket((t, e, p) => server.reply(t, e, p)).asSocket() };
  const view = renderPluginPage(
    <VirtuosoMockContext.Provider value={{ viewportHeight: 800, itemHeight: 60 }}>
      <Routes>
        <Route path="/chats/:roomId?" element={<ChatsPage />} />
      </Routes>
    </VirtuosoMockContext.Provider>,
    { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], path: '/chats/1', overrides: [overrideApi(realtimeApiRef, realtime), overrideApi(httpApiRef, http)] },
  );
  c = view.console;
  return { ...view, http };
}

const loads = (http: ReturnType<typeof renderInbox>['http']) => http.calls.filter((x) => x.method === 'GET' && x.path === '/api/agent-templates/').length;
const names = () => within(screen.getByRole('listbox', { name: 'Saved replies' })).getAllByRole('option').map((o) => o.querySelector('.MuiListItemText-primary')!.textContent);

describe('ChatsPage: saved replies', () => {
  beforeEach(() => localStorage.clear());

  it('loads the templates when the page starts and reloads them when another company is selected', async () => {
    const { console: c, http } = renderInbox();
    expect(loads(http)).toBe(0);
    act(() => {
      c.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true, can_manage_chats: true }), membership(2, { can_view_chats: true, can_manage_chats: true })]));
      c.get(accountApiRef).selectCompany(1);
    });
    await waitFor(() => expect(loads(http)).toBe(1));
    const box = await screen.findByRole('textbox', { name: /Type a message/ });
    fireEvent.change(box, { target: { value: '/' } });
    await waitFor(() => expect(names()).toEqual(['Thanks']));
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box).toHaveValue('Thank you for your message!');

    act(() => c.get(accountApiRef).selectCompany(2));
    await waitFor(() => expect(loads(http)).toBe(2));
    const again = await screen.findByRole('textbox', { name: /Type a message/ });
    fireEvent.change(again, { target: { value: '/' } });
    await waitFor(() => expect(names()).toEqual(['Horaires', 'Merci']));
    fireEvent.change(again, { target: { value: '/merci' } });
    expect(names()).toEqual(['Merci']);
  });
});
