/** Reads a bot's graph from the bot service's tables (../schema.ts) into the engine's shapes. */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../../core/db/client';
import { botChannels, botDrafts, bots, botSteps, stepOptions } from '../schema';
import type { RuntimeBot, RuntimeStep } from './engine';

export type BotRow = typeof bots.$inferSelect;

/** The bot of a company by id (another company's bot: null). */
export async function botOfCompany(db: Database, companyId: number, botId: number): Promise<BotRow | null> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.id, botId), eq(bots.companyId, companyId)));
  return row ?? null;
}

/** The active bot assigned to a channel (one at most), or null. */
export async function activeBotOfChannel(db: Database, channelId: number): Promise<BotRow | null> {
  const [row] = await db
    .select({ bot: bots })
    .from(botChannels)
    .innerJoin(bots, eq(bots.id, botChannels.botId))
    .where(and(eq(botChannels.channelId, channelId), eq(bots.active, true)))
    .limit(1);
  return row?.bot ?? null;
}

/** The whole graph of a bot: its steps with their options (in their order). */
export async function loadBot(db: Database, bot: BotRow): Promise<RuntimeBot> {
  const [stepRows, optionRows] = await Promise.all([
    db.select().from(botSteps).where(eq(botSteps.botId, bot.id)).orderBy(asc(botSteps.position), asc(botSteps.id)),
    db.select().from(stepOptions).where(eq(stepOptions.botId, bot.id)).orderBy(asc(stepOptions.position), asc(stepOptions.id)),
  ]);
  const steps = new Map<string, RuntimeStep>();
  for (const row of stepRows) {
    steps.set(row.id, {
      id: row.id,
      messages: (row.messages ?? []).map((m) => ({ text: m.text ?? null, media_url: m.media_url ?? null, type: m.type ?? 'text' })),
      options: [],
      next_step_id: row.nextStepId,
      actions: row.actions ?? [],
      input: row.inputVariable ? { variable: row.inputVariable } : null,
    });
  }
  for (const option of optionRows) {
    steps.get(option.stepId)?.options.push({ id: option.id, text: option.text, next_step_id: option.nextStep });
  }
  return {
    id: bot.id,
    companyId: bot.companyId,
    name: bot.name,
    startStepId: bot.startStepId,
    fallback: bot.fallbackStepId ? { kind: 'step', step_id: bot.fallbackStepId } : { kind: 'hand_over' },
    steps,
  };
}

/**
 * What the builder's test chat runs: the bot's draft when one is being edited (issue #25: try it
 * before publishing), else the published graph. Customers always meet the published one (loadBot).
 */
export async function loadDraftBot(db: Database, bot: BotRow): Promise<RuntimeBot> {
  const [draft] = await db.select({ content: botDrafts.content }).from(botDrafts).where(eq(botDrafts.botId, bot.id));
  if (!draft) return loadBot(db, bot);
  const { content } = draft;
  const steps = new Map<string, RuntimeStep>();
  for (const step of content.steps) {
    steps.set(step.id, {
      id: step.id,
      // A media message not uploaded yet says nothing in the test chat (Publish refuses it anyway).
      messages: step.messages.filter((m) => m.type === 'text' || m.media_url).map((m) => ({ text: m.text || null, media_url: m.media_url ?? null, type: m.type })),
      options: step.options.map((o) => ({ id: o.id, text: o.text, next_step_id: o.next_step })),
      next_step_id: step.next_step_id,
      actions: step.actions,
      input: step.input?.variable ? { variable: step.input.variable } : null,
    });
  }
  const start = content.step && steps.has(content.step) ? content.step : (content.steps[0]?.id ?? null);
  return {
    id: bot.id,
    companyId: bot.companyId,
    name: bot.name,
    startStepId: start,
    fallback: content.fallback_step_id ? { kind: 'step', step_id: content.fallback_step_id } : { kind: 'hand_over' },
    steps,
  };
}
