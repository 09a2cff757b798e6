import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  errorText,
  httpApiRef,
  SocialDialogClosedError,
  SocialSdkUnavailableError,
  socialApiRef,
  useAlert,
  useApi,
  useApiRegistry,
} from '../../core';
import type { FacebookPage } from '../../../contract/channels';
import { connectChannel, fetchFacebookPages, useRefreshChannels } from './api';

export type SocialPlatform = 'messenger' | 'instagram';

export interface PagePicker {
  platform: SocialPlatform;
  accessToken: string;
  pages: FacebookPage[];
}

function isDialogClosed(error: unknown): boolean {
  return error instanceof SocialDialogClosedError || (error as Error | null)?.name === 'SocialDialogClosedError';
}
function isSdkUnavailable(error: unknown): boolean {
  return error instanceof SocialSdkUnavailableError || (error as Error | null)?.name === 'SocialSdkUnavailableError';
}
/** No Meta app on the server (outside demo mode): GET /api/client-config/ answers facebook null, and retrying cannot help. */
async function facebookNotConfigured(social: { clientConfig(): Promise<{ facebook: unknown } | undefined> }): Promise<boolean> {
  const config = await Promise.resolve()
    .then(() => social.clientConfig())
    .catch(() => null);
  return config?.facebook === null;
}

/**
 * Connecting a Facebook page or its Instagram account: Facebook login with the page scopes →
 * POST /api/channels/facebook_pages/ → the picker → POST /api/channels/ → 'Channel connected'
 * and a refreshed list. A closed login dialog is the spec's warning 'Facebook login was closed';
 * an SDK that could not load says so; the server's refusals (409, 400) show its first message.
 */
export function useConnectFacebook() {
  const { t } = useTranslation();
  const registry = useApiRegistry();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const refresh = useRefreshChannels();
  const [starting, setStarting] = useState<SocialPlatform | null>(null);
  const [picker, setPicker] = useState<PagePicker | null>(null);
  // the picker stays set while the dialog fades out
  const [open, setOpen] = useState(false);
  const [connecting, setConnecting] = useState(false);

  const start = useCallback(
    async (platform: SocialPlatform) => {
      setStarting(platform);
      try {
        let accessToken: string;
        try {
          // resolved on click: the page still renders if no social SDK is registered
          accessToken = await registry.get(socialApiRef).facebookLogin('pages');
        } catch (error) {
          if (isDialogClosed(error)) alert.warning(t('channels.connect.loginClosed'));
          else if (isSdkUnavailable(error) && (await facebookNotConfigured(registry.get(socialApiRef)))) alert.error(t('channels.connect.notConfigured'));
          else if (isSdkUnavailable(error) || !registry.has(socialApiRef)) alert.error(t('channels.connect.sdkUnavailable'));
          else alert.error(errorText(error));
          return;
        }
        try {
          const pages = await fetchFacebookPages(http, accessToken);
          setPicker({ platform, accessToken, pages });
          setOpen(true);
        } catch (error) {
          alert.error(errorText(error));
        }
      } finally {
        setStarting(null);
      }
    },
    [registry, http, alert, t],
  );

  const connect = useCallback(
    async (page: FacebookPage) => {
      if (!picker) return;
      setConnecting(true);
      try {
        await connectChannel(http, { platform: picker.platform, access_token: picker.accessToken, page_id: page.id });
      } catch (error) {
        alert.error(errorText(error));
        return;
      } finally {
        setConnecting(false);
      }
      setOpen(false);
      alert.success(t('channels.connect.success'));
      await refresh();
    },
    [picker, http, alert, refresh, t],
  );

  const close = useCallback(() => setOpen(false), []);

  return { start, starting, picker, open, connecting, connect, close };
}
