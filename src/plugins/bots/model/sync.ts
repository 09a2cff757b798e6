/**
 * Saves the canvas on its own: the graph on screen is compared with the last graph the bot service
 * accepted, and the difference is sent as step calls (spec §7), debounced so that a drag or a typed
 * word makes one call. New steps are created bare first (their links may point at steps not created
 * yet), then every changed step is patched, then removed steps are deleted: the service refuses links
 * to missing steps, so this order never sends one. Undo and redo are just other graphs to save.
 */
import type { BotGraph, BotStep } from './types';

export interface StepPatch {
  messages: BotStep['messages'];
  layout: BotStep['layout'];
  options: BotStep['options'];
  next_step_id: string | null;
  actions: BotStep['actions'];
  input: BotStep['input'];
}

export interface SyncBackend {
  createStep(step: { id: string; messages: BotStep['messages']; options: BotStep['options']; next_step_id: null; layout: BotStep['layout'] }): Promise<unknown>;
  updateStep(stepId: string, patch: StepPatch): Promise<unknown>;
  deleteStep(stepId: string): Promise<unknown>;
  /** Saves the start step when it changed. */
  setStartStep?(stepId: string | null): Promise<unknown>;
  /** Saves the bot's fallback step (null: hand over to a person) when it changed. */
  setFallbackStep?(stepId: string | null): Promise<unknown>;
}

export type SyncEvent =
  | { type: 'created'; stepId: string }
  | { type: 'updated'; stepId: string; layoutOnly: boolean }
  | { type: 'deleted'; stepId: string }
  | { type: 'startChanged'; stepId: string | null }
  | { type: 'fallbackChanged'; stepId: string | null }
  | { type: 'error'; op: 'create' | 'update' | 'delete' | 'start' | 'fallback'; stepId: string | null; error: unknown }
  | { type: 'saving' | 'saved' };

export interface Plan {
  creates: BotStep[];
  updates: { step: BotStep; layoutOnly: boolean }[];
  deletes: string[];
  startChanged: boolean;
  fallbackChanged: boolean;
}

const content = (s: BotStep) => JSON.stringify([s.messages, s.options, s.next_step_id, s.actions ?? [], s.input ?? null]);
const layoutOf = (s: BotStep) => JSON.stringify(s.layout ?? null);

/** What must be sent to turn `saved` into `current`. */
export function plan(saved: BotGraph, current: BotGraph): Plan {
  const before = new Map(saved.steps.map((s) => [s.id, s]));
  const after = new Set(current.steps.map((s) => s.id));
  const creates: BotStep[] = [];
  const updates: Plan['updates'] = [];
  for (const step of current.steps) {
    const old = before.get(step.id);
    if (!old) {
      creates.push(step);
      updates.push({ step, layoutOnly: false });
      continue;
    }
    if (old === step) continue;
    const contentChanged = content(old) !== content(step);
    const layoutChanged = layoutOf(old) !== layoutOf(step);
    if (contentChanged || layoutChanged) updates.push({ step, layoutOnly: !contentChanged });
  }
  const deletes = saved.steps.filter((s) => !after.has(s.id)).map((s) => s.id);
  return {
    creates,
    updates,
    deletes,
    startChanged: (saved.step ?? null) !== (current.step ?? null),
    fallbackChanged: (saved.fallback_step_id ?? null) !== (current.fallback_step_id ?? null),
  };
}

export function patchOf(step: BotStep): StepPatch {
  return {
    messages: step.messages,
    layout: step.layout ?? null,
    options: step.options.map((o) => ({ ...o, step: step.id })),
    next_step_id: step.next_step_id,
    actions: step.actions ?? [],
    input: step.input ?? null,
  };
}

export interface Syncer {
  /** The graph on screen changed: save it after `delayMs` of quiet. */
  schedule(graph: BotGraph): void;
  /** Save now (deletions, leaving the page). */
  flush(graph?: BotGraph): Promise<void>;
  /** The graph the service last accepted. */
  saved(): BotGraph;
  /** Replaces the saved graph (after a reload). */
  reset(graph: BotGraph): void;
  pending(): boolean;
  /** A save waits for its quiet time. */
  scheduled(): boolean;
  dispose(): void;
}

