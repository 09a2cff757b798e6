import { Button } from '@mui/material';
import { mdiCloudOffOutline } from '@mdi/js';
import { useResetErrorBoundaryOnLocationChange } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { statusActionSx, StatusPage } from './StatusPage';

const noop = () => undefined;

/**
 * What stands in for a page whose code could not be fetched (chunkLoadError.ts): react-admin's error page would show
 * a browser's message ("Failed to fetch dynamically imported module …") to a user who can do one thing about it,
 * load the console again, which also fetches the files of a newer deploy.
 */
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
    <StatusPage
      testId="chunk-load-failed"
      role="alert"
      minHeight={minHeight}
      icon={mdiCloudOffOutline}
      title={t('core.chunkLoad.title')}
      message={t('core.chunkLoad.message')}
      action={
        <Button onClick={reload} variant="contained" disableElevation sx={statusActionSx}>
          {t('core.chunkLoad.reload')}
        </Button>
      }
    />
  );
}
