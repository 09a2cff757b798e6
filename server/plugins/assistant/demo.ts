/**
 * The offline demo's knowledge (issue #24): the Demo Company, a small shop, gets a few articles
 * (shipping, returns, opening hours, payment) and the assistant's settings with the `local`
 * provider, so "Try a question" on /knowledge answers at once, offline; the assistant is on the company's
 * sandbox channel, so a customer in the simulator who types a question (rather than a menu option of the
 * demo bot) gets the answer with its source, or is handed over. Seeded at start when the company has no
 * knowledge yet; never stops the start.
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../core/db/client';
import { channels, companies } from '../../core/db/schema';
import type { AssistantService } from './assistantService';
import type { KnowledgeService } from './knowledgeService';
import { assistantQuestions, assistantSettings, knowledgeItems } from './schema';

export const DEMO_ARTICLES: { title: string; body: string }[] = [
  {
    title: 'Shipping',
    body: `# Shipping

We ship every order from our workshop in Lyon. Orders placed before 2 pm leave the same working day.

## Delivery times
Delivery takes 2 to 3 working days in France and 4 to 7 working days to the rest of Europe. We do not ship outside Europe yet.

## Shipping costs
Shipping is free for orders over 50 euros. Below that, standard delivery costs 4.90 euros and express delivery (next working day, France only) costs 9.90 euros.

## Tracking
Every order gets a tracking link by e-mail as soon as it leaves the workshop.`,
  },
  {
    title: 'Returns and refunds',
    body: `# Returns

You can return any item within 30 days of delivery, unused and in its original packaging. Returns are free: print the prepaid label from the link in your delivery e-mail.

## Refunds
Refunds are paid back to the card used for the order within 5 working days after we receive the return.

## Exchanges
To exchange an item for another size or colour, return it and place a new order: this is the fastest way.`,
  },
  {
    title: 'Opening hours',
    body: `# Opening hours

Our shop at 12 rue de la Paix, Lyon, is open Monday to Friday from 9 am to 6 pm, and Saturday from 10 am to 5 pm. It is closed on Sundays and public holidays.

Customer service answers messages during the same opening hours.`,
  },
  {
    title: 'Payment',
    body: `# Payment methods

We accept Visa, Mastercard and American Express cards, PayPal and Apple Pay. Payment is taken when the order is placed.

## Invoices
An invoice is attached to the confirmation e-mail of every order.

## Paying in instalments
Orders over 100 euros can be paid in three instalments with no fees.`,
  },
];

export async function seedDemoKnowledge(db: Database, knowledge: KnowledgeService, assistant: AssistantService, companyName: string, now: Date = new Date()): Promise<void> {
  const [company] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, companyName)).limit(1);
  if (!company) return;
  const [anyItem] = await db.select({ id: knowledgeItems.id }).from(knowledgeItems).where(eq(knowledgeItems.companyId, company.id)).limit(1);
  if (!anyItem) {
    for (const article of DEMO_ARTICLES) await knowledge.createArticle(company.id, article);
  }
  const [settings] = await db.select({ id: assistantSettings.companyId }).from(assistantSettings).where(eq(assistantSettings.companyId, company.id));
  if (settings) return;
  const [sandbox] = await db
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.companyId, company.id), eq(channels.platform, 'sandbox')))
    .orderBy(asc(channels.id))
    .limit(1);
  await assistant.updateSettings(company.id, { provider: 'local', enabled: !!sandbox, channels: sandbox ? [sandbox.id] : [] });
  await seedDemoQuestions(db, company.id, now.getTime());
}

/** A week of the assistant's questions, so /stats shows its answer rate and what the knowledge lacks (issue #24). */
const DEMO_QUESTIONS: { question: string; outcome: 'answer' | 'handover'; reason: string; daysAgo: number }[] = [
  { question: 'How do I return an item?', outcome: 'answer', reason: 'answered', daysAgo: 6 },
  { question: 'When are you open on Saturday?', outcome: 'answer', reason: 'answered', daysAgo: 5 },
  { question: 'How long does delivery to Lyon take?', outcome: 'answer', reason: 'answered', daysAgo: 4 },
  { question: 'Can I pay in three instalments?', outcome: 'answer', reason: 'answered', daysAgo: 3 },
  { question: 'How long do refunds take?', outcome: 'answer', reason: 'answered', daysAgo: 1 },
  { question: 'Do you sell gift cards?', outcome: 'handover', reason: 'low_confidence', daysAgo: 5 },
  { question: 'Do you sell gift cards?', outcome: 'handover', reason: 'low_confidence', daysAgo: 2 },
  { question: 'Do you sell gift cards?', outcome: 'handover', reason: 'low_confidence', daysAgo: 0 },
  { question: 'Can I pick up my order in store?', outcome: 'handover', reason: 'low_confidence', daysAgo: 1 },
  { question: 'I want to talk to a person', outcome: 'handover', reason: 'asked_for_person', daysAgo: 2 },
];

async function seedDemoQuestions(db: Database, companyId: number, now: number): Promise<void> {
  await db.insert(assistantQuestions).values(
    DEMO_QUESTIONS.map((q) => ({ companyId, question: q.question, outcome: q.outcome, reason: q.reason, createdAt: new Date(now - q.daysAgo * 86_400_000 - 3_600_000) })),
  );
}