export function createSyncer(options: {
  initial: BotGraph;
  backend: SyncBackend;
  delayMs?: number;
  onEvent?: (event: SyncEvent) => void;
}): Syncer {
  const delay = options.delayMs ?? 600;
  const emit = (e: SyncEvent) => options.onEvent?.(e);
  let saved = options.initial;
  let wanted: BotGraph = options.initial;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> = Promise.resolve();
  let busy = false;

  async function run(target: BotGraph): Promise<void> {
    const p = plan(saved, target);
    if (!p.creates.length && !p.updates.length && !p.deletes.length && !p.startChanged && !p.fallbackChanged) return;
    emit({ type: 'saving' });
    let next: BotGraph = { ...saved, steps: [...saved.steps] };
    const replace = (step: BotStep) => {
      const i = next.steps.findIndex((s) => s.id === step.id);
      next = { ...next, steps: i < 0 ? [...next.steps, step] : next.steps.map((s) => (s.id === step.id ? step : s)) };
    };
    let failed = false;
    for (const step of p.creates) {
      try {
        const bare = { id: step.id, messages: step.messages, options: step.options.map((o) => ({ ...o, next_step: null, step: step.id })), next_step_id: null, layout: step.layout ?? null };
        await options.backend.createStep(bare);
        replace({ ...step, ...bare, actions: [], input: null });
        emit({ type: 'created', stepId: step.id });
      } catch (error) {
        failed = true;
        emit({ type: 'error', op: 'create', stepId: step.id, error });
      }
    }
    if (p.startChanged && options.backend.setStartStep && (target.step === null || next.steps.some((s) => s.id === target.step))) {
      try {
        await options.backend.setStartStep(target.step);
        next = { ...next, step: target.step };
        emit({ type: 'startChanged', stepId: target.step });
      } catch (error) {
        failed = true;
        emit({ type: 'error', op: 'start', stepId: target.step, error });
      }
    } else if (p.startChanged && !options.backend.setStartStep) {
      next = { ...next, step: target.step };
    }
    // before the deletions: the service refuses to delete the step that is still the fallback
    const fallback = target.fallback_step_id ?? null;
    if (p.fallbackChanged && options.backend.setFallbackStep && (fallback === null || next.steps.some((s) => s.id === fallback))) {
      try {
        await options.backend.setFallbackStep(fallback);
        next = { ...next, fallback_step_id: fallback };
        emit({ type: 'fallbackChanged', stepId: fallback });
      } catch (error) {
        failed = true;
        emit({ type: 'error', op: 'fallback', stepId: fallback, error });
      }
    } else if (p.fallbackChanged && !options.backend.setFallbackStep) {
      next = { ...next, fallback_step_id: fallback };
    }
    for (const { step, layoutOnly } of p.updates) {
      const known = next.steps.find((s) => s.id === step.id);
      if (!known) continue; // its creation failed
      if (JSON.stringify(patchOf(known)) === JSON.stringify(patchOf(step))) continue; // created as it is
      try {
        await options.backend.updateStep(step.id, patchOf(step));
        replace(step);
        emit({ type: 'updated', stepId: step.id, layoutOnly: layoutOnly && !p.creates.some((c) => c.id === step.id) });
      } catch (error) {
        failed = true;
        emit({ type: 'error', op: 'update', stepId: step.id, error });
      }
    }
    for (const stepId of p.deletes) {
      try {
        await options.backend.deleteStep(stepId);
        next = { ...next, steps: next.steps.filter((s) => s.id !== stepId) };
        emit({ type: 'deleted', stepId });
      } catch (error) {
        failed = true;
        emit({ type: 'error', op: 'delete', stepId, error });
      }
    }
    saved = next;
    if (!failed) emit({ type: 'saved' });
  }

  function enqueue(target: BotGraph): Promise<void> {
    busy = true;
    running = running.then(() => run(target)).finally(() => {
      busy = false;
    });
    return running;
  }

  return {
    schedule(graph) {
      wanted = graph;
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void enqueue(wanted);
      }, delay);
    },
    flush(graph) {
      if (graph) wanted = graph;
      if (timer) clearTimeout(timer);
      timer = null;
      return enqueue(wanted);
    },
    saved: () => saved,
    reset(graph) {
      saved = graph;
      wanted = graph;
    },
    pending: () => timer !== null || busy,
    scheduled: () => timer !== null,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
