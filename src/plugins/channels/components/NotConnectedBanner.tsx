import { Alert, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { SocialPlatform } from '../hooks';
import { ConnectButtons } from './ConnectButtons';

/**
 * Shown while the company counts as not connected (spec §4, `company_connected` of the list):
 * members who manage channels get the connect buttons, the others are told to ask an admin.
 */
export function NotConnectedBanner(props: { canManage: boolean; starting: SocialPlatform | null; onConnect: (platform: SocialPlatform) => void }) {
  const { t } = useTranslation();
  return (
    <Alert severity="info" variant="outlined" sx={{ mb: 2, alignItems: 'center' }} data-testid="channels-banner">
      {props.canManage ? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
          <Typography variant="body2">{t('channels.banner.manage')}</Typography>
          <ConnectButtons compact starting={props.starting} onConnect={props.onConnect} />
        </Stack>
      ) : (
        <Typography variant="body2">{t('channels.banner.readOnly')}</Typography>
      )}
    </Alert>
  );
}
