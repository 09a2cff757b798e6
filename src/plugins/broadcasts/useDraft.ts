import { useCallback, useEffect, useState } from 'react';
import { useAccount } from '../../core';
import { clearDraft, loadDraft, saveDraft, type BroadcastDraft, type BroadcastType } from './model/draft';

/**
 * The stepper's draft for the selected company and type: read from localStorage on mount (and when
 * the company changes), saved on every change, so leaving the page and coming back finds it.
 */
export function useDraft(type: BroadcastType) {
  const { companyId } = useAccount();
  const [state, setState] = useState(() => ({ companyId, draft: loadDraft(companyId, type) }));
  // Another company or type: its own draft.
  const current = state.companyId === companyId && state.draft.type === type ? state.draft : null;
  useEffect(() => {
    if (!current) setState({ companyId, draft: loadDraft(companyId, type) });
  }, [current, companyId, type]);
  const draft = current ?? loadDraft(companyId, type);

  const update = useCallback(
    (patch: Partial<BroadcastDraft>) =>
      setState((prev) => {
        const next = { ...prev.draft, ...patch };
        saveDraft(prev.companyId, next);
        return { ...prev, draft: next };
      }),
    [],
  );
  const discard = useCallback(() => {
    clearDraft(companyId, type);
    setState({ companyId, draft: loadDraft(companyId, type) });
  }, [companyId, type]);
  return { draft, update, discard };
}
