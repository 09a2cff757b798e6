import { useCallback, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Link, Paper, Stack, Step, StepButton, Stepper, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { errorText, httpApiRef, useAccount, useAlert, useApi } from '../../core';
import { createBroadcast } from './api';
import { clearDraft, isBroadcastType, STEPS, type BroadcastDraft, type BroadcastType } from './model/draft';
import { createPayload } from './model/payload';
import { useApprovedTemplates } from './queries';
import { AudienceStep, audienceComplete } from './steps/AudienceStep';
import { ContentStep, contentComplete, selectedTemplate } from './steps/ContentStep';
import { ReviewStep, type ReviewState } from './steps/ReviewStep';
import { ScheduleStep, scheduleProblem } from './steps/ScheduleStep';
import { useDraft } from './useDraft';

function Wizard({ type }: { type: BroadcastType }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { companyId } = useAccount();
  const { draft, update, discard } = useDraft(type);
  const templates = useApprovedTemplates(draft.channelId);
  const template = selectedTemplate(draft, templates.data);
  const [review, setReview] = useState<ReviewState>({ status: 'loading' });
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);

  const done = [
    audienceComplete(draft),
    contentComplete(draft, templates.data),
    scheduleProblem(draft) === null,
    false,
  ];
  /** A step can be opened when every step before it is complete. */
  const reachable = (index: number) => done.slice(0, index).every(Boolean);
  const step = reachable(draft.step) ? draft.step : Math.max(0, done.findIndex((d) => !d));
  const go = (index: number) => {
    setSubmitError(null);
    update({ step: index });
  };
  const onReviewState = useCallback((state: ReviewState) => setReview(state), []);

  const submit = async () => {
    if (!template) return;
    if (scheduleProblem(draft) !== null) {
      go(2);
      return;
    }
    setSubmitting(true);
    setSubmitError(null);
    try {
      const created = await createBroadcast(http, createPayload(draft, template));
      alert.success(draft.schedule.mode === 'later' ? t('broadcasts.create.scheduled') : t('broadcasts.create.created'));
      // The draft is done with; the page is left before it could be written again.
      clearDraft(companyId, type);
      void queryClient.invalidateQueries({ queryKey: ['broadcasts'] });
      navigate(`/broadcast/${created.id}`);
    } catch (err) {
      setSubmitError(errorText(err));
    } finally {
      setSubmitting(false);
    }
  };

  const canSubmit = !!template && review.status === 'ready' && review.preview.recipients > 0 && !submitting;

  return (
    <Stack spacing={3}>
      <Stepper nonLinear activeStep={step} alternativeLabel>
        {STEPS.map((name, index) => (
          // A step reads as done only once every step before it is: the schedule's default ("now") is valid from the
          // start, but it is not a step the admin has reached before choosing the content.
          <Step key={name} completed={index < 3 && reachable(index) && done[index] && index !== step}>
            <StepButton onClick={() => go(index)} disabled={!reachable(index)}>
              {t(`broadcasts.steps.${name}`)}
            </StepButton>
          </Step>
        ))}
      </Stepper>
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
        <Typography variant="h5" component="h2" fontWeight={700} sx={{ mb: 2 }}>
          {t(`broadcasts.steps.${STEPS[step]}`)}
        </Typography>
        {step === 0 && <AudienceStep draft={draft} update={update} />}
        {step === 1 && <ContentStep draft={draft} update={update} />}
        {step === 2 && <ScheduleStep draft={draft} update={update} />}
        {step === 3 && template && <ReviewStep draft={draft} update={update} template={template} onState={onReviewState} />}
        {submitError && (
          <Alert severity="error" role="alert" sx={{ mt: 2 }}>
            {submitError}
          </Alert>
        )}
      </Paper>
      <Stack direction="row" spacing={1.5} justifyContent="space-between">
        <Stack direction="row" spacing={1.5}>
          <Button onClick={() => go(step - 1)} disabled={step === 0 || submitting}>
            {t('broadcasts.common.back')}
          </Button>
          <Button color="inherit" onClick={discard} disabled={submitting}>
            {t('broadcasts.create.discard')}
          </Button>
        </Stack>
        {step < 3 ? (
          <Button variant="contained" disableElevation onClick={() => go(step + 1)} disabled={!done[step]} sx={{ fontWeight: 600 }}>
            {t('broadcasts.common.next')}
          </Button>
        ) : (
          <Button
            variant="contained"
            disableElevation
            onClick={() => void submit()}
            disabled={!canSubmit}
            startIcon={submitting ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            sx={{ fontWeight: 600 }}
          >
            {draft.schedule.mode === 'later' ? t('broadcasts.create.schedule') : t('broadcasts.create.sendNow')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

/** /broadcast/create-broadcast/{type}: audience → content → schedule → review; the draft survives leaving the page. */
export default function CreateBroadcastPage() {
  const { t } = useTranslation();
  const { type } = useParams();
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Link component={RouterLink} to="/broadcast/broadcast-type" underline="hover" variant="body2">
        {t('broadcasts.create.changeType')}
      </Link>
      <Typography variant="h4" component="h1" fontWeight={700} sx={{ mt: 1, mb: 2 }}>
        {isBroadcastType(type) ? t(`broadcasts.create.title.${type}`) : t('broadcasts.create.unknownType')}
      </Typography>
      {isBroadcastType(type) ? <Wizard type={type} /> : <Alert severity="warning">{t('broadcasts.create.unknownTypeHelp')}</Alert>}
    </Box>
  );
}

export type { BroadcastDraft };
