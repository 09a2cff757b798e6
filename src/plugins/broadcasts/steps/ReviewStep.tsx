import { useEffect, useState } from 'react';
import { Alert, Box, CircularProgress, Grid, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { EXCLUSION_REASONS, type AudiencePreview } from '../../../../contract/broadcasts';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import { errorText, httpApiRef, useApi } from '../../../core';
import { previewAudience } from '../api';
import { MessagePreview } from '../components/MessagePreview';
import { renderMessage } from '../model/mapping';
import { createPayload, fromApiMessage } from '../model/payload';
import { sampleRecipient } from './ContentStep';
import { scheduledInstant } from './ScheduleStep';
import type { StepProps } from './types';

export type ReviewState = { status: 'loading' } | { status: 'error'; error: string } | { status: 'ready'; preview: AudiencePreview };

/** The review's figures: recipients, exclusions by reason (with the messaging-limit warning). */
export function ReviewFigures({ preview }: { preview: AudiencePreview }) {
  const { t } = useTranslation();
  const excludedTotal = EXCLUSION_REASONS.reduce((sum, r) => sum + (preview.excluded[r] ?? 0), 0);
  const limit = preview.messaging_limit;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="p" fontWeight={700} data-testid="review-recipients">
        {t('broadcasts.review.recipients', { count: preview.recipients })}
      </Typography>
      <Box>
        <Typography fontWeight={600}>{t('broadcasts.review.excluded', { count: excludedTotal })}</Typography>
        <List dense aria-label={t('broadcasts.review.excludedByReason')}>
          {EXCLUSION_REASONS.map((reason) => (
            <ListItem key={reason} disableGutters data-testid={`excluded-${reason}`}>
              <ListItemText primary={t(`broadcasts.review.reasons.${reason}`, { count: preview.excluded[reason] ?? 0 })} />
            </ListItem>
          ))}
        </List>
      </Box>
      {preview.bad_rows.length > 0 && <Alert severity="info">{t('broadcasts.review.badRows', { count: preview.bad_rows.length })}</Alert>}
      {(preview.over_limit_warning || (preview.excluded.over_limit ?? 0) > 0) && (
        <Alert severity="warning" data-testid="limit-warning">
          {limit.limit === null
            ? t('broadcasts.review.overLimitUnknown')
            : t('broadcasts.review.overLimit', { used: limit.used, limit: limit.limit, remaining: limit.remaining ?? 0 })}
        </Alert>
      )}
    </Stack>
  );
}

/** Step 4: who receives it, who is left out and why, the message as one recipient sees it. */
export function ReviewStep({ draft, template, onState }: StepProps & { template: WhatsAppTemplate; onState?: (state: ReviewState) => void }) {
  const { t, i18n } = useTranslation();
  const http = useApi(httpApiRef);
  const [state, setState] = useState<ReviewState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const body = createPayload(draft, template);
    setState({ status: 'loading' });
    previewAudience(http, { page_id: body.page_id, audience: body.audience, template: body.template, variables: body.variables }, controller.signal)
      .then((preview) => setState({ status: 'ready', preview }))
      .catch((err) => !controller.signal.aborted && setState({ status: 'error', error: errorText(err) }));
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- asked once per visit of the step
  }, []);
  useEffect(() => onState?.(state), [state, onState]);

  const at = scheduledInstant(draft);
  const fallback = renderMessage(template, draft.mapping, sampleRecipient(draft, t('broadcasts.content.sampleName')), draft.headerMedia?.url ?? null);
  const message = state.status === 'ready' && state.preview.message ? fromApiMessage(state.preview.message) : fallback;
  const sample = state.status === 'ready' ? state.preview.sample[0] : undefined;

  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 7 }}>
        <Stack spacing={2}>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.5 }}>
            <Typography component="dt" color="text.secondary">{t('broadcasts.review.name')}</Typography>
            <Typography component="dd" sx={{ m: 0 }}>{draft.name}</Typography>
            <Typography component="dt" color="text.secondary">{t('broadcasts.review.template')}</Typography>
            <Typography component="dd" sx={{ m: 0 }}>{`${template.name} · ${template.language}`}</Typography>
            <Typography component="dt" color="text.secondary">{t('broadcasts.review.when')}</Typography>
            <Typography component="dd" sx={{ m: 0 }} data-testid="review-when">
              {at ? t('broadcasts.review.at', { date: at.toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), zone: draft.schedule.timeZone }) : t('broadcasts.schedule.now')}
            </Typography>
          </Box>
          {state.status === 'loading' && <CircularProgress size={24} aria-label={t('broadcasts.common.loading')} />}
          {state.status === 'error' && (
            <Alert severity="error" role="alert">
              {state.error}
            </Alert>
          )}
          {state.status === 'ready' && <ReviewFigures preview={state.preview} />}
        </Stack>
      </Grid>
      <Grid size={{ xs: 12, md: 5 }}>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {sample ? t('broadcasts.content.previewFor', { name: sample.name || sample.phone }) : t('broadcasts.review.messageTitle')}
        </Typography>
        <MessagePreview message={message} />
      </Grid>
    </Grid>
  );
}
