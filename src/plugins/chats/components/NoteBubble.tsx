/**
 * Issue #22: a private note in the thread: yellow, across the thread's width, labelled "Private note ·
 * {author}", with its mentions (`@email`) in bold. Never delivery ticks: a note is sent to nobody.
 */
import { createContext, Fragment, useContext } from 'react';
import { Box, Typography } from '@mui/material';
import { mdiLockOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { clockTime, fullDateTime } from '../format';
import type { ChatMessage } from '../model/messages';
import { NOTE_COLORS } from './NoteMode';

/** The message a link opened the room at (`?message=`): outlined until another is chosen. */
export const FocusedMessageContext = createContext<number | null>(null);
export const useFocusedMessage = (id: number) => useContext(FocusedMessageContext) === id;
export const FOCUS_OUTLINE = { outline: '3px solid', outlineColor: 'warning.main', outlineOffset: 2 } as const;

/** Text with each `@mention` in bold (as text nodes: never HTML). */
function WithMentions({ text }: { text: string }) {
  const parts = text.split(/((?:^|(?<=[\s(]))@[^\s@()<>,;:"]+@[^\s@()<>,;:"]+\.[^\s@()<>,;:"]*[^\s@()<>,;:".!?])/g);
  return (
    <>
      {parts.map((part, i) =>
        part.startsWith('@') ? (
          <Box component="strong" key={i} data-testid="note-mention">
            {part}
          </Box>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export function NoteBubble({ message }: { message: ChatMessage }) {
  const { t, i18n } = useTranslation();
  const focused = useFocusedMessage(message.id);
  return (
    <Box data-testid="message-row" data-origin="note" data-private="true" data-message-id={message.id} data-focused={focused ? 'true' : undefined} sx={{ display: 'flex', justifyContent: 'center', px: 2, py: 0.5 }}>
      <Box sx={{ ...NOTE_COLORS, width: '100%', maxWidth: 640, px: 1.5, py: 0.75, borderRadius: 2, border: 1, borderStyle: 'dashed', ...(focused ? FOCUS_OUTLINE : {}) }}>
        <Typography variant="caption" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}>
          <MdiIcon path={mdiLockOutline} fontSize="inherit" />
          {t('chats.notes.label', { name: message.sender_name ?? '' })}
        </Typography>
        <Typography variant="body2" data-testid="message-text" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          <WithMentions text={message.text ?? ''} />
        </Typography>
        <ConsoleTooltip title={fullDateTime(message.created_at, i18n.language)} describeChild>
          <Typography component="time" dateTime={message.created_at} variant="caption" data-testid="message-time" sx={{ display: 'block', textAlign: 'right', opacity: 0.8 }}>
            {clockTime(message.created_at, i18n.language)}
          </Typography>
        </ConsoleTooltip>
      </Box>
    </Box>
  );
}
