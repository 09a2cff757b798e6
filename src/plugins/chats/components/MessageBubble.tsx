import { memo } from 'react';
import { Box, Button, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../model/messages';
import { DeliveryTicks } from './DeliveryTicks';

function timeOf(iso: string, locale: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}

function Media({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  if (!message.media_url) return null;
  const kind = message.type;
  if (kind === 'image' || message.media_type?.startsWith('image/')) {
    return <Box component="img" src={message.media_url} alt={message.text ?? t('chats.media.image')} loading="lazy" sx={{ maxWidth: 260, maxHeight: 260, borderRadius: 1, display: 'block', mb: message.text ? 0.5 : 0 }} />;
  }
  if (kind === 'video') return <Box component="video" src={message.media_url} controls sx={{ maxWidth: 260, display: 'block' }} />;
  if (kind === 'audio') return <Box component="audio" src={message.media_url} controls sx={{ display: 'block' }} />;
  return (
    <Link href={message.media_url} target="_blank" rel="noopener noreferrer" display="block">
      {t('chats.media.open')}
    </Link>
  );
}

/** One message: the customer's on the left, outgoing (agent, bot) on the right with delivery ticks. */
export const MessageBubble = memo(function MessageBubble({ message, onRetry }: { message: ChatMessage; onRetry?: (clientId: string) => void }) {
  const { t, i18n } = useTranslation();
  const outgoing = message.origin !== 'user';
  const system = message.origin === 'system';
  const failed = message.status === 'failed';
  const text = message.text ?? (message.data ? JSON.stringify(message.data) : '');
  return (
    <Box
      data-testid="message-row"
      data-origin={message.origin}
      data-status={message.status ?? ''}
      data-client-id={message.client_id ?? ''}
      sx={{ display: 'flex', justifyContent: system ? 'center' : outgoing ? 'flex-end' : 'flex-start', px: 2, py: 0.375 }}
    >
      <Box
        sx={{
          maxWidth: '72%',
          px: 1.5,
          py: 0.75,
          borderRadius: 2,
          borderTopRightRadius: outgoing && !system ? 4 : undefined,
          borderTopLeftRadius: !outgoing ? 4 : undefined,
          bgcolor: system ? 'action.hover' : outgoing ? (message.origin === 'bot' ? 'secondary.light' : 'primary.main') : 'background.paper',
          color: outgoing && !system && message.origin !== 'bot' ? 'primary.contrastText' : 'text.primary',
          boxShadow: system ? 0 : 1,
          border: failed ? 1 : 0,
          borderColor: 'error.main',
        }}
      >
        {message.origin === 'bot' && (
          <Typography variant="caption" sx={{ display: 'block', opacity: 0.7 }}>
            {t('chats.origin.bot')}
          </Typography>
        )}
        <Media message={message} />
        {text && (
          <Typography variant="body2" data-testid="message-text" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {text}
          </Typography>
        )}
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5, mt: 0.25 }}>
          <Typography variant="caption" sx={{ opacity: 0.75 }}>
            {timeOf(message.created_at, i18n.language)}
          </Typography>
          {outgoing && !system && (
            <Box component="span" sx={{ bgcolor: 'background.paper', borderRadius: 1, px: 0.25, display: 'inline-flex' }}>
              <DeliveryTicks status={message.status} />
            </Box>
          )}
        </Box>
        {failed && message.local && message.client_id && onRetry && (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5, bgcolor: 'background.paper', borderRadius: 1, px: 1 }}>
            <Typography variant="caption" color="error">
              {t('chats.status.failed')}
            </Typography>
            <Button size="small" color="error" onClick={() => onRetry(message.client_id!)}>
              {t('chats.retry')}
            </Button>
          </Box>
        )}
      </Box>
    </Box>
  );
});
