/**
 * The agent's copilot in a room (issue #24): a suggested reply from the knowledge and the room's last
 * messages (never sent: the agent edits and sends it), and a summary of the conversation stored as a
 * private note (chats' notes, issue #22). Only a member who may manage chats and may open that room
 * (an agent limited to own rooms gets 404 for another's, as the notes route answers).
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import { ASSISTANT_TEXTS, SUMMARY_NOTE_PREFIX, type SuggestReplyResponse } from '../../../contract/assistant';
import type { Message } from '../../../contract/chats';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { messages } from '../../core/db/schema';
import { forbidden, notFound } from '../../core/errors';
import { ChatError, type ChatActor, type ChatService, type RoomRecord } from '../chats';
import type { AssistantService } from './assistantService';
import type { AssistantMetering } from './metering';

/** The room's messages a suggestion and a summary read at most (newest). */
const SUGGEST_WINDOW = 12;
const SUMMARY_WINDOW = 30;
/** A summary line quotes at most this many characters of a message. */
const QUOTE_MAX = 160;

type Row = { id: number; origin: string; text: string | null; type: string; senderName: string | null; createdAt: Date };

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_MAX ? `${flat.slice(0, QUOTE_MAX - 1).trimEnd()}…` : flat;
}

/** The local provider's answer ends with "— Source titles": the suggestion lists its sources apart. */
function withoutSourceLine(answer: string): string {
  return answer.replace(/\n\n— [^\n]*$/, '').trim();
}

export class Copilot {
  constructor(
    private readonly deps: { db: Database; clock: Clock; chats: ChatService; assistant: AssistantService; metering: AssistantMetering; randomKey: () => string },
  ) {}

  /** The room if the actor may open it (404 otherwise, 403 when the chats refuse the actor). */
  async room(actor: ChatActor, roomId: number): Promise<RoomRecord> {
    try {
      return await this.deps.chats.accessibleRoom(actor, roomId);
    } catch (err) {
      if (err instanceof ChatError) throw err.reason === 'forbidden' ? forbidden() : notFound();
      throw err;
    }
  }

  private async recent(roomId: number, limit: number): Promise<Row[]> {
    const rows = await this.deps.db
      .select({ id: messages.id, origin: messages.origin, text: messages.text, type: messages.type, senderName: messages.senderName, createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.roomId, roomId), inArray(messages.origin, ['user', 'agent', 'bot'])))
      .orderBy(desc(messages.id))
      .limit(limit);
    return rows.reverse();
  }

  /** The customer's words the reply answers: their messages since the last reply (else their last one). */
  private static question(rows: Row[]): string {
    const texts: string[] = [];
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i];
      if (row.origin !== 'user') {
        if (texts.length > 0) break;
        continue;
      }
      if (row.text?.trim()) texts.unshift(row.text.trim());
    }
    return texts.join(' ').slice(0, 1000);
  }

  async suggest(actor: ChatActor, roomId: number): Promise<SuggestReplyResponse> {
    const room = await this.room(actor, roomId);
    await this.deps.metering.check(room.companyId);
    const question = Copilot.question(await this.recent(room.id, SUGGEST_WINDOW));
    if (!question) return { text: '', sources: [] };
    const result = await this.deps.assistant.ask(room.companyId, question);
    if (result.handover || !result.answer) return { text: '', sources: [] };
    await this.deps.metering.count(room.companyId, 'suggestion', `suggestion:${room.id}:${this.deps.randomKey()}`, this.deps.clock.now());
    return { text: withoutSourceLine(result.answer), sources: result.sources };
  }

  async summarise(actor: ChatActor, roomId: number): Promise<Message> {
    const room = await this.room(actor, roomId);
    const rows = await this.recent(room.id, SUMMARY_WINDOW);
    const fromCustomer = rows.filter((r) => r.origin === 'user');
    const lines = [`${SUMMARY_NOTE_PREFIX} ${room.name} — ${rows.length} message(s), ${fromCustomer.length} from the customer.`];
    const asked = fromCustomer.filter((r) => r.text?.trim()).slice(-3);
    if (asked.length > 0) lines.push(`Customer asked: ${asked.map((r) => `“${quote(r.text!)}”`).join(' · ')}`);
    const lastReply = [...rows].reverse().find((r) => r.origin !== 'user' && r.text?.trim());
    if (lastReply) lines.push(`Last reply (${lastReply.origin === 'bot' ? lastReply.senderName || ASSISTANT_TEXTS.senderName : lastReply.senderName || 'agent'}): “${quote(lastReply.text!)}”`);
    const last = rows.at(-1);
    if (last) lines.push(last.origin === 'user' ? 'Waiting for a reply to the customer.' : 'The customer has not written since the last reply.');
    if (room.pausedUntil && room.pausedUntil.getTime() > this.deps.clock.now().getTime()) lines.push(`Automatic answers paused until ${room.pausedUntil.toISOString().slice(0, 16).replace('T', ' ')} UTC.`);
    return this.deps.chats.notes.add(actor, room, lines.join('\n'));
  }
}
