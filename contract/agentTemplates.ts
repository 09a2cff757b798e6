/** Agent reply templates ("saved replies", spec §3 Agent template; §7 /api/agent-templates/): shape and request schemas. */
import { z } from 'zod';
import { pageQuery } from './team';

export interface AgentTemplate {
  id: number;
  name: string;
  text: string;
  created_at: string;
  updated_at: string;
}

export const AGENT_TEMPLATE_LIMITS = { name: 100, text: 4096 } as const;

/** Spec §5: the console shows the server's first `name` error, else this (verbatim, misspelling included). */
export const AGENT_TEMPLATE_CREATE_ERROR = 'Error occured while creating agent template';
export const AGENT_TEMPLATE_MESSAGES = {
  duplicateName: 'An agent template with this name already exists.',
} as const;

const blank = 'This field may not be blank.';
const maxMessage = (max: number) => `Ensure this field has no more than ${max} characters.`;

export const AgentTemplateBody = z.object({
  name: z.string().trim().min(1, blank).max(AGENT_TEMPLATE_LIMITS.name, maxMessage(AGENT_TEMPLATE_LIMITS.name)),
  // The text is kept as typed (line breaks and spacing are part of the reply); whitespace-only is blank.
  text: z
    .string()
    .refine((v) => v.trim().length > 0, blank)
    .refine((v) => v.length <= AGENT_TEMPLATE_LIMITS.text, maxMessage(AGENT_TEMPLATE_LIMITS.text)),
});
export type AgentTemplateBody = z.infer<typeof AgentTemplateBody>;

export const AgentTemplateListQuery = z.object(pageQuery);
export type AgentTemplateListQuery = z.input<typeof AgentTemplateListQuery>;
