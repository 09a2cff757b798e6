import { mdiFacebookMessenger, mdiFlaskOutline, mdiInstagram, mdiWhatsapp } from '@mdi/js';
import type { Platform } from '../../../../contract/chats';

/** Each platform's brand icon and colour (null: the surrounding text's colour, for the sandbox). */
export const PLATFORM_ICONS: Record<Platform, { path: string; color: string | null }> = {
  whatsapp: { path: mdiWhatsapp, color: '#25D366' },
  messenger: { path: mdiFacebookMessenger, color: '#0084FF' },
  instagram: { path: mdiInstagram, color: '#E1306C' },
  sandbox: { path: mdiFlaskOutline, color: null },
};
