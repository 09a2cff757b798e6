import type { ReactElement } from 'react';
import type { User } from '../../../../contract/api';
import { renderPluginPage, type RenderPluginPageOptions } from '../../../core/testing/renderPluginPage';
import { FakeSocket, type ReplyFn } from '../../../core/testing/fakeSocket';
import { broadcastsPlugin } from '../index';

export const ADMIN: User = {
  id: 7,
  first_name: 'Ada',
  last_name: 'Admin',
  email: 'ada@example.test',
  companies: [
    { id: 1, name: 'Demo Company', role: { id: 'admin', name: 'Admin' }, permissions: {} },
    { id: 2, name: 'Other Company', role: { id: 'admin', name: 'Admin' }, permissions: {} },
  ],
} as unknown as User;

/** Answers every join ok; the test emits events on the returned socket. */
export const joinOk: ReplyFn = (_topic, event) => (event === 'phx_join' ? { status: 'ok', response: {} } : { status: 'ok', response: {} });

/**
 * The broadcasts plugin's defaults on renderPluginPage: a fake socket (its `emit` plays the server),
 * the broadcast features and a signed-in admin of company 1.
 */
export function renderBroadcasts(ui: ReactElement, options: RenderPluginPageOptions & { path: string }) {
  const socket = new FakeSocket(joinOk);
  const view = renderPluginPage(ui, {
    plugins: [broadcastsPlugin],
    features: ['triggers', 'broadcast_engagement'],
    user: ADMIN,
    companyId: 1,
    signedIn: true,
    socket: socket.asSocket(),
    markElsewhere: true,
    ...options,
  });
  return { ...view, socket };
}
