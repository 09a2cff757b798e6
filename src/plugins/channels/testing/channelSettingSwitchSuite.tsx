/**
 * The tests every per-channel inbox setting shown by ChannelSettingSwitch passes (auto-assignment, CSAT):
 * off by default, turned on and off by an admin with each change said, the server's refusal shown,
 * read-only with one line for those who cannot manage channels, absent (nothing asked) without chats access.
 */
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createPlugin } from '../../../core';
import { HttpError } from '../../../core/http/HttpError';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { translations } from '../translations';
import { viewer } from './fixtures';

export interface ChannelSettingSwitchCase {
  title: string;
  Switch: ComponentType<{ channelId: number }>;
  /** The setting's collection, e.g. `/api/csat/`. */
  path: string;
  label: string;
  description: string;
  onAlert: string;
  refusedAlert: string;
}

const plugin = createPlugin({ id: 'channels', featureFlag: 'channels', translations });
const ADMIN = viewer({ can_view_channels: true, can_manage_channels: true, can_view_chats: true, can_manage_chats: true });
const AGENT = viewer({ can_view_channels: true, can_manage_channels: false, can_view_chats: true }, 'agent');
const NO_CHATS = viewer({ can_view_channels: true, can_manage_channels: true, can_view_chats: false });

export function describeChannelSettingSwitch({ title, Switch, path, label, description, onAlert, refusedAlert }: ChannelSettingSwitchCase) {
  function fakeServer(options: { refuse?: boolean } = {}) {
    let on = false;
    return createFakeHttp((method, url, req) => {
      if (method === 'GET' && url === path) return { count: on ? 1 : 0, results: on ? [{ channel_id: 3, enabled: true }] : [] };
      if (method === 'PUT' && url === `${path}3/`) {
        if (options.refuse) throw new HttpError(400, { enabled: ['Must be a valid boolean.'] });
        on = (req.body as { enabled: boolean }).enabled;
        return { channel_id: 3, enabled: on };
      }
      throw new Error(`unexpected ${method} ${url}`);
    });
  }

  function renderSwitch(http: ReturnType<typeof fakeServer>, user = ADMIN) {
    return renderPluginPage(<Switch channelId={3} />, { plugins: [plugin], features: ['channels'], route: false, http, user, companyId: 1, signedIn: true });
  }

  describe(title, () => {
    it('is off by default; an admin turns it on, then off, each change saved and said', async () => {
      const http = fakeServer();
      const view = renderSwitch(http);
      const toggle = await screen.findByRole('switch', { name: label });
      expect(toggle).not.toBeChecked();
      expect(toggle).toHaveAccessibleDescription(description);
      await userEvent.click(toggle);
      await waitFor(() => expect(view.alertText()).toBe(onAlert));
      await waitFor(() => expect(screen.getByRole('switch', { name: label })).toBeChecked());
      await userEvent.click(screen.getByRole('switch', { name: label }));
      await waitFor(() => expect(screen.getByRole('switch', { name: label })).not.toBeChecked());
      expect(http.calls.filter((c) => c.method === 'PUT').map((c) => c.options.body)).toEqual([{ enabled: true }, { enabled: false }]);
    });

    it("shows the server's refusal", async () => {
      const view = renderSwitch(fakeServer({ refuse: true }));
      await userEvent.click(await screen.findByRole('switch', { name: label }));
      await waitFor(() => expect(view.alertText()).toBe(refusedAlert));
    });

    it('is read-only with one line saying who can change it, without channels manage access', async () => {
      renderSwitch(fakeServer(), AGENT);
      const toggle = await screen.findByRole('switch', { name: label });
      expect(toggle).toBeDisabled();
      expect(toggle).toHaveAccessibleDescription('Only members who can manage channels can change this.');
    });

    it('is absent without chats view access (nothing asked)', () => {
      const http = fakeServer();
      renderSwitch(http, NO_CHATS);
      expect(screen.queryByRole('switch')).toBeNull();
      expect(http.calls).toEqual([]);
    });
  });
}
