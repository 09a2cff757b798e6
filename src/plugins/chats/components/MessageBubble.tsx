import { memo } from 'react';
import { csatRatingOf } from '../../../../contract/csat';
import { currencyDigits, plainAmount, reactionOf, systemLineOf } from '../../../../contract/customerEvents';
import { Box, Button, Chip, Link, Stack, Typography } from '@mui/material';
import { mdiAccountBoxOutline, mdiBookOpenPageVariantOutline, mdiCartOutline, mdiFormatListBulleted, mdiGestureTapButton, mdiMapMarkerOutline, mdiTextBoxOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { assistantMarkOf } from '../../../../contract/assistant';
import { ConsoleTooltip, MdiIcon, safeUrl } from '../../../core';
import { clockTime, fullDateTime, systemLineLabel } from '../format';
import { messageContent } from '../model/messageContent';
import type { ChatMessage } from '../model/messages';
import { DeliveryTicks } from './DeliveryTicks';
import { FOCUS_OUTLINE, NoteBubble, useFocusedMessage } from './NoteBubble';

function Media({ message, onError }: { message: ChatMessage; onError?: (messageId: number) => void }) {
  const { t } = useTranslation();
  const failed = onError && !message.local ? () => onError(message.id) : undefined;
  if (!message.media_url) return null;
  // Only http(s) and our own paths become a source or a link; anything else (javascript:, data:…) stays text.
  const url = safeUrl(message.media_url);
  if (!url) {
    return (
      <Typography variant="body2" data-testid="message-unsafe-url" sx={{ wordBreak: 'break-all', opacity: 0.75 }}>
        {message.media_url}
      </Typography>
    );
  }
  const kind = message.type;
  if (kind === 'image' || message.media_type?.startsWith('image/')) {
    return <Box component="img" src={url} alt={message.text ?? t('chats.media.image')} loading="lazy" onError={failed} sx={{ maxWidth: 260, maxHeight: 260, borderRadius: 1, display: 'block', mb: message.text ? 0.5 : 0 }} />;
  }
  if (kind === 'video') return <Box component="video" src={url} controls onError={failed} sx={{ maxWidth: 260, display: 'block' }} />;
  if (kind === 'audio') return <Box component="audio" src={url} controls onError={failed} sx={{ display: 'block' }} />;
  return (
    <Link href={url} target="_blank" rel="noopener noreferrer" display="block">
      {t('chats.media.open')}
    </Link>
  );
}

/** An amount in the console's language ("12,50 €"); Meta's currency code as is when the browser knows it not. */
function money(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return plainAmount(amount, currency);
  }
}

/** quantity × unit price, in the currency's minor units (2 × 0.1 stays 0.20). */
function lineTotal(quantity: number, price: number, currency: string): number {
  const scale = 10 ** currencyDigits(currency);
  return (Math.round(price * scale) * quantity) / scale;
}

/** A small line above or below the content: what kind of message this is. */
function Caption({ icon, children, testId }: { icon: string; children: React.ReactNode; testId?: string }) {
  return (
    <Typography variant="caption" data-testid={testId} sx={{ display: 'flex', alignItems: 'center', gap: 0.5, opacity: 0.75 }}>
      <MdiIcon path={icon} sx={{ fontSize: 14 }} />
      {children}
    </Typography>
  );
}

function Body({ text }: { text: string }) {
  if (!text) return null;
  return (
    <Typography variant="body2" data-testid="message-text" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Typography>
  );
}

