import { mdiFacebookMessenger, mdiFlaskOutline, mdiInstagram, mdiWhatsapp } from '@mdi/js';
import type { SxProps, Theme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Platform } from '../../../../contract/chats';
import { MdiIcon } from '../../../core';

/** Each platform's brand icon and colour (a theme path for the sandbox's). */
export const PLATFORM_ICONS: Record<Platform, { path: string; color: string }> = {
  whatsapp: { path: mdiWhatsapp, color: '#25D366' },
  messenger: { path: mdiFacebookMessenger, color: '#0084FF' },
  instagram: { path: mdiInstagram, color: '#E1306C' },
  sandbox: { path: mdiFlaskOutline, color: 'text.secondary' },
};

/** The room's channel platform as a small brand icon, named for screen readers. */
export function PlatformIcon({ platform, sx }: { platform: Platform; sx?: SxProps<Theme> }) {
  const { t } = useTranslation();
  const icon = PLATFORM_ICONS[platform] ?? PLATFORM_ICONS.sandbox;
  const label = t(`chats.platform.${platform}`, { defaultValue: platform });
  return <MdiIcon path={icon.path} role="img" aria-label={label} titleAccess={label} data-platform={platform} sx={[{ fontSize: 14, color: icon.color, verticalAlign: 'middle' }, ...(Array.isArray(sx) ? sx : [sx])]} />;
}
