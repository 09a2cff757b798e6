import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MessageBubble, PhoneFrame, type PreviewMessage } from '../../../core/components/whatsappPreview/PhonePreview';
import { mediaPreviewUrl } from '../../../core/media/upload';
import { previewItems, type FlowDraft } from '../model/draft';

function mediaFormat(url: string): 'IMAGE' | 'VIDEO' | 'DOCUMENT' {
  const path = url.split('?')[0].toLowerCase();
  if (/\.(mp4|mov|webm)$/.test(path)) return 'VIDEO';
  if (/\.(pdf|docx?|xlsx?|pptx?)$/.test(path)) return 'DOCUMENT';
  return 'IMAGE';
}

/** The phone-style preview: what a customer gets from the flow as it is in the editor (updates as you type). */
export function FlowPreview({ draft, businessName }: { draft: FlowDraft; businessName: string }) {
  const { t } = useTranslation();
  const items = previewItems(draft);
  return (
    <Box data-testid="flow-preview">
      <Typography variant="subtitle1" component="h2" fontWeight={600} sx={{ mb: 1 }}>
        {t('flows.editor.preview.title')}
      </Typography>
      <PhoneFrame businessName={businessName}>
        {items.length === 0 && (
          <Typography variant="body2" sx={{ color: '#667781', textAlign: 'center', mt: 4 }}>
            {t('flows.editor.preview.empty')}
          </Typography>
        )}
        {items.map((item, i) => {
          const message: PreviewMessage =
            item.kind === 'media'
              ? { header: { kind: 'media', format: mediaFormat(item.mediaUrl!), url: mediaPreviewUrl(item.mediaUrl!), fileName: item.mediaUrl!.split('/').pop() }, body: '', buttons: [] }
              : { header: null, body: item.text, buttons: item.buttons.map((label) => ({ kind: item.kind === 'cta' ? 'URL' : 'QUICK_REPLY', label })) };
          return (
            <Box key={i} data-testid={`preview-${item.kind}`} data-step-id={item.stepId}>
              <MessageBubble message={message} />
            </Box>
          );
        })}
      </PhoneFrame>
    </Box>
  );
}