/** The message's text, or what its kind carries (template, reply, location, contacts, buttons). */
function Content({ message, linkColor }: { message: ChatMessage; linkColor: string }) {
  const { t, i18n } = useTranslation();
  const c = messageContent(message);
  switch (c.kind) {
    case 'template':
      return (
        <>
          <Body text={c.text} />
          <Caption icon={mdiTextBoxOutline} testId="message-caption">
            {c.name ? t('chats.kind.template', { name: c.name }) : t('chats.kind.templateUnnamed')}
          </Caption>
        </>
      );
    case 'reply':
      return (
        <>
          <Body text={c.title} />
          <Caption icon={c.via === 'button' ? mdiGestureTapButton : mdiFormatListBulleted} testId="message-caption">
            {t(c.via === 'button' ? 'chats.kind.buttonReply' : 'chats.kind.listReply')}
          </Caption>
        </>
      );
    case 'location':
      return (
        <Box data-testid="message-location">
          <Caption icon={mdiMapMarkerOutline}>{t('chats.kind.location')}</Caption>
          {c.name && (
            <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {c.name}
            </Typography>
          )}
          {c.address && (
            <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
              {c.address}
            </Typography>
          )}
          {!c.name && !c.address && (
            <Typography variant="body2">
              {c.latitude}, {c.longitude}
            </Typography>
          )}
          <Link href={c.mapUrl} target="_blank" rel="noopener noreferrer" variant="body2" sx={{ color: linkColor, fontWeight: 600 }}>
            {t('chats.kind.openMap')}
          </Link>
        </Box>
      );
    case 'contacts':
      return (
        <Box data-testid="message-contacts">
          <Caption icon={mdiAccountBoxOutline}>{t('chats.kind.contacts', { count: c.contacts.length })}</Caption>
          {c.contacts.map((contact, i) => (
            <Box key={i} sx={{ mt: 0.5 }}>
              {contact.name && (
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {contact.name}
                </Typography>
              )}
              {contact.phones.map((phone) => (
                <Link key={phone} href={`tel:${phone.replace(/[^\d+]/g, '')}`} variant="body2" display="block" sx={{ color: linkColor }}>
                  {phone}
                </Link>
              ))}
            </Box>
          ))}
        </Box>
      );
    case 'interactive':
      return (
        <>
          <Body text={c.text} />
          {c.buttons.length > 0 && (
            <Stack direction="row" useFlexGap aria-label={t('chats.kind.buttons')} sx={{ flexWrap: 'wrap', gap: 0.5, mt: 0.5 }} data-testid="message-buttons">
              {c.buttons.map((b, i) => (
                <Chip key={`${i}-${b}`} label={b} size="small" variant="outlined" sx={{ bgcolor: 'background.paper', color: 'text.primary' }} />
              ))}
            </Stack>
          )}
        </>
      );
    case 'order':
      // Issue #25: a WhatsApp order, a small receipt (the stored text reads the same in English).
      return (
        <Box data-testid="message-order" sx={{ minWidth: 200 }}>
          <Caption icon={mdiCartOutline}>{t('chats.order.title')}</Caption>
          <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, mt: 0.5 }}>
            {c.items.map((item, i) => (
              <Box component="li" key={i} data-testid="message-order-item" sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', gap: 2 }}>
                <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                  {t('chats.order.item', { quantity: item.quantity, product: item.product })}
                  {item.quantity !== 1 && (
                    <Typography component="span" variant="caption" sx={{ opacity: 0.75 }}>
                      {' · '}
                      {t('chats.order.each', { price: money(item.price, item.currency, i18n.language) })}
                    </Typography>
                  )}
                </Typography>
                <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
                  {money(lineTotal(item.quantity, item.price, item.currency), item.currency, i18n.language)}
                </Typography>
              </Box>
            ))}
          </Box>
          {c.total && (
            <Box data-testid="message-order-total" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2, mt: 0.5, pt: 0.5, borderTop: 1, borderColor: 'divider' }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {t('chats.order.total')}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                {money(c.total.amount, c.total.currency, i18n.language)}
              </Typography>
            </Box>
          )}
          {c.note && (
            <Box sx={{ mt: 0.5 }}>
              <Body text={c.note} />
            </Box>
          )}
        </Box>
      );
    default:
      return <Body text={c.text} />;
  }
}

/** A small event row of the thread (a CSAT rating, a line the channel added), centred, with its time. */
function EventRow({ message, event, testId, children }: { message: ChatMessage; event: string; testId: string; children: React.ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <Box data-testid="message-row" data-origin="system" data-event={event} data-message-id={message.id} sx={{ display: 'flex', justifyContent: 'center', px: 2, py: 0.375 }}>
      <Typography variant="caption" color="text.secondary" data-testid={testId} sx={{ bgcolor: 'action.hover', borderRadius: 2, px: 1.5, py: 0.25, textAlign: 'center' }}>
        {children} ·{' '}
        <time dateTime={message.created_at} data-testid="message-time">
          {clockTime(message.created_at, i18n.language)}
        </time>
      </Typography>
    </Box>
  );
}

/** Issue #25: the customer's reaction, a small badge under the bubble. */
function ReactionBadge({ emoji }: { emoji: string }) {
  const { t } = useTranslation();
  const label = t('chats.reaction', { emoji });
  return (
    <ConsoleTooltip title={label}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        data-testid="message-reaction"
        sx={{ mt: -0.5, px: 0.5, bgcolor: 'background.paper', color: 'text.primary', borderRadius: 2, boxShadow: 1, fontSize: 14, lineHeight: 1.5, position: 'relative', zIndex: 1 }}
      >
        {emoji}
      </Box>
    </ConsoleTooltip>
  );
}

