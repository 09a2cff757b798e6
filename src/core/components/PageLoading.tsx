import { Box, CircularProgress } from '@mui/material';
import { useTranslation } from 'react-i18next';

/**
 * A page (or a lazy view) on its way: a labelled spinner. react-admin's <Loading> was used before, but its
 * spinner is a progressbar with no accessible name (axe: aria-progressbar-name) and its text is not ours.
 */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <Box data-testid="page-loading" sx={{ display: 'flex', justifyContent: 'center', alignItems: 'center', minHeight: 240 }}>
      <CircularProgress aria-label={t('core.loading')} />
    </Box>
  );
}
