/**
 * The canvas's publish state and actions (issue #25): "Published · version N" / "Draft has
 * unpublished changes" / "Not published yet", the Publish button, and what a refused publish lacks,
 * each problem naming its step with a way to open it. Problems are known on the canvas already
 * (contract draftProblems), so a draft with problems is refused here without asking the server; the
 * server's own refusal (a draft changed elsewhere) is shown the same way.
 */
import { useState } from 'react';
import { Alert, AlertTitle, Box, Button, Chip, CircularProgress, Link, Stack } from '@mui/material';
import { mdiCloudUploadOutline, mdiHistory } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon, useAlert, useApi } from '../../../core';
import type { BotDraft, BotNotReadyBody, DraftProblem } from '../../../../contract/botDrafts';
import { botServiceApiRef } from '../api/botService';
import { botErrorText } from '../api/errors';
import type { GraphProblems } from '../model/problems';
import type { BotStep } from '../model/types';
import { useProblemText } from './problemText';

export type PublishState = 'published' | 'unpublished' | 'never';

export function publishState(draft: BotDraft, editing: boolean): PublishState {
  if (draft.unpublished_changes || editing) return draft.published_version === null ? 'never' : 'unpublished';
  return draft.published_version === null ? 'never' : 'published';
}

function notReadyProblems(error: unknown): DraftProblem[] | null {
  const body = (error as { status?: number; body?: Partial<BotNotReadyBody> } | null)?.body;
  return (error as { status?: number })?.status === 400 && body?.code === 'not_ready' && Array.isArray(body.problems) ? body.problems : null;
}

/** The state chip and the Publish button (the bar of the canvas). */
export function PublishState({ state, version }: { state: PublishState; version: number | null }) {
  const { t } = useTranslation();
  const label = state === 'published' ? t('bots.draft.published', { version }) : state === 'unpublished' ? t('bots.draft.unpublished') : t('bots.draft.neverPublished');
  // The text stays in the body colour (orange text on white is below 4.5:1); the border carries the state's colour.
  return (
    <Chip
      size="small"
      role="status"
      data-testid="publish-state"
      data-state={state}
      variant="outlined"
      label={label}
      sx={{ maxWidth: '100%', color: 'text.primary', borderWidth: 2, borderColor: state === 'published' ? 'success.main' : 'warning.main', fontWeight: 600 }}
    />
  );
}

export function usePublish(props: { botId: number; problems: GraphProblems; flush: () => Promise<void>; onPublished: (draft: BotDraft) => void }) {
  const { t } = useTranslation();
  const alert = useAlert();
  const service = useApi(botServiceApiRef);
  const [refused, setRefused] = useState<DraftProblem[] | null>(null);
  const [pending, setPending] = useState(false);

  const publish = async () => {
    const local = [...props.problems.bot, ...Object.values(props.problems.byStep).flat()];
    if (local.length > 0) {
      setRefused(local);
      return;
    }
    setPending(true);
    setRefused(null);
    try {
      await props.flush();
      const draft = await service.publish(props.botId);
      props.onPublished(draft);
      alert.success(t('bots.draft.publishedAlert', { version: draft.published_version }));
    } catch (error) {
      const problems = notReadyProblems(error);
      if (problems) setRefused(problems);
      else alert.error(t('bots.draft.publishError', { error: botErrorText(error) }));
    } finally {
      setPending(false);
    }
  };
  return { publish, pending, refused, dismiss: () => setRefused(null) };
}

export function PublishButton({ pending, onClick }: { pending: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button
      variant="contained"
      color="success"
      disableElevation
      disabled={pending}
      startIcon={pending ? <CircularProgress size={16} aria-hidden /> : <MdiIcon path={mdiCloudUploadOutline} />}
      onClick={onClick}
    >
      {pending ? t('bots.draft.publishing') : t('bots.draft.publish')}
    </Button>
  );
}

export function VersionsButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button startIcon={<MdiIcon path={mdiHistory} />} onClick={onClick}>
      {t('bots.draft.versions')}
    </Button>
  );
}

/** What a refused publish lacks: each problem with its step's name and a link that opens the step. */
export function PublishRefusal({ problems, steps, onOpenStep, onClose }: { problems: DraftProblem[]; steps: readonly BotStep[]; onOpenStep: (stepId: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { withStep } = useProblemText();
  return (
    <Alert severity="warning" onClose={onClose} slotProps={{ closeButton: { title: t('bots.draft.dismiss'), 'aria-label': t('bots.draft.dismiss') } as object }} data-testid="publish-refusal" sx={{ mx: 2, mt: 1 }}>
      <AlertTitle>{t('bots.draft.notReady', { count: problems.length })}</AlertTitle>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {problems.map((p, i) => (
          <li key={`${p.step}-${p.code}-${i}`}>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'baseline' }}>
              <span>{withStep(p, steps)}</span>
              {p.step !== null && steps.some((s) => s.id === p.step) && (
                <Link component="button" type="button" variant="body2" onClick={() => onOpenStep(p.step!)}>
                  {t('bots.draft.openStep')}
                </Link>
              )}
            </Stack>
          </li>
        ))}
      </Box>
    </Alert>
  );
}
