/**
 * What the draft still lacks before it can be published (issue #25): the contract's draftProblems,
 * the same check the server's Publish runs, computed on the canvas as the builder edits so each node
 * shows its own problems at once, without asking the server.
 */
import { draftProblems, type BotContent, type DraftProblem } from '../../../../contract/botDrafts';
import { startStepId } from './layout';
import type { BotGraph } from './types';

export type { DraftProblem };

export interface GraphProblems {
  /** Problems of each step, by step id (a step without problems is absent). */
  byStep: Record<string, DraftProblem[]>;
  /** Problems of the bot as a whole (no step yet, a start or fallback step gone). */
  bot: DraftProblem[];
  count: number;
}

/** The graph as the draft's content (the start step as the canvas shows it). */
export function contentOf(graph: BotGraph): BotContent {
  return { step: startStepId(graph), fallback_step_id: graph.fallback_step_id ?? null, steps: graph.steps };
}

export function graphProblems(graph: BotGraph): GraphProblems {
  const all = draftProblems(contentOf(graph));
  const byStep: Record<string, DraftProblem[]> = {};
  const bot: DraftProblem[] = [];
  for (const problem of all) {
    if (problem.step === null) bot.push(problem);
    else (byStep[problem.step] ??= []).push(problem);
  }
  return { byStep, bot, count: all.length };
}
