import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, IconButton, TextField } from '@mui/material';
import { mdiCreationOutline, mdiMessageReplyTextOutline, mdiPaperclip, mdiSend, mdiTextBoxOutline, mdiTextBoxSearchOutline, mdiTimerOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { SuggestReplyResponse } from '../../../../contract/assistant';
import type { Room } from '../../../../contract/chats';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { dateTime } from '../format';
import { useCustomerWindow } from '../hooks';
import { HOUR_MS, remainingParts } from '../model/window';
import type { SendRefusal } from '../service/chatService';
import { useQuickReplies } from '../savedReplies/useQuickReplies';
import { NOTE_COLORS, useNoteMode } from './NoteMode';

interface Props {
  disabled?: boolean;
  attachments?: boolean;
  onSend: (text: string) => void;
  /** Issue #22: writes a private note; when given, the composer has a Reply / Note switch (./NoteMode.tsx). */
  onNote?: (text: string) => void;
  onAttach?: (file: File) => Promise<void>;
  inputRef?: React.Ref<HTMLTextAreaElement>;
  /** The room's channel and when the customer last wrote: WhatsApp's 24-hour window applies to free-form messages. */
  room?: Pick<Room, 'platform' | 'last_inbound_at'>;
  /** Opens the template dialog (WhatsApp rooms). */
  onTemplate?: () => void;
  /** A text the server refused (window closed): it comes back into the input, with the server's message. */
  refusal?: SendRefusal | null;
  onDismissRefusal?: () => void;
  /** Puts the cursor in the input when the composer appears (a room was opened), except on touch screens where it would pop the keyboard up. */
  focusOnOpen?: boolean;
  /** Issue #24, the copilot: asks for a suggested reply, which fills the input (the agent edits, then sends). */
  onSuggest?: () => Promise<SuggestReplyResponse | null>;
  /** Issue #24, the copilot: stores the conversation's summary as a private note. */
  onSummarise?: () => Promise<unknown>;
}

const NO_WINDOW: Pick<Room, 'platform' | 'last_inbound_at'> = { platform: 'sandbox', last_inbound_at: null };

/** The input grows with its text up to this many lines, then scrolls. */
const MAX_LINES = 6;

/**
 * Where the browser grows a textarea with its text by CSS alone (`field-sizing: content`: Chromium since 123), the
 * input is a plain textarea: MUI's TextareaAutosize measures a hidden copy in a layout effect, which forced a layout
 * of the whole room view in the commit that shows it (55 ms at 4× CPU on a phone, bench/bundle README) and again on
 * every keystroke. Other browsers keep TextareaAutosize.
 */
const CSS_GROWS_TEXTAREA = typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');
const growing = CSS_GROWS_TEXTAREA
  ? { rows: 1, sx: { '& textarea': { 'field-sizing': 'content', maxHeight: `${MAX_LINES}lh`, overflowY: 'auto' } } }
  : { maxRows: MAX_LINES };

/** "5 h 12 min", "45 min", "3 h": plural forms per language. */
function useRemainingLabel(ms: number): string {
  const { t } = useTranslation();
  const { hours, minutes } = remainingParts(ms);
  const h = t('chats.window.hours', { count: hours });
  const m = t('chats.window.minutes', { count: minutes });
  return hours && minutes ? t('chats.window.duration', { hours: h, minutes: m }) : hours ? h : m;
}

/**
 * Text composer: Enter sends, Shift+Enter is a new line, Esc leaves it; text is kept as typed (emoji-safe).
 * In WhatsApp rooms it shows when the 24-hour window closes; once closed, free-form input gives way to
 * a notice and "Send template". "/" at the start of the message (or the "Saved replies" button) opens
 * the company's saved replies; ↑/↓ choose, Enter inserts, Esc closes the list.
 */
export function Composer({ disabled, attachments, onSend, onNote, onAttach, inputRef, room, onTemplate, refusal, onDismissRefusal, focusOnOpen, onSuggest, onSummarise }: Props) {
  const { t, i18n } = useTranslation();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const win = useCustomerWindow(room ?? NO_WINDOW);
  const ownInput = useRef<HTMLTextAreaElement | null>(null);
  const note = useNoteMode({ text, setText, caret: () => ownInput.current?.selectionStart ?? text.length, focusInput: () => ownInput.current?.focus() });
  const noting = !!onNote && note.mode === 'note';
  // A note goes to the team, not the customer: WhatsApp's window does not apply to it.
  const closed = win.applies && win.closed && !noting;
  const remaining = useRemainingLabel(win.remainingMs);
  const setInput = useCallback(
    (el: HTMLTextAreaElement | null) => {
      ownInput.current = el;
      if (typeof inputRef === 'function') inputRef(el);
      else if (inputRef) (inputRef as React.MutableRefObject<HTMLTextAreaElement | null>).current = el;
    },
    [inputRef],
  );
  const quick = useQuickReplies(text, setText, () => ownInput.current?.focus());
  const copilot = useCopilot({ onSuggest, onSummarise, setText, focusInput: () => ownInput.current?.focus() });

  useEffect(() => {
    const touch = typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches;
    if (focusOnOpen && !touch) ownInput.current?.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the composer appears: later renders must not take the focus back
  }, []);

  // A refused text comes back (before anything typed since), once per refusal.
  const restored = useRef<string | null>(null);
  useEffect(() => {
    if (!refusal || restored.current === refusal.clientId) return;
    restored.current = refusal.clientId;
    setText((prev) => (prev.trim() ? `${refusal.text}\n${prev}` : refusal.text));
  }, [refusal]);

  const send = () => {
    if (noting) {
      if (!text.trim()) return;
      onNote!(text);
      setText('');
      return;
    }
    if (!text.trim() || disabled || closed) return;
    onSend(text);
    setText('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (noting && note.onKeyDown(e)) return;
    if (quick.onKeyDown(e)) return;
    // IME composition (e.g. Japanese input) uses Enter to confirm a word, not to send.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape') {
      (e.target as HTMLElement).blur();
    }
  };

  return (
    <Box data-testid="composer" data-mode={noting ? 'note' : 'reply'} sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      {(onNote || onSuggest || onSummarise) && (
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, px: 1.5, pt: 1 }}>
          {onNote && note.toggle}
          <Box sx={{ flex: 1 }} />
          {onSuggest && !noting && !closed && (
            <Button size="small" data-testid="suggest-reply" startIcon={copilot.suggesting ? <CircularProgress size={16} aria-label={t('chats.copilot.suggesting')} /> : <MdiIcon path={mdiCreationOutline} />} disabled={disabled || copilot.suggesting} onClick={copilot.suggest}>
              {t('chats.copilot.suggest')}
            </Button>
          )}
          {onSummarise && (
            <Button size="small" data-testid="summarise-room" startIcon={copilot.summarising ? <CircularProgress size={16} aria-label={t('chats.copilot.summarising')} /> : <MdiIcon path={mdiTextBoxSearchOutline} />} disabled={copilot.summarising} onClick={copilot.summarise}>
              {t('chats.copilot.summarise')}
            </Button>
          )}
        </Box>
      )}
      {copilot.notice && !noting && (
        <Alert severity="info" data-testid="suggestion-notice" onClose={copilot.dismiss} closeText={t('chats.composer.dismiss')} sx={{ borderRadius: 0, py: 0 }}>
          {copilot.notice}
        </Alert>
      )}
      {noting && note.noteBanner}
      {refusal && (
        <Alert severity="error" data-testid="composer-refusal" onClose={onDismissRefusal} closeText={t('chats.composer.dismiss')} sx={{ borderRadius: 0 }}>
          {refusal.error}
        </Alert>
      )}
      {closed && (
        <Alert
          severity="warning"
          data-testid="window-closed"
          sx={{ borderRadius: 0, alignItems: 'center' }}
          action={
            onTemplate && (
              <Button color="inherit" size="small" variant="outlined" startIcon={<MdiIcon path={mdiTextBoxOutline} />} onClick={onTemplate} disabled={disabled} sx={{ whiteSpace: 'nowrap' }}>
                {t('chats.window.sendTemplate')}
              </Button>
            )
          }
        >
          {t('chats.window.closed')}
        </Alert>
      )}
      {win.applies && !closed && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, pt: 1 }}>
          {win.closesAt !== null && (
            <ConsoleTooltip title={t('chats.window.closesAt', { date: dateTime(new Date(win.closesAt).toISOString(), i18n.language) })}>
              <Chip
                size="small"
                variant="outlined"
                data-testid="window-countdown"
                data-warning={win.remainingMs < HOUR_MS ? 'true' : 'false'}
                color={win.remainingMs < HOUR_MS ? 'warning' : 'default'}
                icon={<MdiIcon path={mdiTimerOutline} />}
                label={t('chats.window.closesIn', { duration: remaining })}
              />
            </ConsoleTooltip>
          )}
          <Box sx={{ flex: 1 }} />
          {onTemplate && (
            <Button size="small" startIcon={<MdiIcon path={mdiTextBoxOutline} />} onClick={onTemplate} disabled={disabled}>
              {t('chats.composer.template')}
            </Button>
          )}
        </Box>
      )}
      {(!closed || !!text) && (
        <Box
          component="form"
          onSubmit={(e) => (e.preventDefault(), send())}
          sx={{ position: 'relative', display: 'flex', alignItems: 'flex-end', gap: 1, p: 1.5, ...(noting ? { bgcolor: NOTE_COLORS.bgcolor, '& .MuiInputBase-root': { bgcolor: '#fffbe6', color: NOTE_COLORS.color } } : {}) }}
        >
          {!closed && !noting && quick.popup}
          {noting && note.popup}
          {attachments && onAttach && !noting && (
            <>
              <input
                ref={fileRef}
                type="file"
                hidden
                accept="image/*,video/*,audio/*,application/pdf"
                onChange={async (e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (!file) return;
                  setUploading(true);
                  try {
                    await onAttach(file);
                  } finally {
                    setUploading(false);
                  }
                }}
              />
              <ConsoleTooltip title={t('chats.composer.attach')}>
                <span>
                  <IconButton aria-label={t('chats.composer.attach')} disabled={disabled || closed || uploading} onClick={() => fileRef.current?.click()}>
                    {uploading ? <CircularProgress size={20} aria-label={t('chats.composer.uploading')} /> : <MdiIcon path={mdiPaperclip} />}
                  </IconButton>
                </span>
              </ConsoleTooltip>
            </>
          )}
          {!closed && (
            <ConsoleTooltip title={t('chats.savedReplies.button')}>
              <span>
                <IconButton aria-label={t('chats.savedReplies.button')} aria-pressed={quick.open} disabled={disabled} onClick={quick.toggle}>
                  <MdiIcon path={mdiMessageReplyTextOutline} />
                </IconButton>
              </span>
            </ConsoleTooltip>
          )}
          <TextField
            inputRef={setInput}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            placeholder={note.placeholder && noting ? note.placeholder : t('chats.composer.placeholder')}
            slotProps={{
              input: CSS_GROWS_TEXTAREA ? { inputComponent: 'textarea' } : undefined,
              htmlInput: { 'aria-label': noting && note.placeholder ? note.placeholder : t('chats.composer.placeholder'), maxLength: 4096, ...(closed || noting ? {} : quick.inputProps) },
            }}
            multiline
            {...growing}
            fullWidth
            size="small"
            disabled={(disabled && !noting) || closed}
          />
          <ConsoleTooltip title={noting ? t('chats.notes.add') : t('chats.composer.send')}>
            <span>
              <IconButton type="submit" color="primary" aria-label={noting ? t('chats.notes.add') : t('chats.composer.send')} disabled={(disabled && !noting) || closed || !text.trim()}>
                <MdiIcon path={mdiSend} />
              </IconButton>
            </span>
          </ConsoleTooltip>
        </Box>
      )}
      {quick.dialog}
    </Box>
  );
}

