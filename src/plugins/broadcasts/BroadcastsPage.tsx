import { Box, Button, Stack, Typography } from '@mui/material';
import { mdiPlus } from '@mdi/js';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MdiIcon, useAccount } from '../../core';
import { BroadcastsList } from './components/BroadcastsList';
import { useCanSend } from './hooks';

/**
 * /broadcast: the company's broadcasts with their status, live progress and counters (updated over
 * the socket without a reload), paged, deletable; "New broadcast" starts the type choice.
 */
export default function BroadcastsPage() {
  const { t } = useTranslation();
  const { companyId } = useAccount();
  const canSend = useCanSend();
  return (
    // minWidth 0: a wide table scrolls inside the page instead of widening it
    <Box sx={{ p: { xs: 2, md: 3 }, minWidth: 0, maxWidth: '100%' }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ sm: 'flex-start' }} sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('broadcasts.title')}
          </Typography>
          <Typography color="text.secondary">{t('broadcasts.subtitle')}</Typography>
          {!canSend && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="broadcasts-read-only">
              {t('broadcasts.readOnly')}
            </Typography>
          )}
        </Box>
        {canSend && (
          <Button
            component={RouterLink}
            to="/broadcast/broadcast-type"
            variant="contained"
            disableElevation
            startIcon={<MdiIcon path={mdiPlus} />}
            sx={{ fontWeight: 600, flexShrink: 0 }}
          >
            {t('broadcasts.new')}
          </Button>
        )}
      </Stack>
      {/* keyed by company: a switch starts from the first page with fresh data */}
      <BroadcastsList key={companyId ?? 'none'} />
    </Box>
  );
}
