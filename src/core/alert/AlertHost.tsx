import { Alert, Box, Button, CircularProgress, LinearProgress, Snackbar } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAlert, useAlertState } from './useAlert';

/** The console's one alert UI: a snackbar whose bar shows the countdown (spec §4). */
export function AlertHost() {
  const alert = useAlert();
  const state = useAlertState();
  const { t } = useTranslation();
  return (
    <Snackbar
      // No autoHideDuration: the AlertApi's own countdown closes it. MUI's timer would start only when
      // the snackbar opens, so a second alert shown while one is up was closed early by the first's timer.
      open={state.active}
      onClose={(_, reason) => reason !== 'clickaway' && alert.dismiss()}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert
        severity={state.type}
        variant="filled"
        onClose={() => alert.dismiss()}
        slotProps={{ closeButton: { title: t('core.alert.close'), 'aria-label': t('core.alert.close') } }}
        icon={state.loader ? <CircularProgress size={20} color="inherit" /> : undefined}
        action={
          state.action ? (
            <Button component={RouterLink} to={state.action.to} color="inherit" size="small" onClick={() => alert.dismiss()} sx={{ fontWeight: 700, textDecoration: 'underline' }}>
              {state.action.label}
            </Button>
          ) : undefined
        }
        sx={{ minWidth: 300, position: 'relative', overflow: 'hidden' }}
      >
        <Box component="span" role="status" data-testid="alert-text">
          {state.text}
        </Box>
        <LinearProgress
          variant="determinate"
          value={state.progress}
          color="inherit"
          sx={{ position: 'absolute', left: 0, right: 0, bottom: 0, height: 3 }}
        />
      </Alert>
    </Snackbar>
  );
}
