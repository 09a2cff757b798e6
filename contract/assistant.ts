/**
 * The AI assistant (issue #24): the company's knowledge (articles, uploaded documents, the flows'
 * extra context), split into passages and searched, and the assistant's settings and answers.
 * Routes: /api/knowledge/ (list, create, detail, edit, delete, upload) and /api/assistant/
 * (settings, ask). Access: the `assistant` permission area (view reads and asks, manage edits).
 */
import { z } from 'zod';
import { pageQuery } from './team';

export const KNOWLEDGE_KINDS = ['article', 'document', 'flow'] as const;
export type KnowledgeKind = (typeof KNOWLEDGE_KINDS)[number];

/** What an uploaded document was: the format its text was read from. */
export const KNOWLEDGE_FORMATS = ['markdown', 'text', 'pdf'] as const;
export type KnowledgeFormat = (typeof KNOWLEDGE_FORMATS)[number];

export interface KnowledgePassage {
  id: number;
  position: number;
  /** The heading the passage sits under (the item's title when none). */
  heading: string;
  text: string;
}

/** A knowledge item in lists. */
export interface KnowledgeItemSummary {
  id: number;
  kind: KnowledgeKind;
  title: string;
  /** Articles: 'markdown'; documents: the uploaded file's format; flows: 'text'. */
  format: KnowledgeFormat;
  /** Documents: the uploaded file's name. */
  file_name: string | null;
  /** Flows: the flow the context comes from (edited there, read-only here). */
  flow_id: number | null;
  passage_count: number;
  created_at: string;
  updated_at: string;
}

/** One item with its body and the passages it became (detail, create, edit and upload answers). */
export interface KnowledgeItem extends KnowledgeItemSummary {
  body: string;
  passages: KnowledgePassage[];
}

export const KNOWLEDGE_LIMITS = {
  title: 200,
  body: 100_000,
  /** The text read from an uploaded document. */
  documentText: 500_000,
  /** Uploaded files, in bytes. */
  uploadBytes: 5 * 1024 * 1024,
  question: 1000,
} as const;

export const KNOWLEDGE_MESSAGES = {
  uploadMissing: 'Choose a file to upload.',
  uploadType: 'Upload a PDF, Markdown (.md) or plain text (.txt) file.',
  uploadTooLarge: `The file is too large: at most ${KNOWLEDGE_LIMITS.uploadBytes / (1024 * 1024)} MB.`,
  uploadUnreadable: 'The text of this file could not be read.',
  uploadEmpty: 'This file holds no text to learn from.',
  flowReadOnly: "This knowledge comes from a flow's extra context: edit it in the flow.",
  providerNeedsUrl: 'Enter the base URL of an OpenAI-compatible endpoint.',
  providerNeedsModel: 'Enter the model to use.',
  unknownChannel: 'This channel does not belong to the company.',
} as const;

const blank = 'This field may not be blank.';
const maxMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;
const notBlank = (max: number) =>
  z
    .string()
    .refine((v) => v.trim().length > 0, blank)
    .refine((v) => v.length <= max, maxMessage(max));

export const KnowledgeArticleBody = z.object({
  title: z.string().trim().min(1, blank).max(KNOWLEDGE_LIMITS.title, maxMessage(KNOWLEDGE_LIMITS.title)),
  body: notBlank(KNOWLEDGE_LIMITS.body),
});
export type KnowledgeArticleBody = z.infer<typeof KnowledgeArticleBody>;

export const KnowledgePatchBody = KnowledgeArticleBody.partial();
export type KnowledgePatchBody = z.infer<typeof KnowledgePatchBody>;

export const KnowledgeListQuery = z.object({ ...pageQuery, kind: z.enum(KNOWLEDGE_KINDS).optional() });
export type KnowledgeListQuery = z.input<typeof KnowledgeListQuery>;

// ---- The assistant ----

export const ASSISTANT_PROVIDERS = ['local', 'openai-compatible'] as const;
export type AssistantProvider = (typeof ASSISTANT_PROVIDERS)[number];

export interface AssistantSettings {
  provider: AssistantProvider;
  base_url: string;
  model: string;
  /** Whether an API key is stored (the key itself is write-only). */
  api_key_set: boolean;
  temperature: number;
  max_tokens: number;
  timeout_ms: number;
  /** 0..1: below this confidence the assistant does not answer (hands over). */
  threshold: number;
  /** The channels it answers customers on. */
  channels: number[];
  enabled: boolean;
}

