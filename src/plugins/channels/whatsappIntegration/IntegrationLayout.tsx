import type { ReactNode } from 'react';
import { Avatar, Box, Card, CardContent, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { mdiMessageTextOutline, mdiWhatsapp } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';

/** The stepper's three stages: intro-step, start, and the outcome pages. */
export type IntegrationStage = 0 | 1 | 2;

interface IntegrationLayoutProps {
  stage: IntegrationStage;
  /** The flow is over (success): every stage shows as completed. */
  finished?: boolean;
  title: ReactNode;
  subtitle?: ReactNode;
  children: ReactNode;
}

/** Full page outside the shell: the product's mark and name, then a centered card with the stepper. */
export function IntegrationLayout({ stage, finished = false, title, subtitle, children }: IntegrationLayoutProps) {
  const { t } = useTranslation();
  const stages = [t('whatsappIntegration.stepper.prepare'), t('whatsappIntegration.stepper.connect'), t('whatsappIntegration.stepper.done')];
  return (
    <Box
      component="main"
      sx={(theme) => ({
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 6,
        background: `radial-gradient(circle at 80% 0%, ${alpha(theme.palette.whatsapp?.main ?? '#25D366', 0.14)} 0%, transparent 45%), ${theme.palette.background.default}`,
      })}
    >
      <Box sx={{ width: '100%', maxWidth: 600 }}>
        <Stack direction="row" spacing={1.5} alignItems="center" justifyContent="center" sx={{ mb: 3 }}>
          <Avatar variant="rounded" sx={{ bgcolor: 'primary.main', width: 40, height: 40, borderRadius: 2 }}>
            <MdiIcon path={mdiMessageTextOutline} />
          </Avatar>
          <Typography variant="h6" component="span" fontWeight={700} letterSpacing={-0.2}>
            {t('core.appName')}
          </Typography>
        </Stack>
        <Card elevation={0} sx={{ border: 1, borderColor: 'divider', borderRadius: 3, boxShadow: '0 8px 32px rgba(15, 23, 42, 0.06)' }}>
          <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>
            <Stepper activeStep={finished ? stages.length : stage} alternativeLabel aria-label={t('whatsappIntegration.stepper.label')} sx={{ mb: 4 }}>
              {stages.map((label) => (
                <Step key={label}>
                  <StepLabel>{label}</StepLabel>
                </Step>
              ))}
            </Stepper>
            <Stack direction="row" spacing={1.5} alignItems="center">
              <Avatar sx={{ bgcolor: 'whatsapp.main', color: 'whatsapp.contrastText', width: 36, height: 36 }}>
                <MdiIcon path={mdiWhatsapp} fontSize="small" />
              </Avatar>
              <Typography component="h1" variant="h5" fontWeight={600}>
                {title}
              </Typography>
            </Stack>
            {subtitle && (
              <Typography color="text.secondary" variant="body2" sx={{ mt: 1 }}>
                {subtitle}
              </Typography>
            )}
            <Box sx={{ mt: 3 }}>{children}</Box>
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}