/** One message: the customer's on the left, outgoing (agent, bot) on the right with delivery ticks. */
export const MessageBubble = memo(function MessageBubble({
  message,
  onRetry,
  onMediaError,
}: {
  message: ChatMessage;
  onRetry?: (clientId: string) => void;
  onMediaError?: (messageId: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const focused = useFocusedMessage(message.id);
  // Issue #22: a private note has a look of its own (./NoteBubble.tsx).
  if (message.private || message.origin === 'note') return <NoteBubble message={message} />;
  // Issue #22: a customer's CSAT rating, a small event row of the thread.
  const rating = message.origin === 'system' ? csatRatingOf(message.data) : null;
  if (rating !== null) {
    return (
      <EventRow message={message} event="csat" testId="csat-event">
        {t('chats.csatRated', { rating })}
      </EventRow>
    );
  }
  // Issue #25: a line the channel added (a number change, a message it cannot show), in the console's language.
  const line = message.origin === 'system' ? systemLineOf(message.data) : null;
  if (line) {
    return (
      <EventRow message={message} event={line.system} testId="system-event">
        {systemLineLabel(t, line)}
      </EventRow>
    );
  }
  const reaction = reactionOf(message.data);
  const outgoing = message.origin !== 'user';
  const system = message.origin === 'system';
  const failed = message.status === 'failed';
  const onPrimary = outgoing && !system && message.origin !== 'bot';
  // Issue #24: the AI assistant's messages are the bot's, marked AI with the titles of their sources.
  const ai = message.origin === 'bot' ? assistantMarkOf(message.data) : null;
  return (
    <Box
      data-testid="message-row"
      data-origin={message.origin}
      data-status={message.status ?? ''}
      data-client-id={message.client_id ?? ''}
      data-message-id={message.id}
      data-focused={focused ? 'true' : undefined}
      sx={{ display: 'flex', justifyContent: system ? 'center' : outgoing ? 'flex-end' : 'flex-start', px: 2, py: 0.375 }}
    >
      <Box sx={{ maxWidth: '72%', minWidth: 0, display: 'flex', flexDirection: 'column', alignItems: system ? 'center' : outgoing ? 'flex-end' : 'flex-start' }}>
        <Box
          sx={{
            maxWidth: '100%',
            px: 1.5,
            py: 0.75,
            borderRadius: 2,
            borderTopRightRadius: outgoing && !system ? 4 : undefined,
            borderTopLeftRadius: !outgoing ? 4 : undefined,
            bgcolor: system ? 'action.hover' : outgoing ? (message.origin === 'bot' ? 'secondary.light' : 'primary.main') : 'background.paper',
            // a bot's bubble takes the secondary colour's own text colour (white text on the dark theme's orange is 2:1)
            color: onPrimary ? 'primary.contrastText' : outgoing && !system ? 'secondary.contrastText' : 'text.primary',
            boxShadow: system ? 0 : 1,
            border: failed ? 1 : 0,
            borderColor: 'error.main',
            ...(focused ? FOCUS_OUTLINE : {}),
          }}
        >
          {message.origin === 'bot' && (
            <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, opacity: ai ? 0.85 : 0.7 }}>
              {t('chats.origin.bot')}
              {ai && (
                <ConsoleTooltip title={t('chats.ai.markLabel')}>
                  <Chip size="small" role="img" data-testid="ai-mark" aria-label={t('chats.ai.markLabel')} label={t('chats.ai.mark')} sx={{ height: 16, fontSize: 10, fontWeight: 700, bgcolor: 'background.paper', color: 'text.primary' }} />
                </ConsoleTooltip>
              )}
            </Typography>
          )}
          <Media message={message} onError={onMediaError} />
          <Content message={message} linkColor={onPrimary ? 'inherit' : 'primary.main'} />
          {ai && ai.sources.length > 0 && (
            <Caption icon={mdiBookOpenPageVariantOutline} testId="ai-sources">
              {t('chats.ai.sources', { titles: ai.sources.map((s) => s.title).join(', ') })}
            </Caption>
          )}
          {ai?.handover && (
            <Caption icon={mdiAccountBoxOutline} testId="ai-handover">
              {t('chats.ai.handover')}
            </Caption>
          )}
          <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'flex-end', gap: 0.5, mt: 0.25 }}>
            <ConsoleTooltip title={fullDateTime(message.created_at, i18n.language)} describeChild>
              <Typography component="time" dateTime={message.created_at} variant="caption" data-testid="message-time" sx={{ opacity: 0.75 }}>
                {clockTime(message.created_at, i18n.language)}
              </Typography>
            </ConsoleTooltip>
            {outgoing && !system && (
              <Box component="span" sx={{ bgcolor: 'background.paper', borderRadius: 1, px: 0.25, display: 'inline-flex' }}>
                <DeliveryTicks status={message.status} />
              </Box>
            )}
          </Box>
          {failed && outgoing && !system && (
            <Box data-testid="message-failure" sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 1, mt: 0.5, bgcolor: 'background.paper', borderRadius: 1, px: 1, py: 0.25 }}>
              <Typography variant="caption" color="error" sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                {t('chats.status.failed')}
                {message.error && (
                  <>
                    {' · '}
                    <span data-testid="message-error">{message.error}</span>
                  </>
                )}
              </Typography>
              {message.local && message.client_id && onRetry && (
                <Button size="small" color="error" onClick={() => onRetry(message.client_id!)}>
                  {t('chats.retry')}
                </Button>
              )}
            </Box>
          )}
        </Box>
        {reaction && <ReactionBadge emoji={reaction} />}
      </Box>
    </Box>
  );
});
