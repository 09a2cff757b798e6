// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Link, Route, Routes } from 'react-router-dom';
import { membership, testUser } from '../../../core/account/testUsers';
import { accountApiRef, httpApiRef, overrideApi, realtimeApiRef } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { FakeSocket } from '../../../core/testing/fakeSocket';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { chatsPlugin } from '../index';
import { NotificationBell } from './NotificationBell';

describe('NotificationBell', () => {
  it('keeps its socket across page changes (it connected again at each one, against the per-user connect limit)', async () => {
    const http = createFakeHttp(() => ({ count: 0, next: null, previous: null, results: [] }));
    const createSocket = vi.fn(() => new FakeSocket(() => ({ status: 'ok', response: {} })).asSocket());
    const view = renderPluginPage(
      <>
        <NotificationBell />
        <Routes>
          <Route path="/one" element={<Link to="/two">Go to two</Link>} />
          <Route path="/two" element={<Link to="/one">Go to one</Link>} />
        </Routes>
      </>,
      { adminContext: false, route: false, plugins: [chatsPlugin], features: ['chats'], path: '/one', overrides: [overrideApi(realtimeApiRef, { createSocket }), overrideApi(httpApiRef, http)] },
    );
    act(() => {
      view.console.get(accountApiRef).setUser(testUser([membership(1, { can_view_chats: true })]));
      view.console.get(accountApiRef).selectCompany(1);
    });
    await waitFor(() => expect(createSocket).toHaveBeenCalledTimes(1));
    act(() => screen.getByRole('link', { name: 'Go to two' }).click());
    await screen.findByRole('link', { name: 'Go to one' });
    act(() => screen.getByRole('link', { name: 'Go to one' }).click());
    await screen.findByRole('link', { name: 'Go to two' });
    expect(createSocket).toHaveBeenCalledTimes(1);
  });
});
