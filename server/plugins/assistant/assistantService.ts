/**
 * The assistant's settings and answers (issue #24). One decision for every caller (the ask route,
 * and the channels when they are wired): retrieve the company's passages, then
 * - `local`: quote the best passage(s), trimmed to a message, with the source's title;
 * - `openai-compatible`: ask the configured model with only those passages as context, and use its
 *   answer only if it cites one of them.
 * Below the threshold, on a prompt-injection attempt, or when the model fails or answers without a
 * citation, the answer is null and `handover` true: never a 500, never the prompt.
 */
import { eq, and, inArray } from 'drizzle-orm';
import {
  ASSISTANT_DEFAULTS,
  KNOWLEDGE_MESSAGES,
  type AskReason,
  type AskResponse,
  type AssistantSettings,
  type AssistantSettingsPatch,
} from '../../../contract/assistant';
import type { Clock } from '../../core/clock';
import type { SecretBox } from '../../core/crypto/secretBox';
import type { Database } from '../../core/db/client';
import { channels } from '../../core/db/schema';
import { fieldError } from '../../core/errors';
import { createChatCompletionsModel } from '../../providers/llm/chatCompletions';
import type { ChatModel } from '../../providers/llm/types';
import { looksLikeInjection } from './guardrails';
import type { KnowledgeService } from './knowledgeService';
import { buildMessages, checkAnswer } from './prompt';
import { retrieve, type RetrievedPassage } from './retrieval';
import { assistantSettings } from './schema';

type SettingsRow = typeof assistantSettings.$inferSelect;

/** The stored settings with the key opened (server side only). */
export interface ResolvedSettings extends Omit<AssistantSettings, 'api_key_set'> {
  apiKey: string | null;
}

/** The longest local answer: a chat message, not a page. */
export const LOCAL_ANSWER_MAX = 600;
/** Passages a model is given at most. */
const MODEL_PASSAGES = 4;

function settingsOf(row: SettingsRow | undefined): AssistantSettings {
  if (!row) return { ...ASSISTANT_DEFAULTS, channels: [] };
  return {
    provider: row.provider,
    base_url: row.baseUrl,
    model: row.model,
    api_key_set: row.apiKeyEnc !== null,
    temperature: Math.round(row.temperature * 100) / 100,
    max_tokens: row.maxTokens,
    timeout_ms: row.timeoutMs,
    threshold: Math.round(row.threshold * 100) / 100,
    channels: row.channels,
    enabled: row.enabled,
  };
}

/** A passage cut to at most `max` characters at a sentence end when there is one, else at a word. */
export function trimToMessage(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const sentenceEnd = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '), head.lastIndexOf('\n'));
  if (sentenceEnd > max / 3) return head.slice(0, sentenceEnd + 1).trim();
  const wordEnd = head.lastIndexOf(' ');
  return `${head.slice(0, wordEnd > 0 ? wordEnd : head.length).trim()}…`;
}

function handover(reason: AskReason, confidence: number): AskResponse {
  return { answer: null, sources: [], handover: true, confidence: round(confidence), reason };
}

const round = (n: number) => Math.round(n * 100) / 100;
const twoDecimals = round;

function sourcesOf(passages: RetrievedPassage[]): { id: number; title: string }[] {
  const seen = new Map<number, string>();
  for (const p of passages) if (!seen.has(p.itemId)) seen.set(p.itemId, p.title);
  return [...seen].map(([id, title]) => ({ id, title }));
}

export interface AssistantServiceDeps {
  db: Database;
  clock: Clock;
  box: SecretBox;
  knowledge: KnowledgeService;
  /** The model of the openai-compatible provider (tests may replace it; default: the real adapter). */
  modelFor?: (settings: ResolvedSettings) => ChatModel;
}

export class AssistantService {
  constructor(private readonly deps: AssistantServiceDeps) {}

  private async row(companyId: number): Promise<SettingsRow | undefined> {
    const [row] = await this.deps.db.select().from(assistantSettings).where(eq(assistantSettings.companyId, companyId));
    return row;
  }

  async settings(companyId: number): Promise<AssistantSettings> {
    return settingsOf(await this.row(companyId));
  }

  async resolvedSettings(companyId: number): Promise<ResolvedSettings> {
    const row = await this.row(companyId);
    const { api_key_set: _set, ...rest } = settingsOf(row);
    let apiKey: string | null;
    try {
      apiKey = this.deps.box.openOrNull(row?.apiKeyEnc);
    } catch {
      // Sealed with another key (the secret key was rotated): called without a key, the provider refuses, a person takes over.
      apiKey = null;
    }
    return { ...rest, apiKey };
  }

