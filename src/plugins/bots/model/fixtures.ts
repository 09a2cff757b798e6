import type { BotGraph, BotStep } from './types';

/** A step for tests: one text message, the given options (id → next step). */
export function step(id: string, options: Record<string, string | null> = {}, extra: Partial<BotStep> = {}): BotStep {
  return {
    id,
    messages: [{ text: `Message of ${id}`, media_url: null, type: 'text' }],
    options: Object.entries(options).map(([optionId, next]) => ({ id: optionId, text: optionId, next_step: next, step: id })),
    next_step_id: null,
    layout: null,
    actions: [],
    input: null,
    position: 0,
    ...extra,
  };
}

export function graph(steps: BotStep[], start: string | null = steps[0]?.id ?? null): BotGraph {
  return { id: 1, step: start, steps };
}
