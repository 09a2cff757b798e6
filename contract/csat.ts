/**
 * Customer satisfaction (CSAT, issue #22): off by default, switched on per channel (on its card on the
 * channels page, like auto-assignment). When a room of such a channel is resolved, the customer gets one
 * question, a rating from 1 to 5 (buttons or a list where the channel offers choices, the text says how
 * to answer by typing); their next reply, 1 to 5 within CSAT_WINDOW_HOURS, is stored on the room
 * (csat_responses: the room, the rating, the agent the room was assigned to when resolved), shown in
 * the thread as a small event row and counted on /stats. The rating never re-opens the room and never
 * reaches flows or bots.
 *
 *   GET /api/csat/                  company(chats, view)      → CsatSettingList
 *   PUT /api/csat/{channel_id}/     company(channels, manage) CsatSettingBody → CsatSetting
 */
import { z } from 'zod';

/** How long after the question a reply 1–5 counts as the rating. */
export const CSAT_WINDOW_HOURS = 24;
export const CSAT_RATINGS = [1, 2, 3, 4, 5] as const;
/** The button/list row ids of the question (`csat:5`). */
export const CSAT_CHOICE_PREFIX = 'csat:';

/** The question sent to the customer (stored text; the customer's language is not known). */
export const CSAT_QUESTION = 'How would you rate our help? Reply with a number from 1 (poor) to 5 (excellent).';
export const CSAT_CHOICES: { id: string; title: string }[] = [
  { id: 'csat:5', title: '5 - Excellent' },
  { id: 'csat:4', title: '4 - Good' },
  { id: 'csat:3', title: '3 - Okay' },
  { id: 'csat:2', title: '2 - Poor' },
  { id: 'csat:1', title: '1 - Very poor' },
];

export interface CsatSetting {
  channel_id: number;
  enabled: boolean;
}
export interface CsatSettingList {
  count: number;
  /** The company's channels with CSAT on (a channel not listed is off). */
  results: CsatSetting[];
}
export const CsatSettingBody = z.object({ enabled: z.boolean({ error: 'Must be a valid boolean.' }) }).strict();
export type CsatSettingBody = z.infer<typeof CsatSettingBody>;

/** The thread's event row of a rating: a system message whose data carries `csat`. */
export interface CsatEventData {
  csat: { rating: number };
}

export function csatRatingOf(data: Record<string, unknown> | null | undefined): number | null {
  const csat = data?.csat as { rating?: unknown } | undefined;
  return csat && typeof csat.rating === 'number' && csat.rating >= 1 && csat.rating <= 5 ? csat.rating : null;
}

/** A customer's reply as a rating (1–5: typed alone, or a choice of the question), or null. */
export function ratingOfReply(message: { type: string; text: string | null; data: Record<string, unknown> | null }): number | null {
  if (message.type === 'button_reply' || message.type === 'list_reply') {
    const data = message.data ?? {};
    const nested = (data.button_reply ?? data.list_reply) as { id?: unknown } | undefined;
    const id = nested && typeof nested === 'object' ? nested.id : data.id;
    const m = typeof id === 'string' ? /^csat:([1-5])$/.exec(id) : null;
    if (m) return Number(m[1]);
  }
  if (message.type !== 'text' && message.type !== 'button_reply' && message.type !== 'list_reply') return null;
  const m = /^\s*([1-5])\s*(?:\/\s*5)?\s*[.!]?\s*$/.exec(message.text ?? '');
  return m ? Number(m[1]) : null;
}

/** /stats: the share of ratings 4–5 among the responses (0–100, null without responses). */
export interface CsatFigures {
  responses: number;
  satisfied: number;
  score: number | null;
}
export interface AgentCsat extends CsatFigures {
  user_id: number;
  name: string;
  email: string;
}
