import { useRef, useState, type KeyboardEvent } from 'react';
import { Box, CircularProgress, IconButton, TextField, Tooltip } from '@mui/material';
import { mdiPaperclip, mdiSend } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';

interface Props {
  disabled?: boolean;
  attachments?: boolean;
  onSend: (text: string) => void;
  onAttach?: (file: File) => Promise<void>;
  inputRef?: React.Ref<HTMLTextAreaElement>;
}

/** Text composer: Enter sends, Shift+Enter is a new line, Esc leaves it; text is kept as typed (emoji-safe). */
export function Composer({ disabled, attachments, onSend, onAttach, inputRef }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [uploading, setUploading] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  const send = () => {
    if (!text.trim() || disabled) return;
    onSend(text);
    setText('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // IME composition (e.g. Japanese input) uses Enter to confirm a word, not to send.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    } else if (e.key === 'Escape') {
      (e.target as HTMLElement).blur();
    }
  };

  return (
    <Box component="form" onSubmit={(e) => (e.preventDefault(), send())} sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, p: 1.5, borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      {attachments && onAttach && (
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
          <Tooltip title={t('chats.composer.attach')}>
            <span>
              <IconButton aria-label={t('chats.composer.attach')} disabled={disabled || uploading} onClick={() => fileRef.current?.click()}>
                {uploading ? <CircularProgress size={20} aria-label={t('chats.composer.uploading')} /> : <MdiIcon path={mdiPaperclip} />}
              </IconButton>
            </span>
          </Tooltip>
        </>
      )}
      <TextField
        inputRef={inputRef}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t('chats.composer.placeholder')}
        slotProps={{ htmlInput: { 'aria-label': t('chats.composer.placeholder'), maxLength: 4096 } }}
        multiline
        maxRows={6}
        fullWidth
        size="small"
        disabled={disabled}
      />
      <Tooltip title={t('chats.composer.send')}>
        <span>
          <IconButton type="submit" color="primary" aria-label={t('chats.composer.send')} disabled={disabled || !text.trim()}>
            <MdiIcon path={mdiSend} />
          </IconButton>
        </span>
      </Tooltip>
    </Box>
  );
}
