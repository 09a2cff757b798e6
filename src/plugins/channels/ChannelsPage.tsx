import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAccess, useAccount } from '../../core';
import { ChannelsList } from './components/ChannelsList';
import { ConnectButtons } from './components/ConnectButtons';
import { ConnectPageDialog } from './components/ConnectPageDialog';
import { NotConnectedBanner } from './components/NotConnectedBanner';
import { useConnectFacebook } from './hooks';

/**
 * /channels: the company's WhatsApp numbers, Facebook pages, Instagram accounts and sandbox with
 * their status. Members who manage channels connect (WhatsApp signup, Facebook page, Instagram
 * account), retry a WhatsApp setup and disconnect; the others see the list read-only.
 */
export default function ChannelsPage() {
  const { t } = useTranslation();
  const { canManage } = useAccess('channels');
  const { companyId } = useAccount();
  const facebook = useConnectFacebook();

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', lg: 'row' }} spacing={2} alignItems={{ lg: 'flex-start' }} justifyContent="space-between" sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('channels.title')}
          </Typography>
          <Typography color="text.secondary">{t('channels.subtitle')}</Typography>
        </Box>
        {canManage && (
          <Box flexShrink={0}>
            <ConnectButtons starting={facebook.starting} onConnect={facebook.start} />
          </Box>
        )}
      </Stack>
      {/* keyed by company: a switch starts from the first page with fresh data */}
      <ChannelsList
        key={companyId ?? 'none'}
        canManage={canManage}
        banner={(connected) =>
          connected ? null : <NotConnectedBanner canManage={canManage} starting={facebook.starting} onConnect={facebook.start} />
        }
      />
      {canManage && (
        <ConnectPageDialog
          open={facebook.open}
          platform={facebook.picker?.platform ?? 'messenger'}
          pages={facebook.picker?.pages ?? []}
          pending={facebook.connecting}
          onConnect={facebook.connect}
          onClose={facebook.close}
        />
      )}
    </Box>
  );
}
