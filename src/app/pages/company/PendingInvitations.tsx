import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, List, ListItem, ListItemAvatar, ListItemText, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PendingInvitation } from '../../../../contract/team';
import { CompanyAvatar, authApiRef, errorText, httpApiRef, useAccount, useAlert, useApi, useSelectCompany } from '../../../core';
import { invitationCalls } from './invitationCalls';

interface Joined {
  id: number;
  name: string;
}

/**
 * The signed-in user's open invitations (GET /api/invitations/) with Join and Decline. An invite
 * changes nothing until answered here: Join makes the user a member at once (the account is
 * reloaded, so the company is in the list) and offers to open it; Decline removes it.
 * Renders nothing while there is nothing to answer.
 */
export function PendingInvitations() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const auth = useApi(authApiRef);
  const alert = useAlert();
  const selectCompany = useSelectCompany();
  const { user } = useAccount();
  const userId = user?.id;
  const [invitations, setInvitations] = useState<PendingInvitation[]>([]);
  const [busyId, setBusyId] = useState<number | null>(null);
  const [joined, setJoined] = useState<Joined | null>(null);

  const load = useCallback(async () => {
    try {
      setInvitations(await invitationCalls.list(http));
    } catch {
      // Nothing to show: the company list stays usable without the invitations.
      setInvitations([]);
    }
  }, [http]);

  useEffect(() => {
    if (userId !== undefined) void load();
  }, [userId, load]);

  const answer = async (invitation: PendingInvitation, verb: 'accept' | 'decline') => {
    setBusyId(invitation.id);
    try {
      if (verb === 'accept') {
        await invitationCalls.accept(http, invitation.id);
        await auth.loadUser();
        setJoined({ id: invitation.company.id, name: invitation.company.name });
      } else {
        await invitationCalls.decline(http, invitation.id);
        alert.success(t('pages.invitations.declined', { company: invitation.company.name }));
      }
      setInvitations((list) => list.filter((item) => item.id !== invitation.id));
    } catch (e) {
      alert.error(errorText(e));
      // Expired, revoked or answered elsewhere meanwhile: show what is still open.
      await load();
    } finally {
      setBusyId(null);
    }
  };

  if (invitations.length === 0 && !joined) return null;

  return (
    <Box component="section" aria-labelledby="pending-invitations-title" sx={{ mb: 3 }}>
      {joined && (
        <Alert
          severity="success"
          sx={{ mb: 2 }}
          onClose={() => setJoined(null)}
          action={
            <Button color="inherit" size="small" onClick={() => selectCompany(joined.id, { to: '/dashboard' })} sx={{ whiteSpace: 'nowrap' }}>
              {t('pages.invitations.open', { company: joined.name })}
            </Button>
          }
        >
          {t('pages.invitations.joined', { company: joined.name })}
        </Alert>
      )}
      {invitations.length > 0 && (
        <>
          <Typography id="pending-invitations-title" variant="subtitle1" fontWeight={600} gutterBottom>
            {t('pages.invitations.title', { count: invitations.length })}
          </Typography>
          <List disablePadding sx={{ border: 1, borderColor: 'divider', borderRadius: 2 }} aria-labelledby="pending-invitations-title">
            {invitations.map((invitation) => (
              <ListItem
                key={invitation.id}
                aria-label={invitation.company.name}
                sx={{ flexWrap: 'wrap', gap: 1, '&:not(:last-of-type)': { borderBottom: 1, borderColor: 'divider' } }}
              >
                <ListItemAvatar>
                  <CompanyAvatar name={invitation.company.name} logo={invitation.company.logo} />
                </ListItemAvatar>
                <ListItemText
                  primary={invitation.company.name}
                  secondary={
                    invitation.invited_by
                      ? t('pages.invitations.invitedBy', { name: invitation.invited_by, role: invitation.role.name })
                      : t('pages.invitations.asRole', { role: invitation.role.name })
                  }
                  slotProps={{ primary: { fontWeight: 600 } }}
                  sx={{ minWidth: 160 }}
                />
                <Stack direction="row" spacing={1}>
                  <Button
                    size="small"
                    color="inherit"
                    disabled={busyId !== null}
                    onClick={() => answer(invitation, 'decline')}
                    aria-label={t('pages.invitations.declineLabel', { company: invitation.company.name })}
                  >
                    {t('pages.invitations.decline')}
                  </Button>
                  <Button
                    size="small"
                    variant="contained"
                    disabled={busyId !== null}
                    onClick={() => answer(invitation, 'accept')}
                    aria-label={t('pages.invitations.joinLabel', { company: invitation.company.name })}
                  >
                    {t('pages.invitations.join')}
                  </Button>
                </Stack>
              </ListItem>
            ))}
          </List>
        </>
      )}
    </Box>
  );
}
