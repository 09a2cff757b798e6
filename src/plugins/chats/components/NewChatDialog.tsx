import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Room } from '../../../../contract/chats';
import { useAlert } from '../../../core';
import { useChatService, useChatState } from '../hooks';
import { refusalText } from '../service/chatService';

/** Starts a conversation with a customer on a chosen channel (create_new_chat_room). */
export function NewChatDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (room: Room) => void }) {
  const { t } = useTranslation();
  const alert = useAlert();
  const service = useChatService();
  const pages = useChatState((s) => s.pages);
  const [pageId, setPageId] = useState<number | ''>('');
  const [userId, setUserId] = useState('');
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const channel: number | '' = pageId === '' ? (pages[0]?.id ?? '') : pageId;
  const valid = typeof channel === 'number' && !!userId.trim() && !!name.trim();

  const submit = async () => {
    if (!valid || busy) return;
    setBusy(true);
    try {
      const room = await service.createRoom({ pageId: Number(channel), userId, name, text });
      setUserId('');
      setName('');
      setText('');
      onCreated(room);
    } catch (err) {
      // The server's message when it gives one (e.g. WhatsApp's closed 24-hour window), else its reason.
      const reason = refusalText((err as { response?: unknown } | null)?.response) ?? (err instanceof Error && err.message !== 'error' ? err.message : '');
      alert.error(`${t('chats.errors.create')}${reason ? ` (${reason})` : ''}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="new-chat-title">
      <DialogTitle id="new-chat-title">{t('chats.newDialog.title')}</DialogTitle>
      <DialogContent>
        {pages.length === 0 ? (
          <Alert severity="info">{t('chats.newDialog.noChannels')}</Alert>
        ) : (
          <Stack spacing={2} sx={{ mt: 1 }} component="form" id="new-chat-form" onSubmit={(e) => (e.preventDefault(), void submit())}>
            <TextField select label={t('chats.newDialog.channel')} value={channel} onChange={(e) => setPageId(Number(e.target.value))} size="small">
              {pages.map((p) => (
                <MenuItem key={p.id} value={p.id}>
                  {p.name} ({p.platform})
                </MenuItem>
              ))}
            </TextField>
            <TextField label={t('chats.newDialog.userId')} value={userId} onChange={(e) => setUserId(e.target.value)} size="small" required slotProps={{ htmlInput: { maxLength: 100 } }} />
            <TextField label={t('chats.newDialog.name')} value={name} onChange={(e) => setName(e.target.value)} size="small" required slotProps={{ htmlInput: { maxLength: 200 } }} />
            <TextField label={t('chats.newDialog.message')} value={text} onChange={(e) => setText(e.target.value)} size="small" multiline minRows={2} maxRows={6} slotProps={{ htmlInput: { maxLength: 4096 } }} />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('chats.newDialog.cancel')}</Button>
        <Button type="submit" form="new-chat-form" variant="contained" disabled={!valid || busy}>
          {t('chats.newDialog.create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
