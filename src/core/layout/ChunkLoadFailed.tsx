import { Box, Button, Typography } from '@mui/material';
import SvgIcon from '@mui/material/SvgIcon';
import { mdiCloudOffOutline } from '@mdi/js';
import { useResetErrorBoundaryOnLocationChange } from 'react-admin';
import { useTranslation } from 'react-i18next';

/**
 * What stands in for a page whose code could not be fetched (chunkLoadError.ts): react-admin's error page would show
 * a browser's message ("Failed to fetch dynamically imported module …") to a user who can do one thing about it,
 * load the console again, which also fetches the files of a newer deploy.
 */
const noop = () => undefined;

export function ChunkLoadFailed({
  minHeight,
  resetErrorBoundary = noop,
  reload = () => window.location.reload(),
}: {
  minHeight?: string;
  /** As react-admin's error page: another page chosen from the menu replaces this one. */
  resetErrorBoundary?: () => void;
  reload?: () => void;
}) {
  const { t } = useTranslation();
  useResetErrorBoundaryOnLocationChange(resetErrorBoundary);
  return (
    <Box data-testid="chunk-load-failed" role="alert" sx={{ textAlign: 'center', py: 8, px: 2, minHeight }}>
      <SvgIcon sx={{ fontSize: 64, color: 'text.secondary' }} aria-hidden>
        <path d={mdiCloudOffOutline} />
      </SvgIcon>
      <Typography variant="h4" component="h1" fontWeight={700} sx={{ mt: 1 }}>
        {t('core.chunkLoad.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: 520, mx: 'auto' }}>
        {t('core.chunkLoad.message')}
      </Typography>
      <Button onClick={reload} variant="contained" disableElevation sx={{ textTransform: 'none', fontWeight: 600 }}>
        {t('core.chunkLoad.reload')}
      </Button>
    </Box>
  );
}
