/**
 * The canvas's state: the bot graph with undo/redo, a drag preview, and the debounced saver that
 * sends every change to the bot service with the spec's alerts (§8).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert, useApi } from '../../../core';
import { botServiceApiRef } from '../api/botService';
import { botErrorText } from '../api/errors';
import type { Bot } from '../../../../contract/bots';
import { canRedo, canUndo, createHistory, record, redo, undo, type History } from '../model/history';
import { createSyncer, type SyncEvent, type Syncer } from '../model/sync';
import type { BotGraph } from '../model/types';

export type SaveStatus = 'saved' | 'pending' | 'saving' | 'error';

export const SAVE_DELAY_MS = 700;

export function graphOf(bot: Bot): BotGraph {
  return { id: bot.id, step: bot.step, fallback_step_id: bot.fallback_step_id, steps: bot.steps };
}

export function useBotEditor(bot: Bot) {
  const { t } = useTranslation();
  const alert = useAlert();
  const service = useApi(botServiceApiRef);
  const [history, setHistory] = useState<History<BotGraph>>(() => createHistory(graphOf(bot)));
  const [preview, setPreview] = useState<BotGraph | null>(null);
  const [status, setStatus] = useState<SaveStatus>('saved');
  const syncerRef = useRef<Syncer | null>(null);
  const batch = useRef({ updated: false, created: false, deleted: false });

  const onEvent = useCallback(
    (event: SyncEvent) => {
      switch (event.type) {
        case 'saving':
          batch.current = { updated: false, created: false, deleted: false };
          setStatus('saving');
          break;
        case 'created':
          batch.current.created = true;
          alert.success(t('bots.canvas.stepAdded'));
          break;
        case 'updated':
          if (!event.layoutOnly) batch.current.updated = true;
          break;
        case 'deleted':
          batch.current.deleted = true;
          alert.success(t('bots.canvas.stepDeleted'));
          break;
        case 'error': {
          setStatus('error');
          const error = botErrorText(event.error);
          if (event.op === 'delete') alert.error(t('bots.canvas.deleteError', { error }));
          else if (event.op === 'create') alert.error(t('bots.canvas.createError', { error }));
          else alert.error(t('bots.canvas.updateError', { error }));
          break;
        }
        case 'saved':
          setStatus(syncerRef.current?.scheduled() ? 'pending' : 'saved');
          // one alert per save: a creation's or deletion's own alert is not covered by the links saved with it
          if (batch.current.updated && !batch.current.created && !batch.current.deleted) alert.success(t('bots.canvas.stepUpdated'));
          break;
        case 'startChanged':
        case 'fallbackChanged':
          batch.current.updated = true;
          break;
      }
    },
    [alert, t],
  );

  const onEventRef = useRef(onEvent);
  onEventRef.current = onEvent;
  if (!syncerRef.current) {
    syncerRef.current = createSyncer({
      initial: graphOf(bot),
      delayMs: SAVE_DELAY_MS,
      onEvent: (e) => onEventRef.current(e),
      backend: {
        createStep: (step) => service.createStep(bot.id, step),
        updateStep: (stepId, patch) => service.updateStep(bot.id, stepId, patch),
        deleteStep: (stepId) => service.deleteStep(bot.id, stepId),
        setStartStep: (stepId) => service.updateBot(bot.id, { step: stepId }),
        setFallbackStep: (stepId) => service.updateBot(bot.id, { fallback_step_id: stepId }),
      },
    });
  }
  // leaving the canvas saves what is still waiting
  useEffect(() => {
    const syncer = syncerRef.current!;
    return () => {
      if (syncer.pending()) void syncer.flush();
      syncer.dispose();
    };
  }, []);

  const graph = preview ?? history.present;

  /** Records a change (undoable) and saves it: now for additions and deletions, debounced otherwise. */
  const commit = useCallback((next: BotGraph, options: { coalesce?: string; now?: boolean } = {}) => {
    setPreview(null);
    setHistory((h) => record(h, next, options.coalesce));
    setStatus('pending');
    if (options.now) void syncerRef.current!.flush(next);
    else syncerRef.current!.schedule(next);
  }, []);

  const applyHistory = useCallback((fn: (h: History<BotGraph>) => History<BotGraph>) => {
    setPreview(null);
    setHistory((h) => {
      const next = fn(h);
      if (next !== h) {
        setStatus('pending');
        syncerRef.current!.schedule(next.present);
      }
      return next;
    });
  }, []);

  return useMemo(
    () => ({
      graph,
      status,
      commit,
      setPreview,
      undo: () => applyHistory(undo),
      redo: () => applyHistory(redo),
      canUndo: canUndo(history),
      canRedo: canRedo(history),
      flush: () => syncerRef.current!.flush(),
    }),
    [graph, status, commit, applyHistory, history],
  );
}
