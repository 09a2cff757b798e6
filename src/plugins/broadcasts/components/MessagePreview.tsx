import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MessageBubble, type PreviewButtonKind, type PreviewMessage } from '../../../core/components/whatsappPreview/PhonePreview';
import type { RenderedMessage } from '../model/mapping';

const BUTTON_KINDS: readonly string[] = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP'];

/** Our rendering in the templates plugin's preview shape. */
export function toPreviewMessage(message: RenderedMessage, fileName?: string): PreviewMessage {
  const header: PreviewMessage['header'] =
    message.header?.kind === 'media'
      ? { kind: 'media', format: message.header.format as 'IMAGE' | 'VIDEO' | 'DOCUMENT', url: message.header.url, fileName }
      : message.header;
  return {
    header,
    body: message.body,
    footer: message.footer ?? undefined,
    buttons: message.buttons.map((b) => ({
      kind: (BUTTON_KINDS.includes(b.type) ? b.type : 'QUICK_REPLY') as PreviewButtonKind,
      label: b.text || (b.type === 'COPY_CODE' ? 'Copy code' : ''),
    })),
  };
}

/**
 * The message as one recipient sees it in WhatsApp: the templates plugin's bubble (header, body
 * with the variables filled in and WhatsApp's formatting, footer, buttons) on the chat background.
 */
export function MessagePreview({ message, label, fileName }: { message: RenderedMessage; label?: string; fileName?: string }) {
  const { t } = useTranslation();
  return (
    <Box
      role="figure"
      aria-label={label ?? t('broadcasts.preview.label')}
      data-testid="broadcast-message-preview"
      sx={{ p: 2, borderRadius: 2, bgcolor: '#efeae2', maxWidth: 380 }}
    >
      <MessageBubble message={toPreviewMessage(message, fileName)} width="100%" />
    </Box>
  );
}
