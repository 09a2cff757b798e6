import { useEffect, useId, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, IconButton, List, ListItem, ListItemText, TextField, Typography } from '@mui/material';
import { mdiDeleteOutline, mdiPencilOutline, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { AGENT_TEMPLATE_LIMITS, type AgentTemplate } from '../../../../contract/agentTemplates';
import { fieldErrorMessage } from '../../../../contract/errors';
import { ConsoleTooltip, errorBody, MdiIcon, useAlert } from '../../../core';
import { useSavedReplies, useSavedRepliesService } from './hooks';

type Mode = { kind: 'list' } | { kind: 'form'; editing: AgentTemplate | null };

/** The server's first `name` error (duplicate, blank…), else the given fallback (spec §5 for creation). */
export function templateErrorText(error: unknown, fallback: string): string {
  return fieldErrorMessage(errorBody(error), 'name') ?? fallback;
}

/** "Manage saved replies": the company's agent templates, with create, edit and delete (confirmed). */
export function ManageRepliesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const alert = useAlert();
  const service = useSavedRepliesService();
  const { templates, loading } = useSavedReplies();
  const titleId = useId();
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [confirm, setConfirm] = useState<AgentTemplate | null>(null);
  // Back from the form (saved or cancelled) the focused button is gone: focus goes to "New saved reply", so
  // the keyboard stays in the dialog (Escape closes it) instead of falling to the page behind.
  const addButton = useRef<HTMLButtonElement>(null);
  const wasForm = useRef(false);
  useEffect(() => {
    if (mode.kind === 'list' && wasForm.current) addButton.current?.focus();
    wasForm.current = mode.kind === 'form';
  }, [mode]);

  const openForm = (editing: AgentTemplate | null) => {
    setMode({ kind: 'form', editing });
    setName(editing?.name ?? '');
    setText(editing?.text ?? '');
    setError(null);
  };
  const close = () => {
    if (pending) return;
    setMode({ kind: 'list' });
    setError(null);
    onClose();
  };

  const save = async () => {
    if (mode.kind !== 'form' || !name.trim() || !text.trim() || pending) return;
    setPending(true);
    setError(null);
    const body = { name: name.trim(), text };
    try {
      if (mode.editing) {
        await service.update(mode.editing.id, body);
        alert.success(t('chats.savedReplies.updated'));
      } else {
        await service.create(body);
        alert.success(t('chats.savedReplies.created'));
      }
      setMode({ kind: 'list' });
    } catch (err) {
      setError(templateErrorText(err, t(mode.editing ? 'chats.savedReplies.errors.update' : 'chats.savedReplies.errors.create')));
    } finally {
      setPending(false);
    }
  };

  const remove = async () => {
    if (!confirm) return;
    setPending(true);
    try {
      await service.remove(confirm.id);
      alert.success(t('chats.savedReplies.deleted'));
    } catch {
      alert.error(t('chats.savedReplies.errors.delete'));
    } finally {
      setPending(false);
      setConfirm(null);
    }
  };

  const form = mode.kind === 'form';
  return (
    <>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>
          {form ? t(mode.editing ? 'chats.savedReplies.editTitle' : 'chats.savedReplies.newTitle') : t('chats.savedReplies.manage')}
        </DialogTitle>
        <DialogContent dividers>
          {form ? (
            <Box
              component="form"
              id={`${titleId}-form`}
              onSubmit={(e) => {
                e.preventDefault();
                e.stopPropagation();
                void save();
              }}
              sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: 0.5 }}
            >
              {error && (
                <Alert severity="error" data-testid="saved-reply-error">
                  {error}
                </Alert>
              )}
              <TextField
                label={t('chats.savedReplies.name')}
                value={name}
                onChange={(e) => setName(e.target.value)}
                required
                autoFocus
                slotProps={{ htmlInput: { maxLength: AGENT_TEMPLATE_LIMITS.name } }}
              />
              <TextField
                label={t('chats.savedReplies.text')}
                value={text}
                onChange={(e) => setText(e.target.value)}
                required
                multiline
                minRows={3}
                maxRows={10}
                helperText={t('chats.savedReplies.textHelp')}
                slotProps={{ htmlInput: { maxLength: AGENT_TEMPLATE_LIMITS.text } }}
              />
            </Box>
          ) : templates.length === 0 ? (
            <Typography color="text.secondary" role="status">
              {loading ? t('chats.savedReplies.loading') : t('chats.savedReplies.empty')}
            </Typography>
          ) : (
            <List dense aria-label={t('chats.savedReplies.listLabel')} data-testid="saved-replies-manage-list">
              {templates.map((template) => (
                <ListItem
                  key={template.id}
                  divider
                  secondaryAction={
                    <>
                      <ConsoleTooltip title={t('chats.savedReplies.edit', { name: template.name })}>
                        <IconButton aria-label={t('chats.savedReplies.edit', { name: template.name })} onClick={() => openForm(template)}>
                          <MdiIcon path={mdiPencilOutline} fontSize="small" />
                        </IconButton>
                      </ConsoleTooltip>
                      <ConsoleTooltip title={t('chats.savedReplies.delete', { name: template.name })}>
                        <IconButton aria-label={t('chats.savedReplies.delete', { name: template.name })} onClick={() => setConfirm(template)}>
                          <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                        </IconButton>
                      </ConsoleTooltip>
                    </>
                  }
                  sx={{ pr: 12 }}
                >
                  <ListItemText
                    primary={template.name}
                    secondary={template.text}
                    slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { sx: { whiteSpace: 'pre-line', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' } } }}
                  />
                </ListItem>
              ))}
            </List>
          )}
        </DialogContent>
        <DialogActions>
          {form ? (
            <>
              <Button onClick={() => setMode({ kind: 'list' })} disabled={pending}>
                {t('chats.savedReplies.cancel')}
              </Button>
              <Button
                type="submit"
                form={`${titleId}-form`}
                variant="contained"
                disableElevation
                disabled={pending || !name.trim() || !text.trim()}
                startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
              >
                {t('chats.savedReplies.save')}
              </Button>
            </>
          ) : (
            <>
              <Button ref={addButton} startIcon={<MdiIcon path={mdiPlus} />} onClick={() => openForm(null)} sx={{ mr: 'auto' }}>
                {t('chats.savedReplies.add')}
              </Button>
              <Button onClick={close}>
                {t('chats.savedReplies.close')}
              </Button>
            </>
          )}
        </DialogActions>
      </Dialog>
      <Dialog open={!!confirm} onClose={pending ? undefined : () => setConfirm(null)} aria-labelledby={`${titleId}-confirm`}>
        <DialogTitle id={`${titleId}-confirm`}>{t('chats.savedReplies.confirmTitle')}</DialogTitle>
        <DialogContent>
          <DialogContentText>{t('chats.savedReplies.confirmMessage', { name: confirm?.name ?? '' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirm(null)} disabled={pending}>
            {t('chats.savedReplies.cancel')}
          </Button>
          <Button onClick={() => void remove()} color="error" variant="contained" disableElevation disabled={pending}>
            {t('chats.savedReplies.confirmDelete')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