  async updateSettings(companyId: number, patch: AssistantSettingsPatch): Promise<AssistantSettings> {
    const current = settingsOf(await this.row(companyId));
    const next = { ...current, ...Object.fromEntries(Object.entries(patch).filter(([k, v]) => v !== undefined && k !== 'api_key')) } as AssistantSettings;
    if (next.provider === 'openai-compatible') {
      if (!next.base_url) throw fieldError('base_url', KNOWLEDGE_MESSAGES.providerNeedsUrl);
      if (!next.model) throw fieldError('model', KNOWLEDGE_MESSAGES.providerNeedsModel);
    }
    const wanted = [...new Set(next.channels)];
    if (wanted.length > 0) {
      const own = await this.deps.db.select({ id: channels.id }).from(channels).where(and(eq(channels.companyId, companyId), inArray(channels.id, wanted)));
      if (own.length !== wanted.length) throw fieldError('channels', KNOWLEDGE_MESSAGES.unknownChannel);
    }
    const values = {
      provider: next.provider,
      baseUrl: next.base_url,
      model: next.model,
      // Two decimals are all a slider or a person sets, and a `real` cannot hold a denormal (5e-324 underflows).
      temperature: twoDecimals(next.temperature),
      maxTokens: next.max_tokens,
      timeoutMs: next.timeout_ms,
      threshold: twoDecimals(next.threshold),
      channels: wanted,
      enabled: next.enabled,
      updatedAt: this.deps.clock.now(),
      // The key: a new one is sealed, '' or null removes it, absent keeps it.
      ...(patch.api_key !== undefined ? { apiKeyEnc: patch.api_key ? this.deps.box.seal(patch.api_key) : null } : {}),
    };
    await this.deps.db
      .insert(assistantSettings)
      .values({ companyId, ...values })
      .onConflictDoUpdate({ target: assistantSettings.companyId, set: values });
    return this.settings(companyId);
  }

  /** The assistant's decision on a question: an answer with its sources, or a hand-over. */
  async ask(companyId: number, question: string): Promise<AskResponse> {
    if (looksLikeInjection(question)) return handover('injection', 0);
    await this.deps.knowledge.syncFlows(companyId);
    const settings = await this.resolvedSettings(companyId);
    const passages = await retrieve(this.deps.db, companyId, question, MODEL_PASSAGES);
    // The confidence is the best-ranked passage's: the one an answer would quote first.
    const confidence = passages[0]?.coverage ?? 0;
    if (confidence === 0 || confidence < settings.threshold) return handover('low_confidence', confidence);
    const usable = passages.filter((p) => p.coverage >= settings.threshold);
    return settings.provider === 'openai-compatible' ? this.askModel(settings, usable, question, confidence) : this.answerLocally(usable, confidence);
  }

  /** Retrieval only: the best passage, and the next one of equal confidence when both fit a message. */
  private answerLocally(usable: RetrievedPassage[], confidence: number): AskResponse {
    const [best, second] = usable;
    const used = [best];
    let quote = best.text;
    if (second && second.coverage >= best.coverage && quote.length + second.text.length + 1 <= LOCAL_ANSWER_MAX) {
      quote = `${quote}\n${second.text}`;
      used.push(second);
    }
    const sources = sourcesOf(used);
    const answer = `${trimToMessage(quote, LOCAL_ANSWER_MAX)}\n\n— ${sources.map((s) => s.title).join(', ')}`;
    return { answer, sources, handover: false, confidence: round(confidence), reason: 'answered' };
  }

  private async askModel(settings: ResolvedSettings, usable: RetrievedPassage[], question: string, confidence: number): Promise<AskResponse> {
    const model = (this.deps.modelFor ?? ((s) => createChatCompletionsModel({ baseUrl: s.base_url, apiKey: s.apiKey })))(settings);
    let raw: string;
    try {
      raw = await model.complete(
        {
          model: settings.model,
          messages: buildMessages(
            usable.map((p) => ({ title: p.heading === p.title ? p.title : `${p.title} — ${p.heading}`, text: p.text })),
            question,
          ),
          temperature: settings.temperature,
          max_tokens: settings.max_tokens,
        },
        { timeoutMs: settings.timeout_ms },
      );
    } catch {
      // Timeouts, network and provider errors alike: a person takes over (the route never fails).
      return handover('provider_error', confidence);
    }
    const checked = checkAnswer(raw, usable.length);
    if (!checked.ok) return handover(checked.reason === 'leak' ? 'injection' : checked.reason === 'no_answer' ? 'low_confidence' : 'no_citation', confidence);
    return { answer: checked.text, sources: sourcesOf(checked.cited.map((n) => usable[n - 1])), handover: false, confidence: round(confidence), reason: 'answered' };
  }
}
