/** The composer's quick-reply popup: the "/query" at the start of a message, filtering and insertion. */
import type { AgentTemplate } from '../../../../contract/agentTemplates';

/** The query after a "/" that starts the message (single line), else null. */
export function slashQuery(text: string): string | null {
  if (!text.startsWith('/') || text.includes('\n')) return null;
  return text.slice(1);
}

/** Templates whose name or text contains the query (case-insensitive); names matching first. */
export function filterTemplates(templates: AgentTemplate[], query: string): AgentTemplate[] {
  const q = query.trim().toLowerCase();
  if (!q) return templates;
  const byName = templates.filter((x) => x.name.toLowerCase().includes(q));
  const byText = templates.filter((x) => !x.name.toLowerCase().includes(q) && x.text.toLowerCase().includes(q));
  return [...byName, ...byText];
}

/** The message once a template is chosen: it replaces a leading "/query", else joins what was typed. */
export function insertTemplate(current: string, template: Pick<AgentTemplate, 'text'>): string {
  if (slashQuery(current) !== null || !current.trim()) return template.text;
  return /\s$/.test(current) ? `${current}${template.text}` : `${current} ${template.text}`;
}
