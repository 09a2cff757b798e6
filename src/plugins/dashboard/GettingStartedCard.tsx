import { Avatar, Card, CardContent, List, ListItem, ListItemAvatar, ListItemButton, ListItemText, Typography } from '@mui/material';
import { mdiCheck, mdiChevronRight } from '@mdi/js';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { showGettingStarted, stepProgress, type GettingStartedStep } from './gettingStartedSteps';
import { useDashboardStats } from './useDashboardStats';
import { MdiIcon } from '../../core';

/**
 * "Getting started": links to the features this user can use next. With the dashboard figures
 * (`withProgress`: a stats plugin serves them), each step the company has taken is marked done
 * (a check, still a link), and the card goes away once every step is done.
 */
export function GettingStartedCard({ steps, withProgress = false }: { steps: GettingStartedStep[]; withProgress?: boolean }) {
  const { t } = useTranslation();
  const query = useDashboardStats(withProgress && steps.length > 0);
  // While the figures load the card waits (no flash of steps already done); if they fail, every step shows as to do.
  if (withProgress && steps.length > 0 && query.isPending) return null;
  const progress = stepProgress(steps, withProgress ? query.data?.setup : undefined);
  if (!showGettingStarted(progress)) return null;
  const doneCount = progress.filter((p) => p.done).length;
  return (
    <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }} data-testid="getting-started">
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" fontWeight={600}>
          {t('dashboard.gettingStarted.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('dashboard.gettingStarted.subtitle')}
          {doneCount > 0 && ` ${t('dashboard.gettingStarted.progress', { done: doneCount, total: progress.length })}`}
        </Typography>
        <List disablePadding>
          {progress.map(({ step, done }) => (
            <ListItem key={step.id} disablePadding data-testid={`getting-started-${step.id}`} data-done={done ? 'true' : 'false'}>
              <ListItemButton component={RouterLink} to={step.to} sx={{ borderRadius: 2, py: 1.25 }}>
                <ListItemAvatar>
                  <Avatar
                    sx={
                      done
                        ? { bgcolor: 'success.main', color: 'success.contrastText' }
                        : { bgcolor: 'action.selected', color: 'primary.main' }
                    }
                  >
                    <MdiIcon path={done ? mdiCheck : step.icon} />
                  </Avatar>
                </ListItemAvatar>
                <ListItemText
                  primary={done ? t('dashboard.gettingStarted.doneTitle', { title: t(`dashboard.gettingStarted.${step.id}.title`) }) : t(`dashboard.gettingStarted.${step.id}.title`)}
                  secondary={t(`dashboard.gettingStarted.${step.id}.description`)}
                  slotProps={{ primary: { fontWeight: 600, sx: done ? { color: 'text.secondary' } : undefined } }}
                />
                <MdiIcon path={mdiChevronRight} color="action" />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
