import { Avatar, Card, CardContent, List, ListItem, ListItemAvatar, ListItemButton, ListItemText, Typography } from '@mui/material';
import { mdiChevronRight } from '@mdi/js';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { GettingStartedStep } from './gettingStartedSteps';
import { MdiIcon } from '../../core';

/** "Getting started": links to the features this user can use next. */
export function GettingStartedCard({ steps }: { steps: GettingStartedStep[] }) {
  const { t } = useTranslation();
  if (steps.length === 0) return null;
  return (
    <Card variant="outlined" sx={{ borderRadius: 3, height: '100%' }}>
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" fontWeight={600}>
          {t('dashboard.gettingStarted.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('dashboard.gettingStarted.subtitle')}
        </Typography>
        <List disablePadding>
          {steps.map((step) => (
            <ListItem key={step.id} disablePadding>
            <ListItemButton component={RouterLink} to={step.to} sx={{ borderRadius: 2, py: 1.25 }}>
              <ListItemAvatar>
                <Avatar sx={{ bgcolor: 'action.selected', color: 'primary.main' }}>
                  <MdiIcon path={step.icon} />
                </Avatar>
              </ListItemAvatar>
              <ListItemText
                primary={t(`dashboard.gettingStarted.${step.id}.title`)}
                secondary={t(`dashboard.gettingStarted.${step.id}.description`)}
                slotProps={{ primary: { fontWeight: 600 } }}
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
