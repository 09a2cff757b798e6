import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { errorText, httpApiRef, useAccount, useAlert, useApi, SubmitButton } from '../../core';
import { MAX_BULK_INVITES, type Invite } from '../../../contract/team';
import { DEFAULT_ROLE, type RoleId } from '../../../contract/permissions';
import { parseInviteEmails } from './inviteEmails';
import { useRoles } from './useRoles';

/**
 * "Invite members": several addresses (one per line, or comma/space separated, checked with the
 * core's e-mail rule) and one role (default Agent; admin only for admins) → POST /api/invites/bulk/.
 */
export function InviteDialog({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: (invites: Invite[]) => void }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const roles = useRoles();
  const { company } = useAccount();
  const viewerIsAdmin = company?.role?.id === 'admin';
  const [text, setText] = useState('');
  const [roleId, setRoleId] = useState<RoleId>(DEFAULT_ROLE);
  const [touched, setTouched] = useState(false);
  const [sending, setSending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  const parsed = parseInviteEmails(text);
  const problem = parsed.invalid.length
    ? t('team.invite.invalid', { emails: parsed.invalid.join(', ') })
    : parsed.tooMany
      ? t('team.invite.tooMany', { max: MAX_BULK_INVITES })
      : parsed.valid.length === 0
        ? t('team.invite.none')
        : null;
  const showProblem = touched && problem;

  const reset = () => {
    setText('');
    setRoleId(DEFAULT_ROLE);
    setTouched(false);
    setServerError(null);
  };

  const close = () => {
    if (sending) return;
    reset();
    onClose();
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    setSending(true);
    setServerError(null);
    try {
      const answer = await http.post<{ results: Invite[] }>('/api/invites/bulk/', {
        invites: parsed.valid.map((email) => ({ email, role_id: roleId })),
      });
      alert.success(t('team.invite.sent'));
      reset();
      onSent(answer?.results ?? []);
    } catch (e) {
      const message = errorText(e);
      setServerError(message);
      alert.error(message);
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="invite-dialog-title">
      <Box component="form" onSubmit={submit} noValidate>
        <DialogTitle id="invite-dialog-title">{t('team.invite.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {serverError && (
              <Alert severity="error" variant="outlined">
                {serverError}
              </Alert>
            )}
            <TextField
              label={t('team.invite.emails')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onBlur={() => setTouched(true)}
              multiline
              minRows={3}
              fullWidth
              autoFocus
              error={!!showProblem}
              helperText={showProblem || t('team.invite.emailsHelp', { max: MAX_BULK_INVITES })}
            />
            {(parsed.valid.length > 0 || parsed.invalid.length > 0) && (
              <Box>
                <Typography variant="caption" color="text.secondary">
                  {t('team.invite.count', { count: parsed.valid.length })}
                </Typography>
                <Stack direction="row" flexWrap="wrap" gap={0.75} sx={{ mt: 0.5 }} data-testid="invite-chips">
                  {parsed.valid.map((email) => (
                    <Chip key={email} label={email} size="small" color="primary" variant="outlined" />
                  ))}
                  {parsed.invalid.map((entry) => (
                    <Chip key={`invalid-${entry}`} label={entry} size="small" color="error" />
                  ))}
                </Stack>
              </Box>
            )}
            <TextField select label={t('team.invite.role')} value={roleId} onChange={(e) => setRoleId(e.target.value as RoleId)} fullWidth>
              {roles
                .filter((r) => viewerIsAdmin || r.id !== 'admin')
                .map((role) => (
                  <MenuItem key={role.id} value={role.id}>
                    {role.name}
                  </MenuItem>
                ))}
            </TextField>
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={close} disabled={sending}>
            {t('team.actions.cancel')}
          </Button>
          <SubmitButton label={t('team.invite.send')} loading={sending} />
        </DialogActions>
      </Box>
    </Dialog>
  );
}
