/**
 * The builder's view of a bot (spec §3): the contract's Bot step and Step option, and the part of
 * the Bot the canvas edits (start step, fallback, steps).
 */
import type { BotMessage, BotStep, Layout, StepAction, StepOption } from '../../../../contract/bots';

export type { BotMessage, BotStep, StepAction, StepOption };
export type StepMessage = BotMessage;
export type StepLayout = Layout;

export interface BotGraph {
  id: number;
  /** The start step's id. */
  step: string | null;
  fallback_step_id?: string | null;
  steps: BotStep[];
}
