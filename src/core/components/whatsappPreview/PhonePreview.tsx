/**
 * The live preview of a WhatsApp template (issue #10): a phone with a WhatsApp chat, the template
 * as the customer will see it — header (text, image, video, document), body with the sample values
 * filled in and WhatsApp's formatting, footer, time, and the buttons under the bubble — and, for
 * carousels, the body bubble followed by a horizontally swipeable row of cards.
 */
import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import {
  mdiArrowLeft,
  mdiCellphone,
  mdiContentCopy,
  mdiFileDocumentOutline,
  mdiFormatListBulleted,
  mdiImageOutline,
  mdiOpenInNew,
  mdiPhone,
  mdiPlayCircleOutline,
  mdiReply,
} from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../MdiIcon';
import { formatSpans } from './formatSpans';

export type PreviewHeader =
  | { kind: 'text'; text: string }
  | { kind: 'media'; format: 'IMAGE' | 'VIDEO' | 'DOCUMENT'; url: string | null; fileName?: string }
  | null;

export type PreviewButtonKind = 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER' | 'COPY_CODE' | 'OTP';
export interface PreviewButton {
  kind: PreviewButtonKind;
  label: string;
}

export interface PreviewMessage {
  header: PreviewHeader;
  body: string;
  footer?: string;
  buttons: PreviewButton[];
}

const WA = {
  bar: '#008069',
  chat: '#efeae2',
  bubble: '#ffffff',
  link: '#027eb5',
  meta: '#667781',
  text: '#111b21',
};

const BUTTON_ICONS: Record<PreviewButtonKind, string> = {
  QUICK_REPLY: mdiReply,
  URL: mdiOpenInNew,
  PHONE_NUMBER: mdiPhone,
  COPY_CODE: mdiContentCopy,
  OTP: mdiContentCopy,
};

/** Text with WhatsApp's *bold*, _italic_, ~strike~ and ```mono```. */
export function FormattedText({ text }: { text: string }) {
  return (
    <>
      {formatSpans(text).map((span, i) => (
        <Box
          component="span"
          key={i}
          sx={{
            fontWeight: span.bold ? 700 : undefined,
            fontStyle: span.italic ? 'italic' : undefined,
            textDecoration: span.strike ? 'line-through' : undefined,
            fontFamily: span.mono ? 'monospace' : undefined,
          }}
        >
          {span.text}
        </Box>
      ))}
    </>
  );
}

function MediaHeader({ header }: { header: Extract<PreviewHeader, { kind: 'media' }> }) {
  const { t } = useTranslation();
  if (header.format === 'IMAGE' && header.url) {
    return <Box component="img" src={header.url} alt={t('templates.editor.preview.imageAlt')} sx={{ width: '100%', maxHeight: 180, objectFit: 'cover', borderRadius: 1, display: 'block' }} />;
  }
  if (header.format === 'VIDEO' && header.url) {
    return <Box component="video" src={header.url} muted sx={{ width: '100%', maxHeight: 180, borderRadius: 1, display: 'block', bgcolor: '#000' }} aria-label={t('templates.editor.preview.videoAlt')} />;
  }
  if (header.format === 'DOCUMENT') {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, bgcolor: '#f0f2f5', borderRadius: 1, p: 1 }}>
        <MdiIcon path={mdiFileDocumentOutline} sx={{ color: '#e53935' }} />
        <Typography variant="body2" noWrap sx={{ color: WA.text }}>
          {header.fileName || t('templates.editor.preview.document')}
        </Typography>
      </Box>
    );
  }
  return (
    <Box
      role="img"
      aria-label={t(header.format === 'VIDEO' ? 'templates.editor.preview.videoAlt' : 'templates.editor.preview.imageAlt')}
      sx={{ height: 120, bgcolor: '#d1d7db', borderRadius: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <MdiIcon path={header.format === 'VIDEO' ? mdiPlayCircleOutline : mdiImageOutline} sx={{ fontSize: 48, color: '#fff' }} />
    </Box>
  );
}

function Buttons({ buttons }: { buttons: PreviewButton[] }) {
  const { t } = useTranslation();
  if (buttons.length === 0) return null;
  // WhatsApp shows up to three buttons; with more, two and "See all options".
  const shown = buttons.length > 3 ? buttons.slice(0, 2) : buttons;
  const rows: PreviewButton[] = buttons.length > 3 ? [...shown, { kind: 'QUICK_REPLY', label: t('templates.editor.preview.allOptions') }] : shown;
  return (
    <Box data-testid="preview-buttons" sx={{ borderTop: '1px solid #e9edef', mt: 0.5 }}>
      {rows.map((button, i) => {
        const more = buttons.length > 3 && i === rows.length - 1;
        return (
          <Box
            key={i}
            data-testid="preview-button"
            sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 0.75, py: 0.9, color: WA.link, fontSize: 14, fontWeight: 500, borderTop: i > 0 ? '1px solid #e9edef' : undefined }}
          >
            <MdiIcon path={more ? mdiFormatListBulleted : BUTTON_ICONS[button.kind]} sx={{ fontSize: 18 }} />
            <span>{button.label || '\u00a0'}</span>
          </Box>
        );
      })}
    </Box>
  );
}