/** The copilot's buttons' state: a suggestion fills the input (and says where it comes from), a summary becomes a note. */
function useCopilot({ onSuggest, onSummarise, setText, focusInput }: { onSuggest?: Props['onSuggest']; onSummarise?: Props['onSummarise']; setText: (text: string) => void; focusInput: () => void }) {
  const { t } = useTranslation();
  const [suggesting, setSuggesting] = useState(false);
  const [summarising, setSummarising] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const suggest = useCallback(async () => {
    if (!onSuggest) return;
    setSuggesting(true);
    try {
      const suggestion = await onSuggest();
      if (!suggestion) return setNotice(null);
      if (!suggestion.text) return setNotice(t('chats.copilot.noSuggestion'));
      setText(suggestion.text);
      setNotice(suggestion.sources.length ? t('chats.copilot.sources', { titles: suggestion.sources.map((s) => s.title).join(', ') }) : null);
      focusInput();
    } finally {
      setSuggesting(false);
    }
  }, [onSuggest, setText, focusInput, t]);
  const summarise = useCallback(async () => {
    if (!onSummarise) return;
    setSummarising(true);
    try {
      await onSummarise();
    } finally {
      setSummarising(false);
    }
  }, [onSummarise]);
  return { suggest, summarise, suggesting, summarising, notice, dismiss: () => setNotice(null) };
}
