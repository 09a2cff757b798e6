/**
 * Spec §6 agent feature: for a fixed list of companies the tags view is shown only to admin and
 * manager; other roles see only rooms tagged with their own e-mail (the server enforces that) and the
 * agent tag list is limited to tags matching members' e-mails. Everyone else may view tags.
 */
import { isAgentTagName, type Tag } from '../../../../contract/chats';

/** Companies with the agent feature (names not given by the spec; empty until the product names them). */
export const AGENT_FEATURE_COMPANIES: readonly string[] = [];

/** The company has the agent feature: named in the list, or flagged by the server on the membership. */
export function hasAgentFeature(company: string | { name?: string | null; agent_feature?: unknown } | null | undefined, list: readonly string[] = AGENT_FEATURE_COMPANIES): boolean {
  if (company && typeof company === 'object' && company.agent_feature === true) return true;
  const companyName = typeof company === 'string' ? company : company?.name;
  if (!companyName) return false;
  const name = companyName.trim().toLowerCase();
  return list.some((c) => c.trim().toLowerCase() === name);
}

/** May this role see the tags view (tag filter, tag editing) in this company? */
export function canViewTags(company: Parameters<typeof hasAgentFeature>[0], roleId: string | null | undefined, list: readonly string[] = AGENT_FEATURE_COMPANIES): boolean {
  if (!hasAgentFeature(company, list)) return true;
  return roleId === 'admin' || roleId === 'manager';
}

/** Agent tags (e-mail-like) apart from ordinary ones. */
export function splitTags<T extends Pick<Tag, 'name'>>(tags: T[]): { agent: T[]; ordinary: T[] } {
  const agent: T[] = [];
  const ordinary: T[] = [];
  for (const t of tags) (isAgentTagName(t.name) ? agent : ordinary).push(t);
  return { agent, ordinary };
}

/** In agent-feature companies the agent tags offered are only those matching members' e-mails. */
export function agentTagOptions<T extends Pick<Tag, 'name'>>(tags: T[], memberEmails: string[] | null, agentFeature: boolean): T[] {
  const { agent } = splitTags(tags);
  if (!agentFeature || !memberEmails) return agent;
  const emails = new Set(memberEmails.map((e) => e.toLowerCase()));
  return agent.filter((t) => emails.has(t.name.toLowerCase()));
}
