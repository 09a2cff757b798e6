import { useState } from 'react';
import { Box, Button, Stack, Tab, Tabs, Typography } from '@mui/material';
import { mdiAccountPlusOutline } from '@mdi/js';
import { useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { MdiIcon, useAccess, useAccount } from '../../core';
import { ChangeAvatarButton } from './ChangeAvatarButton';
import { InviteDialog } from './InviteDialog';
import { MembersList } from './MembersList';
import { PendingInvites } from './PendingInvites';

type TeamTab = 'members' | 'invites';

/** /team: the company's members (role change, removal), invites and the caller's avatar. */
export default function TeamPage() {
  const { t } = useTranslation();
  const { canManage } = useAccess('members');
  const { companyId } = useAccount();
  const [tab, setTab] = useState<TeamTab>('members');
  const [inviting, setInviting] = useState(false);
  const refresh = useRefresh();
  const shown: TeamTab = canManage ? tab : 'members';

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }} justifyContent="space-between" sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('team.title')}
          </Typography>
          <Typography color="text.secondary">{t('team.subtitle')}</Typography>
        </Box>
        <Stack direction="row" spacing={1.5} flexShrink={0}>
          <ChangeAvatarButton />
          {canManage && (
            <Button
              variant="contained"
              disableElevation
              startIcon={<MdiIcon path={mdiAccountPlusOutline} />}
              onClick={() => setInviting(true)}
              sx={{ fontWeight: 600 }}
            >
              {t('team.invite.open')}
            </Button>
          )}
        </Stack>
      </Stack>
      {canManage && (
        <Tabs value={shown} onChange={(_e, value: TeamTab) => setTab(value)} sx={{ mb: 1 }}>
          <Tab value="members" label={t('team.tabs.members')} />
          <Tab value="invites" label={t('team.tabs.invites')} />
        </Tabs>
      )}
      {/* keyed by company: a switch starts from the first page with fresh data */}
      <Box key={companyId ?? 'none'}>{shown === 'members' ? <MembersList /> : <PendingInvites />}</Box>
      {canManage && (
        <InviteDialog
          open={inviting}
          onClose={() => setInviting(false)}
          onSent={() => {
            setInviting(false);
            setTab('invites');
            refresh();
          }}
        />
      )}
    </Box>
  );
}
