/** A draft problem in the builder's language (bots.problems.*), naming its step as the canvas labels it. */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftProblem } from '../../../../contract/botDrafts';
import { stepLabel } from '../model/graph';
import type { BotStep } from '../model/types';

export function useProblemText() {
  const { t } = useTranslation();
  const sentence = useCallback(
    (p: DraftProblem) => t(`bots.problems.${p.code}`, { message: p.message ?? '', option: p.option ?? '', media: p.media ? t(`bots.panel.types.${p.media}`) : '' }),
    [t],
  );
  /** The problem alone (on its own step's node or panel): a sentence of its own. */
  const describe = useCallback((p: DraftProblem) => {
    const text = sentence(p);
    return text.charAt(0).toLocaleUpperCase() + text.slice(1);
  }, [sentence]);
  /** The problem with its step's name (the publish refusal's list). */
  const withStep = useCallback(
    (p: DraftProblem, steps: readonly BotStep[]) => {
      const step = p.step === null ? undefined : steps.find((s) => s.id === p.step);
      return p.step === null ? describe(p) : t('bots.problems.inStep', { step: step ? stepLabel(step) : p.step, problem: sentence(p) });
    },
    [describe, sentence, t],
  );
  return { describe, withStep };
}
