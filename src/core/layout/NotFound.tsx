import { Button } from '@mui/material';
import { mdiMapMarkerQuestionOutline } from '@mdi/js';
import { Title } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DASHBOARD_PATH } from '../routing/routeAccess';
import { statusActionSx, StatusPage } from './StatusPage';

/**
 * The shell's page for an address no loaded plugin serves (react-admin's `catchAll`): a title in the
 * app bar and on the page, what happened in a full sentence, and the way back to the dashboard.
 */
export function NotFound() {
  const { t } = useTranslation();
  return (
    <>
      <Title title={t('core.notFound.title')} />
      <StatusPage
        testId="not-found"
        icon={mdiMapMarkerQuestionOutline}
        title={t('core.notFound.title')}
        message={t('core.notFound.message')}
        action={
          <Button component={RouterLink} to={DASHBOARD_PATH} variant="contained" disableElevation sx={statusActionSx}>
            {t('core.notFound.toDashboard')}
          </Button>
        }
      />
    </>
  );
}