/** One template message: the bubble and its buttons. */
export function MessageBubble({ message, width = '85%' }: { message: PreviewMessage; width?: number | string }) {
  return (
    <Box data-testid="preview-bubble" sx={{ bgcolor: WA.bubble, borderRadius: '0 8px 8px 8px', boxShadow: '0 1px 0.5px rgba(11,20,26,.13)', width, overflow: 'hidden', flexShrink: 0 }}>
      <Box sx={{ p: 0.75, pb: 0.5 }}>
        {message.header?.kind === 'media' && <MediaHeader header={message.header} />}
        {message.header?.kind === 'text' && message.header.text && (
          <Typography data-testid="preview-header" sx={{ fontWeight: 700, color: WA.text, fontSize: 15, px: 0.5, pt: 0.5, wordBreak: 'break-word' }}>
            {message.header.text}
          </Typography>
        )}
        <Typography data-testid="preview-body" component="div" sx={{ color: WA.text, fontSize: 14.2, whiteSpace: 'pre-wrap', wordBreak: 'break-word', px: 0.5, pt: 0.5 }}>
          <FormattedText text={message.body} />
        </Typography>
        {message.footer && (
          <Typography data-testid="preview-footer" sx={{ color: WA.meta, fontSize: 13, px: 0.5, pt: 0.5 }}>
            {message.footer}
          </Typography>
        )}
        <Typography sx={{ color: WA.meta, fontSize: 11, textAlign: 'right', px: 0.5 }}>12:00</Typography>
      </Box>
      <Buttons buttons={message.buttons} />
    </Box>
  );
}

/** The phone: WhatsApp's chat bar with the business name, the chat background, the messages. */
export function PhoneFrame({ businessName, children }: { businessName: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="phone-preview"
      aria-label={t('templates.editor.preview.title')}
      role="figure"
      sx={{ width: 320, maxWidth: '100%', mx: 'auto', borderRadius: '36px', border: '10px solid #1f2c34', bgcolor: '#1f2c34', boxShadow: 6, overflow: 'hidden' }}
    >
      <Box sx={{ bgcolor: WA.bar, color: '#fff', display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 1.25 }}>
        <MdiIcon path={mdiArrowLeft} sx={{ fontSize: 20 }} />
        <Box sx={{ width: 32, height: 32, borderRadius: '50%', bgcolor: 'rgba(255,255,255,.3)', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <MdiIcon path={mdiCellphone} sx={{ fontSize: 18 }} />
        </Box>
        <Typography noWrap sx={{ fontWeight: 600, fontSize: 15 }}>
          {businessName}
        </Typography>
      </Box>
      <Box sx={{ bgcolor: WA.chat, minHeight: 460, p: 1.25, display: 'flex', flexDirection: 'column', gap: 1 }}>{children}</Box>
    </Box>
  );
}

/** A carousel: the body bubble, then the cards in a row that scrolls (and swipes) sideways, snapping card by card. */
export function CarouselRow({ cards }: { cards: PreviewMessage[] }) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="preview-carousel"
      role="list"
      aria-label={t('templates.carousel.preview.cards')}
      // Keyboard users scroll the row with the arrow keys once it has focus.
      tabIndex={0}
      sx={{ '&:focus-visible': { outline: '2px solid #027eb5', outlineOffset: 2 }, display: 'flex', gap: 1, overflowX: 'auto', scrollSnapType: 'x mandatory', pb: 1, mx: -1.25, px: 1.25, WebkitOverflowScrolling: 'touch' }}
    >
      {cards.map((card, i) => (
        <Box key={i} role="listitem" data-testid="preview-card" sx={{ scrollSnapAlign: 'start', flexShrink: 0, width: '78%' }}>
          <MessageBubble message={card} width="100%" />
        </Box>
      ))}
    </Box>
  );
}
