/**
 * The offline demo's bot (issue #12): the Demo Company gets "Demo assistant" on its sandbox channel,
 * so whoever writes as a customer in the simulator meets it at once: a greeting, a menu of three
 * options (track an order with a free-text question, opening hours, talk to a person) and a
 * hand-over to a person (an option, and the fallback after an answer it does not understand twice).
 * Seeded at start (server/main.ts) when the company has no bot yet; never stops the start. The demo inbox's
 * conversations it answered (server/plugins/sandbox/demo.ts writes them in its words) become its conversations, so
 * its page counts the conversations it handled.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { findGraphProblem, type BotMessage, type StepAction } from '../../../contract/bots';
import type { Database, Tx } from '../../core/db/client';
import { channels, companies, messages, rooms } from '../../core/db/schema';
import { normalizedContent } from '../../../contract/botDrafts';
import { botChannels, botConversations, bots, botSteps, botVersions, stepOptions } from './schema';

export const DEMO_BOT_NAME = 'Demo assistant';

interface DemoStep {
  id: string;
  texts: string[];
  options?: [id: string, text: string, next: string][];
  next?: string;
  input?: string;
  actions?: StepAction[];
  layout: { x: number; y: number };
}

/** The demo bot's graph (the start step first, at the canvas's default 300, 300). */
export const DEMO_BOT_STEPS: DemoStep[] = [
  {
    id: 'welcome',
    texts: ['Hi! I am the Demo Company assistant.', 'How can I help you today?'],
    options: [
      ['welcome-track', 'Track my order', 'track'],
      ['welcome-hours', 'Opening hours', 'hours'],
      ['welcome-person', 'Talk to a person', 'person'],
    ],
    layout: { x: 300, y: 300 },
  },
  { id: 'track', texts: ['Please type your order number (for example 4821).'], input: 'order', next: 'track-done', layout: { x: 0, y: 600 } },
  { id: 'track-done', texts: ['Thanks! Order {{order}} left our warehouse and should reach you within 3 days.'], next: 'more', layout: { x: 0, y: 900 } },
  { id: 'hours', texts: ['We are open Monday to Saturday, 9:00 to 19:00.'], next: 'more', layout: { x: 300, y: 600 } },
  {
    id: 'more',
    texts: ['Anything else?'],
    options: [
      ['more-menu', 'Main menu', 'welcome'],
      ['more-person', 'Talk to a person', 'person'],
    ],
    layout: { x: 300, y: 1200 },
  },
  { id: 'person', texts: ['Sure! Someone from our team will answer you here shortly.'], actions: [{ type: 'hand_over' }], layout: { x: 600, y: 600 } },
];

/** Gives the company (by name) the demo bot on its sandbox channel; does nothing when it has a bot already. Returns the bot's id, or null. */
export async function seedDemoBot(db: Database, companyName: string): Promise<number | null> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, companyName)).limit(1);
  if (!company) return null;
  const [existing] = await db.select({ id: bots.id }).from(bots).where(eq(bots.companyId, company.id)).limit(1);
  if (existing) return null;
  const [sandbox] = await db
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.companyId, company.id), eq(channels.platform, 'sandbox')))
    .orderBy(channels.id)
    .limit(1);
  const problem = findGraphProblem(
    DEMO_BOT_STEPS.map((s) => ({ id: s.id, next_step_id: s.next ?? null, options: (s.options ?? []).map(([id, , next]) => ({ id, next_step: next })), input: s.input ? { variable: s.input } : null })),
    DEMO_BOT_STEPS[0].id,
  );
  if (problem) throw new Error(`demo bot: ${problem.message}`);

  return db.transaction(async (tx) => {
    const [bot] = await tx.insert(bots).values({ companyId: company.id, name: DEMO_BOT_NAME, startStepId: DEMO_BOT_STEPS[0].id, fallbackStepId: null }).returning({ id: bots.id });
    await tx.insert(botSteps).values(
      DEMO_BOT_STEPS.map((step, position) => ({
        botId: bot.id,
        id: step.id,
        messages: step.texts.map((text): BotMessage => ({ text, media_url: null, type: 'text' })),
        nextStepId: step.next ?? null,
        actions: step.actions ?? [],
        inputVariable: step.input ?? null,
        layoutX: step.layout.x,
        layoutY: step.layout.y,
        position,
      })),
    );
    const options = DEMO_BOT_STEPS.flatMap((step) => (step.options ?? []).map(([id, text, next], position) => ({ botId: bot.id, id, stepId: step.id, text, nextStep: next, position })));
    await tx.insert(stepOptions).values(options);
    // Live at once, so it is the bot's published version 1 (issue #25: the canvas says "Published").
    const snapshot = normalizedContent({
      step: DEMO_BOT_STEPS[0].id,
      fallback_step_id: null,
      steps: DEMO_BOT_STEPS.map((step, position) => ({
        id: step.id,
        messages: step.texts.map((text): BotMessage => ({ text, media_url: null, type: 'text' })),
        options: (step.options ?? []).map(([id, text, next]) => ({ id, text, next_step: next, step: step.id })),
        next_step_id: step.next ?? null,
        layout: { x: step.layout.x, y: step.layout.y },
        actions: step.actions ?? [],
        input: step.input ? { variable: step.input } : null,
        position,
      })),
    });
    await tx.insert(botVersions).values({ botId: bot.id, companyId: company.id, version: 1, kind: 'publish', snapshot, createdBy: 'Demo' });
    if (sandbox) {
      await tx.insert(botChannels).values({ botId: bot.id, channelId: sandbox.id, companyId: company.id }).onConflictDoNothing();
      await recordDemoConversations(tx, { botId: bot.id, companyId: company.id, channelId: sandbox.id });
    }
    return bot.id;
  });
}

/**
 * Each room of the sandbox channel where this bot's words were written becomes one of its conversations, as its
 * runtime would have left it: handed over when its last words were a hand-over step's (the conversation then
 * waits on no step), else waiting at the step it spoke last; every customer message until then seen.
 */
async function recordDemoConversations(tx: Tx, target: { botId: number; companyId: number; channelId: number }): Promise<void> {
  const lines = await tx
    .select({ id: messages.id, roomId: messages.roomId, origin: messages.origin, text: messages.text, createdAt: messages.createdAt })
    .from(messages)
    .innerJoin(rooms, eq(rooms.id, messages.roomId))
    .where(and(eq(rooms.channelId, target.channelId), inArray(messages.origin, ['bot', 'user'])))
    .orderBy(asc(messages.id));
  const byRoom = new Map<number, typeof lines>();
  for (const line of lines) byRoom.set(line.roomId, [...(byRoom.get(line.roomId) ?? []), line]);
  const conversations = [...byRoom].flatMap(([roomId, roomLines]) => {
    const said = roomLines.filter((line) => line.origin === 'bot');
    const last = said.at(-1);
    const step = last && DEMO_BOT_STEPS.find((s) => s.texts.includes(last.text ?? ''));
    if (!last || !step) return [];
    const handedOver = (step.actions ?? []).some((action) => action.type === 'hand_over');
    return [
      {
        companyId: target.companyId,
        roomId,
        botId: target.botId,
        currentStepId: handedOver ? null : step.id,
        handedOverAt: handedOver ? last.createdAt : null,
        lastInboundMessageId: Math.max(0, ...roomLines.filter((line) => line.origin === 'user').map((line) => line.id)),
        lastBotMessageId: last.id,
        createdAt: said[0].createdAt,
        updatedAt: last.createdAt,
      },
    ];
  });
  if (conversations.length) await tx.insert(botConversations).values(conversations);
}
