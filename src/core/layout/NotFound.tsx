import { Box, Button, Typography } from '@mui/material';
import SvgIcon from '@mui/material/SvgIcon';
import { mdiMapMarkerQuestionOutline } from '@mdi/js';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PATH } from '../routing/routeAccess';

/**
 * The shell's page for an address no loaded plugin serves (react-admin's `catchAll`): a title in the
 * app bar and on the page, what happened in a full sentence, and the way back to the dashboard.
 */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <Box data-testid="not-found" sx={{ textAlign: 'center', py: 8, px: 2 }}>
      <Title title={t('core.notFound.title')} />
      <SvgIcon sx={{ fontSize: 64, color: 'text.secondary' }} aria-hidden>
        <path d={mdiMapMarkerQuestionOutline} />
      </SvgIcon>
      <Typography variant="h4" component="h1" fontWeight={700} sx={{ mt: 1 }}>
        {t('core.notFound.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: 520, mx: 'auto' }}>
        {t('core.notFound.message')}
      </Typography>
      <Button component={RouterLink} to={DASHBOARD_PATH} variant="contained" disableElevation sx={{ textTransform: 'none', fontWeight: 600 }}>
        {t('core.notFound.toDashboard')}
      </Button>
    </Box>
  );
}