export const ASSISTANT_DEFAULTS: AssistantSettings = {
  provider: 'local',
  base_url: '',
  model: '',
  api_key_set: false,
  temperature: 0.2,
  max_tokens: 400,
  timeout_ms: 15_000,
  threshold: 0.5,
  channels: [],
  enabled: false,
};

const httpUrl = z
  .string()
  .trim()
  .max(500, maxMessage(500))
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), 'Enter a valid URL.');

export const AssistantSettingsPatch = z.object({
  provider: z.enum(ASSISTANT_PROVIDERS).optional(),
  base_url: httpUrl.optional(),
  model: z.string().trim().max(200, maxMessage(200)).optional(),
  /** A new key; '' or null removes the stored one; absent keeps it. */
  api_key: z.string().max(500, maxMessage(500)).nullable().optional(),
  temperature: z.number().min(0, 'Ensure this value is greater than or equal to 0.').max(2, 'Ensure this value is less than or equal to 2.').optional(),
  max_tokens: z.number().int('A valid integer is required.').min(1, 'Ensure this value is greater than or equal to 1.').max(8192, 'Ensure this value is less than or equal to 8192.').optional(),
  timeout_ms: z.number().int('A valid integer is required.').min(1000, 'Ensure this value is greater than or equal to 1000.').max(120_000, 'Ensure this value is less than or equal to 120000.').optional(),
  threshold: z.number().min(0, 'Ensure this value is greater than or equal to 0.').max(1, 'Ensure this value is less than or equal to 1.').optional(),
  channels: z.array(z.number().int().positive()).max(100, 'Ensure this field has no more than 100 elements.').optional(),
  enabled: z.boolean().optional(),
});
export type AssistantSettingsPatch = z.infer<typeof AssistantSettingsPatch>;

export const AskBody = z.object({ question: notBlank(KNOWLEDGE_LIMITS.question) });
export type AskBody = z.infer<typeof AskBody>;

/** Why the assistant answered or handed over (the console explains it; the stats count it). */
export const ASK_REASONS = ['answered', 'low_confidence', 'injection', 'provider_error', 'no_citation'] as const;
export type AskReason = (typeof ASK_REASONS)[number];

export interface AskResponse {
  answer: string | null;
  sources: { id: number; title: string }[];
  handover: boolean;
  /** 0..1: how much of the question the best passage covers. */
  confidence: number;
  reason: AskReason;
}

// ---------- on the channels and in the inbox (issue #24, second part) ----------

/**
 * What an assistant's message in a room carries in `Message.data.assistant` (origin `bot`): the console's
 * thread marks it "AI" and lists the source titles. `handover`: the message that handed the room to a person.
 */
export interface AssistantMessageMark {
  sources: { id: number; title: string }[];
  handover: boolean;
}
export const ASSISTANT_MESSAGE_KEY = 'assistant';

/** The assistant's own words on the channels (sent to customers, in English like the bots' HAND_OVER_TEXT). */
export const ASSISTANT_TEXTS = {
  senderName: 'AI assistant',
  handOver: 'Let me pass you to a person who can help. Please wait a moment.',
  rephrase: 'Sorry, I could not find an answer to that. Could you say it another way?',
} as const;

/** Reads the assistant's mark of a message's data (null: not the assistant's message). */
export function assistantMarkOf(data: Record<string, unknown> | null | undefined): AssistantMessageMark | null {
  const mark = data?.[ASSISTANT_MESSAGE_KEY];
  if (!mark || typeof mark !== 'object') return null;
  const { sources, handover } = mark as { sources?: unknown; handover?: unknown };
  const list = Array.isArray(sources)
    ? sources.filter((s): s is { id: number; title: string } => !!s && typeof s === 'object' && typeof (s as { title?: unknown }).title === 'string')
    : [];
  return { sources: list, handover: handover === true };
}

/**
 * POST /api/rooms/{id}/suggest-reply/ (no body) → a reply the agent may edit and send; never sent by
 * the server. `text` is '' when the knowledge holds nothing for the customer's last messages.
 */
export interface SuggestReplyResponse {
  text: string;
  sources: { id: number; title: string }[];
}

/** POST /api/rooms/{id}/summary/ (no body) → 201 the private note holding the summary (contract/notes.ts). */
export const SUMMARY_NOTE_PREFIX = 'Summary:';
