/** Template choice rules for the composer's template dialog (contract/channels.ts MessageTemplate). */
import { templateBodyParameterCount, type MessageTemplate } from '../../../../contract/channels';

/** Only Meta-approved templates can be sent. */
export function approvedTemplates(templates: MessageTemplate[]): MessageTemplate[] {
  return templates.filter((x) => String(x.status).toUpperCase() === 'APPROVED');
}

/** The template's body text (what the customer reads, with its {{n}} placeholders). */
export function templateBody(template: Pick<MessageTemplate, 'components'>): string {
  return template.components.find((c) => c.type === 'BODY')?.text ?? '';
}

/** One value per {{n}} of the body, each required (whitespace-only does not count). */
export function parametersComplete(template: Pick<MessageTemplate, 'components'>, parameters: string[]): boolean {
  const n = templateBodyParameterCount(template);
  return Array.from({ length: n }, (_, i) => parameters[i] ?? '').every((p) => p.trim().length > 0);
}

/** A stable key for a template (Meta may list the same name in several languages). */
export function templateKey(template: Pick<MessageTemplate, 'id' | 'name' | 'language'>): string {
  return template.id || `${template.name}:${template.language}`;
}
