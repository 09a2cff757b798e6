/**
 * Issue #22 in the composer: the Reply / Note switch and, while writing a note, `@` suggestions of the
 * company's members (↑/↓ choose, Enter or Tab inserts `@email `, Esc closes). A note is yellow, says it
 * is private, and goes to POST /api/rooms/{id}/notes/ instead of the customer.
 */
import { useMemo, useState, type KeyboardEvent } from 'react';
import { Box, List, ListItemButton, ListItemText, Paper, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { mentionQueryAt } from '../../../../contract/notes';
import type { ChatMember } from '../../../../contract/conversations';
import { useChatMembers } from './useChatMembers';

export type ComposerMode = 'reply' | 'note';

/** The note's colours: a light yellow with dark text in both themes (≥ 4.5:1). */
export const NOTE_COLORS = { bgcolor: '#fff4c2', color: '#3d3200', borderColor: '#e0c45c' } as const;

export function useNoteMode({ text, setText, caret, focusInput }: { text: string; setText: (text: string) => void; caret: () => number; focusInput: () => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<ComposerMode>('reply');
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const members = useChatMembers(mode === 'note');
  const query = mode === 'note' ? mentionQueryAt(text, caret()) : null;
  const suggestions = useMemo(() => {
    if (!query || query.start === dismissedAt) return [];
    const q = query.query.toLowerCase();
    return (members ?? []).filter((m) => !q || `${m.first_name} ${m.last_name}`.toLowerCase().includes(q) || m.email.toLowerCase().includes(q)).slice(0, 6);
  }, [query, members, dismissedAt]);
  const index = Math.min(active, Math.max(0, suggestions.length - 1));

  const insert = (member: ChatMember) => {
    if (!query) return;
    const end = query.start + 1 + query.query.length;
    setText(`${text.slice(0, query.start)}@${member.email} ${text.slice(end)}`);
    setActive(0);
    // The mention is complete: its suggestions close. (The caret the next render reads is still where the
    // `@ad` ended until the browser applies the new text, so without this the list stayed open on the
    // inserted address and the next Enter inserted the member a second time.)
    setDismissedAt(query.start);
    focusInput();
  };

  /** Handles the suggestions' keys; true when the key was theirs. */
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): boolean => {
    if (suggestions.length === 0) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((index + (e.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
      return true;
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      e.preventDefault();
      insert(suggestions[index]);
      return true;
    }
    if (e.key === 'Escape') {
      e.preventDefault();
      setDismissedAt(query?.start ?? null);
      return true;
    }
    return false;
  };

  const toggle = (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={mode}
      onChange={(_, next: ComposerMode | null) => next && (setMode(next), focusInput())}
      aria-label={t('chats.notes.mode')}
      sx={{ alignSelf: 'center' }}
    >
      <ToggleButton value="reply" data-testid="composer-mode-reply" sx={{ py: 0.25, px: 1 }}>
        {t('chats.notes.reply')}
      </ToggleButton>
      <ToggleButton value="note" data-testid="composer-mode-note" sx={{ py: 0.25, px: 1, '&.Mui-selected': NOTE_COLORS }}>
        {t('chats.notes.note')}
      </ToggleButton>
    </ToggleButtonGroup>
  );

  const popup =
    suggestions.length > 0 ? (
      <Paper elevation={6} sx={{ position: 'absolute', bottom: '100%', left: 8, right: 8, zIndex: 10, maxHeight: 260, overflow: 'auto' }}>
        <List dense role="listbox" aria-label={t('chats.notes.mentionList')} data-testid="mention-suggestions">
          {suggestions.map((m, i) => (
            <ListItemButton
              key={m.user_id}
              role="option"
              aria-selected={i === index}
              selected={i === index}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => insert(m)}
            >
              <ListItemText primary={`${m.first_name} ${m.last_name}`.trim() || m.email} secondary={m.email} />
            </ListItemButton>
          ))}
        </List>
      </Paper>
    ) : null;

  const noteBanner =
    mode === 'note' ? (
      <Box data-testid="note-banner" sx={{ ...NOTE_COLORS, px: 1.5, py: 0.5, fontSize: 13, borderTop: 1 }}>
        {t('chats.notes.banner')}
      </Box>
    ) : null;

  return { mode, toggle, popup, noteBanner, onKeyDown, placeholder: mode === 'note' ? t('chats.notes.placeholder') : null };
}
