import { Box, CircularProgress, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import { mdiAlertCircle, mdiCheckCircle, mdiCircleOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { SIGNUP_STEPS, type SignupStep, type SignupStepName } from '../../../../contract/channels';
import { MdiIcon } from '../../../core';

type ShownState = 'pending' | 'running' | 'done' | 'failed';

/** Each server step (SIGNUP_STEPS, in order) with its state; the first pending one runs while `active`. */
export function stepStates(steps: SignupStep[] | undefined, active: boolean): { name: SignupStepName; state: ShownState; error: string | null }[] {
  const byName = new Map((steps ?? []).map((s) => [s.name, s]));
  let runningShown = false;
  return SIGNUP_STEPS.map((name) => {
    const step = byName.get(name);
    if (step?.status === 'done') return { name, state: 'done' as const, error: null };
    if (step?.status === 'failed') return { name, state: 'failed' as const, error: step.error };
    if (active && !runningShown) {
      runningShown = true;
      return { name, state: 'running' as const, error: null };
    }
    return { name, state: 'pending' as const, error: null };
  });
}

function StateIcon({ state }: { state: ShownState }) {
  if (state === 'running') return <CircularProgress size={20} aria-hidden />;
  if (state === 'done') return <MdiIcon path={mdiCheckCircle} color="success" />;
  if (state === 'failed') return <MdiIcon path={mdiAlertCircle} color="error" />;
  return <MdiIcon path={mdiCircleOutline} color="disabled" />;
}

/** The server's setup steps with friendly labels and their progress. */
export function SignupProgress({ steps, active }: { steps: SignupStep[] | undefined; active: boolean }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 0.5 }}>
        {t('whatsappIntegration.steps.title')}
      </Typography>
      <List dense aria-label={t('whatsappIntegration.steps.title')} disablePadding>
        {stepStates(steps, active).map(({ name, state, error }) => (
          <ListItem key={name} data-testid={`signup-step-${name}`} data-state={state} disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <StateIcon state={state} />
            </ListItemIcon>
            <ListItemText
              primary={t(`whatsappIntegration.steps.${name}`)}
              secondary={error ? `${t(`whatsappIntegration.steps.status.${state}`)}: ${error}` : t(`whatsappIntegration.steps.status.${state}`)}
            />
          </ListItem>
        ))}
      </List>
    </Box>
  );
}
