import { Avatar, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../contract/api';
import { SectionCard } from '../../core/components/SectionCard';

function initials(user: User): string {
  return `${user.first_name.charAt(0)}${user.last_name.charAt(0)}`.toUpperCase() || user.email.charAt(0).toUpperCase();
}

/** Who is signed in: name and e-mail. */
export function ProfileSection({ user }: { user: User }) {
  const { t } = useTranslation();
  const fullName = `${user.first_name} ${user.last_name}`.trim();
  return (
    <SectionCard title={t('account.profile.title')}>
      <Stack direction="row" spacing={2} alignItems="center">
        <Avatar src={user.profile_avatar_url ?? undefined} alt={fullName} sx={{ width: 56, height: 56, bgcolor: 'primary.main' }}>
          {initials(user)}
        </Avatar>
        <Stack spacing={0.25} sx={{ minWidth: 0 }}>
          <Typography variant="caption" color="text.secondary">
            {t('account.profile.name')}
          </Typography>
          <Typography fontWeight={600}>{fullName || '—'}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ pt: 0.5 }}>
            {t('account.profile.email')}
          </Typography>
          <Typography sx={{ wordBreak: 'break-all' }}>{user.email}</Typography>
        </Stack>
      </Stack>
    </SectionCard>
  );
}
